/**
 * Reading a request body with a size cap. A declared Content-Length over the cap is refused
 * before a byte is read; a body that grows past it stops being buffered at once (the rest is
 * drained and dropped so the client can read the 413).
 */
import type { IncomingMessage } from 'node:http';
import { InputError, MESSAGES } from './input-error.js';

export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume();
    return Promise.reject(new InputError(413, MESSAGES.bodyTooLarge));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > maxBytes) {
        refused = true;
        chunks.length = 0;
        reject(new InputError(413, MESSAGES.bodyTooLarge));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!refused) resolve(Buffer.concat(chunks, size));
    });
    req.on('error', (err) => {
      if (!refused) reject(err);
    });
  });
}

/**
 * How much of a refused body is read and dropped so the client can read its answer. Closing at
 * once would reset the connection under a client still sending, which then never sees the 413;
 * past this bound the connection is dropped instead.
 */
export const MAX_DISCARDED_BYTES = 64 * 1024 * 1024;

/** Reads the rest of a refused request's body into nothing, up to `maxBytes`, then gives up on the connection. */
export function discardBody(req: IncomingMessage, maxBytes: number = MAX_DISCARDED_BYTES): void {
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > maxBytes) req.socket.destroy();
  });
  req.resume();
}
