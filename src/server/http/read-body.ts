/**
 * Reading a request body with a size cap. A declared Content-Length over the cap is refused
 * before a byte is read; a body that grows past it stops being buffered at once (the rest is
 * drained and dropped so the client can read the 413).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { InputError, MESSAGES } from './input-error.js';

export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume();
    return Promise.reject(new InputError(413, MESSAGES.bodyTooLarge, {}, `the body is over the ${maxBytes} bytes this sandbox reads`));
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
        reject(new InputError(413, MESSAGES.bodyTooLarge, {}, `the body is over the ${maxBytes} bytes this sandbox reads`));
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
 * How much of a body still arriving is read and dropped so the client can read its answer.
 * Closing at once would reset the connection under a client still sending, which then never sees
 * the answer; past this bound the connection is dropped instead.
 */
export const MAX_DISCARDED_BYTES = 64 * 1024 * 1024;

/**
 * Writes `answer` at once but ends it only once the rest of the request's body has been read
 * into nothing (up to `maxBytes`, then the connection is dropped). Ending at once is not enough:
 * when the client asked to close (`Connection: close`, HTTP/1.0) node closes the socket as the
 * answer ends, and the bytes the client is still sending turn that close into a reset, so a
 * client that sends its whole body before it reads never sees the answer. Ended after the body,
 * the close is clean (and a kept-alive connection stays usable).
 */
export function endAfterBody(req: IncomingMessage, res: ServerResponse, answer: Buffer, maxBytes: number = MAX_DISCARDED_BYTES): void {
  res.write(answer);
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > maxBytes) req.socket.destroy();
  });
  req.once('end', () => res.end());
  req.resume();
}
