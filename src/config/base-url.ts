/**
 * The one check of a server base URL, wherever it enters (`--base-url`, KACTL_BASE_URL,
 * `profile add`): kactl appends `/api/1.3/`, `/api/1.2/` or `/api/seller/` itself, so a URL that
 * already names one of those paths would reach a page that does not exist ("Not found", exit 1,
 * no hint). Such a URL, and one without a scheme, is refused with the fix spelled out.
 */
import { InvalidArgumentError } from 'commander';

/** An API path at the end of a URL (`/api/1.3/`, `/api/seller`, `/api/`). */
const API_PATH = /\/api(?:\/(?:1\.\d+|seller))?\/*$/i;
const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/** Returns the base URL without a trailing slash, or throws an Error whose message says what to give instead. */
export function normaliseBaseUrl(raw: string): string {
  const text = raw.trim();
  if (!SCHEME.test(text)) {
    const guess = /^(localhost|127\.|\[?::1)/i.test(text) ? `http://${text}` : `https://${text}`;
    throw new Error(`The base URL "${text}" has no scheme; give it with one, e.g. ${guess.replace(/\/+$/, '')}.`);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`"${text}" is not a URL; give a full one such as https://keyauth.win or http://127.0.0.1:8787.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('The base URL must start with http:// or https://.');
  if (url.search || url.hash) throw new Error('The base URL takes no query string or fragment.');
  const apiPath = API_PATH.exec(url.pathname);
  if (apiPath) {
    const base = `${url.origin}${url.pathname.slice(0, apiPath.index)}`.replace(/\/+$/, '');
    throw new Error(`The base URL names the API path ${url.pathname}, which kactl adds itself; give the server's root: ${base}.`);
  }
  // Callers append /api/1.3/ etc.: keep the base without a trailing slash.
  return url.toString().replace(/\/+$/, '');
}

/** Commander parser for a base URL option: a refused URL is a usage error (exit 2). */
export function parseBaseUrl(raw: string): string {
  try {
    return normaliseBaseUrl(raw);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}
