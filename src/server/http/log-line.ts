/**
 * What the request log may show. Values come from the client, so they are made safe for an
 * operator's terminal and file: control characters (a forged second line, an escape sequence
 * that clears the screen) are shown as `\xNN` / `\uNNNN`, and each value is cut to
 * MAX_LOGGED_CHARS so a huge `type` cannot blow the log up. Magic-link and password-reset pages
 * carry a single-use secret in their path: it is never logged whole.
 */

/** Longest client-supplied value written to one log line. */
export const MAX_LOGGED_CHARS = 120;

export function maskPageToken(path: string): string {
  return path.replace(/^(\/sandbox\/(?:magic|reset)\/)([^/]{0,4})[^/]*/, '$1$2…');
}

/** A client-supplied value fit for one log line: control characters escaped, length capped. */
export function loggable(value: string): string {
  const cut = value.length > MAX_LOGGED_CHARS ? `${value.slice(0, MAX_LOGGED_CHARS)}…(${value.length} chars)` : value;
  // C0, DEL, C1, and the Unicode line/paragraph separators.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point: they are what gets escaped
  return cut.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/**
 * One request's log line: method, path (page tokens masked), the API `type` when there was one,
 * the status sent (or what the client got instead: `reset`, `truncated`, `abandoned`), time.
 */
export function requestLogLine(method: string | undefined, path: string, type: string | undefined, outcome: number | string, elapsedMs: number): string {
  return `${loggable(method ?? '?')} ${loggable(maskPageToken(path))}${type === undefined ? '' : ` type=${loggable(type)}`} → ${outcome} (${Math.round(elapsedMs)} ms)`;
}
