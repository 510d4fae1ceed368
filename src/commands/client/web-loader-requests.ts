/**
 * What `kactl client web-loader` answers on loopback, request by request: only pages of the
 * app's panel (the `Origin` a browser always sends; others get 403 and one line on stderr), the
 * page's nonce question at `/kactl/proof` (the proof of src/api/loader-proof.ts), the handshake
 * with the user's token (a nonce proved here, used once; or none, as the hosted panel's page and
 * the sandbox's page after the person's click send it), then the buttons, printed one a line
 * without control characters.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LOADER_NONCE, LOADER_PROOF_PATH, loaderProof } from '../../api/loader-proof.js';
import { oneLine } from '../../io/format.js';

export interface LoaderRequestsOptions {
  /** Origins whose pages may talk to the loader (`https://panel.example`). */
  readonly origins: ReadonlySet<string>;
  /** The port listened on: the proof is bound to it. */
  readonly port: number;
  /** The app secret, to prove the nonce; without it the page's question is refused. */
  readonly secret: string | undefined;
  /** Logs in with the token; answers the page itself (420 or the refusal). */
  login(user: string, token: string, res: ServerResponse): void;
  /** Whether a handshake has signed in (buttons wait for it). */
  signedIn(): boolean;
  /** A button was pressed: its value, printable. */
  pressed(value: string): void;
  /** One line on stderr. */
  warn(line: string): void;
}

/** Nonces proved and not yet used; a page view uses one, so a few suffice. */
const MAX_PENDING_NONCES = 32;

/** A reason phrase must be plain header text. */
export function reasonPhrase(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').slice(0, 200) || 'Refused';
}

export function answer(res: ServerResponse, status: number, phrase: string, body = '', headers: Readonly<Record<string, string>> = {}): void {
  res.writeHead(status, phrase, { ...headers, 'cache-control': 'no-store', 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
}

/** The request handler for the loader's servers. */
export function loaderRequests(options: LoaderRequestsOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const proved = new Set<string>();
  const used = new Set<string>();
  const refusedOrigins = new Set<string>();

  function refuseOrigin(origin: string | undefined, res: ServerResponse): void {
    const shown = origin === undefined ? 'a request without an Origin (not a browser page)' : `a page of ${JSON.stringify(origin)}`;
    if (!refusedOrigins.has(origin ?? '')) {
      refusedOrigins.add(origin ?? '');
      options.warn(`Refused ${shown}: only ${[...options.origins].join(', ')} may use the web loader (--origin URL allows another).`);
    }
    answer(res, 403, 'Forbidden', "Only the app's customer panel may use this web loader.");
  }

  function prove(url: URL, res: ServerResponse, cors: Record<string, string>): void {
    const nonce = url.searchParams.get('nonce') ?? '';
    if (!LOADER_NONCE.test(nonce)) return answer(res, 400, 'Bad nonce', 'The handshake nonce must be 32 hex characters.', cors);
    if (options.secret === undefined) return answer(res, 403, 'No app secret', 'This program has no app secret, so it cannot prove itself to the page.', cors);
    proved.add(nonce);
    if (proved.size > MAX_PENDING_NONCES) proved.delete(proved.values().next().value as string);
    answer(res, 200, 'OK', loaderProof(options.secret, nonce, options.port), cors);
  }

  function handshake(url: URL, res: ServerResponse, cors: Record<string, string>): void {
    const nonce = url.searchParams.get('nonce');
    const user = url.searchParams.get('user') ?? '';
    const token = url.searchParams.get('token') ?? '';
    if (user === '' || token === '') return answer(res, 400, 'Missing user or token', `The handshake needs user and token (the page asks for the proof at ${LOADER_PROOF_PATH}).`, cors);
    if (nonce !== null) {
      if (!LOADER_NONCE.test(nonce)) return answer(res, 400, 'Bad nonce', 'The handshake nonce must be 32 hex characters.', cors);
      if (!proved.has(nonce) || used.has(nonce)) return answer(res, 403, 'Unknown nonce', 'This handshake nonce was not proved here, or was used already.', cors);
      proved.delete(nonce);
      used.add(nonce);
    }
    for (const [name, value] of Object.entries(cors)) res.setHeader(name, value);
    options.login(user, token, res);
  }

  return (req, res) => {
    const origin = req.headers.origin;
    if (origin === undefined || !options.origins.has(origin)) return refuseOrigin(origin, res);
    const cors: Record<string, string> = { 'access-control-allow-origin': origin, vary: 'Origin' };
    if (req.method === 'OPTIONS') {
      const preflight = { ...cors, 'access-control-allow-methods': 'GET, OPTIONS', 'access-control-allow-headers': '*' };
      // Chromium asks before a public page reaches loopback (Private Network Access).
      if (req.headers['access-control-request-private-network'] === 'true') Object.assign(preflight, { 'access-control-allow-private-network': 'true' });
      return answer(res, 200, 'OK', '', preflight);
    }
    if (req.method !== 'GET') return answer(res, 405, 'Method Not Allowed', '', cors);
    let url: URL;
    let value: string;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
      value = decodeURIComponent(url.pathname.slice(1));
    } catch {
      return answer(res, 400, 'Bad Request', 'The path is not valid percent-encoding.', cors);
    }
    if (url.pathname === '/handshake') return handshake(url, res, cors);
    if (url.pathname === LOADER_PROOF_PATH) return prove(url, res, cors);
    if (!options.signedIn()) return answer(res, 409, 'Handshake first', 'No handshake yet.', cors);
    const printable = oneLine(value);
    if (printable === '') return answer(res, 404, 'Not Found', '', cors);
    answer(res, 420, 'SHEESH', '', cors);
    options.pressed(printable);
  };
}
