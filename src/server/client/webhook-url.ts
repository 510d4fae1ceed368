/**
 * Where a client `webhook` call may go. The URL is the seller's base link with the client's
 * `params` appended, so a client controls its tail: `@other-host/…` turns the base host into
 * userinfo, `/../` and `%2f..%2f` climb out of the base path. The built URL must keep the base
 * link's scheme, host, port and userinfo, and its path (percent-decoded, dot segments resolved)
 * must stay under the base link's path.
 */
export function webhookTarget(baselink: string, suffix: string): URL | undefined {
  let base: URL;
  let target: URL;
  try {
    base = new URL(baselink);
    target = new URL(baselink + suffix);
  } catch {
    return undefined;
  }
  if (target.protocol !== base.protocol || target.hostname !== base.hostname || target.port !== base.port) return undefined;
  if (target.username !== base.username || target.password !== base.password) return undefined;
  const basePath = decodedPath(base.pathname);
  const targetPath = decodedPath(target.pathname);
  if (basePath === undefined || targetPath === undefined) return undefined;
  if (targetPath.split('/').some((segment) => segment === '..' || segment === '.')) return undefined;
  if (!targetPath.startsWith(basePath)) return undefined;
  return target;
}

/** The path as the remote server may read it: every escape decoded, backslashes as slashes. */
function decodedPath(pathname: string): string | undefined {
  let path = pathname;
  // Decode until stable, so `%252f` does not survive as a slash for a server that decodes twice.
  for (let round = 0; round < 5; round++) {
    let next: string;
    try {
      next = decodeURIComponent(path);
    } catch {
      return undefined;
    }
    if (next === path) break;
    path = next;
  }
  return path.replace(/\\/g, '/');
}
