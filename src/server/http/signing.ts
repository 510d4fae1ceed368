/** Response integrity: Ed25519 for 1.3, HMAC-SHA256 for 1.2 (docs/protocol/client-api.md §2.2, §2.3). */
import { sign, type KeyObject } from 'node:crypto';
import { ed25519SignStream } from './ed25519-stream.js';
import type { StreamedBody } from './streamed-body.js';

/** The 1.2 `signature` header when the session has no enckey, as the real server sends it. */
export const NO_ENCRYPTION_KEY = 'No encryption key supplied';

/** Hex Ed25519 signature over the ASCII timestamp immediately followed by the body bytes. */
export function ed25519Signature(privateKey: KeyObject, timestamp: string, body: Buffer | StreamedBody): string {
  if (!Buffer.isBuffer(body)) {
    const prefix = Buffer.from(timestamp, 'ascii');
    return ed25519SignStream(privateKey, function* () {
      yield prefix;
      yield* body.chunks();
    });
  }
  return ed25519SignBytes(privateKey, Buffer.concat([Buffer.from(timestamp, 'ascii'), body]));
}

/** Hex Ed25519 signature over bytes that already are the timestamp followed by the body. */
export function ed25519SignBytes(privateKey: KeyObject, signed: Buffer): string {
  return sign(null, signed, privateKey).toString('hex');
}
