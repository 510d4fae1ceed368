/**
 * Which URLs a seller may store for the server to fetch or call (`upload`, `editfile`,
 * `addwebhook`).
 *
 * The real server refuses local URLs (`localhost`, `127.0.0.1`, `file:/`). The sandbox exists
 * for offline testing, where the file server or webhook target is itself on loopback, so it
 * accepts http(s) URLs on any host, loopback included, and refuses only `file:` and other
 * non-HTTP schemes.
 */
export type UrlProblem = 'invalid' | 'local';

/** The URL if it is an absolute http(s) URL with a host; otherwise why not. */
export function checkFetchableUrl(text: string): { url: URL } | { problem: UrlProblem } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: 'invalid' };
  }
  if (url.protocol === 'file:') return { problem: 'local' };
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return { problem: 'invalid' };
  return { url };
}

/** E refuses Discord attachment links for files: Discord expires them after 24 hours. */
export function isDiscordUrl(text: string): boolean {
  return text.toLowerCase().includes('discord');
}
