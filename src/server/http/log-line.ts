/**
 * What the request log may show. Magic-link and password-reset pages carry a single-use secret in
 * their path: it is never logged whole.
 */
export function maskPageToken(path: string): string {
  return path.replace(/^(\/sandbox\/(?:magic|reset)\/)([^/]{0,4})[^/]*/, '$1$2…');
}

/** One request's log line: method, path (page tokens masked), the API `type` when there was one, status, time. */
export function requestLogLine(method: string | undefined, path: string, type: string | undefined, status: number, elapsedMs: number): string {
  return `${method ?? '?'} ${maskPageToken(path)}${type === undefined ? '' : ` type=${type}`} → ${status} (${Math.round(elapsedMs)} ms)`;
}
