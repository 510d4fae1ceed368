/**
 * node:crypto, loaded on first use. Loading it brings some fifteen of Node's own modules along
 * (~5–7 ms of a one-request command, bench/cold-start.mjs), and a client call needs it only to
 * check the answer's signature: so a call asks for it to be loaded while its request is in
 * flight (`loadCryptoSoon`), in the time it would otherwise spend waiting for the answer, not
 * before the request leaves. Whoever needs it first gets it loaded there and then.
 */
import type * as NodeCrypto from 'node:crypto';

let loaded: typeof NodeCrypto | undefined;

/** node:crypto (loaded now if it was not yet). */
export function nodeCrypto(): typeof NodeCrypto {
  loaded ??= process.getBuiltinModule('node:crypto');
  return loaded;
}

/**
 * Loads node:crypto on the event loop's next turn, if it is not loaded by then: call it just
 * before sending a request, whose bytes go out before that turn comes.
 */
export function loadCryptoSoon(): void {
  if (loaded === undefined) setImmediate(nodeCrypto);
}
