/**
 * How the program on localhost proves itself to the sandbox's web loader page before the page
 * hands it the user's login token (docs/design.md, "Web loader handshake"). Both sides are
 * kactl's: the page (src/server/panel/loader-page.ts) and `kactl client web-loader`.
 *
 * Any local user can listen on a free port, and the genuine page sends the token to whatever
 * answers on localhost:1337. So the page first asks `GET /kactl/proof?nonce=N`, with a nonce new
 * for each page view, and the listener must answer with a proof only a holder of the app secret
 * can make, bound to the port the page is talking to:
 *
 *   key   = HMAC-SHA256(app secret, "kactl web-loader key\n" + nonce)   (the page holds this)
 *   proof = HMAC-SHA256(key, "kactl web-loader proof\n" + port)        (hex)
 *
 * The page computes the proof for its own port in the browser (WebCrypto) and sends the token
 * by itself only on a match, once per nonce. The secret never reaches the page; a listener that
 * relays the nonce to the real kactl on another port gets a proof for that port, which the page
 * refuses. The question lives outside `/handshake` because a program built on a KeyAuth SDK
 * routes only `/handshake` (and its buttons), and takes any request there for a login attempt:
 * such a program answers 404 here, and the page then asks the person before sending the token.
 */
import { createHmac } from 'node:crypto';

/** Where the page asks for the proof: a path SDK loaders never route. */
export const LOADER_PROOF_PATH = '/kactl/proof';

/** A nonce as the page sends it: 16 random bytes in hex. */
export const LOADER_NONCE = /^[0-9a-f]{32}$/;

/** The per-view key the page is given (hex). */
export function loaderKey(secret: string, nonce: string): string {
  return createHmac('sha256', secret).update(`kactl web-loader key\n${nonce}`).digest('hex');
}

/** The listener's answer to the page's nonce, for the port it listens on (hex). */
export function loaderProof(secret: string, nonce: string, port: number): string {
  return createHmac('sha256', Buffer.from(loaderKey(secret, nonce), 'hex')).update(`kactl web-loader proof\n${port}`).digest('hex');
}
