/**
 * Putting an encoded answer on the socket: the headers every answer carries, then the body
 * (whole, streamed piece by piece, or piped from a stream), and what to do with a request body
 * that is still arriving.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { domainNow } from '../domain/clock.js';
import type { Store } from '../store/store.js';
import type { EncodedResponse } from './encoded-response.js';
import type { OriginPolicy } from './origin-policy.js';
import { endAfterBody } from './read-body.js';
import { writeStreamed } from './write-streamed.js';

export interface WriteDeps {
  /** For the domain clock every answer carries. */
  readonly store: Store;
  /** Milliseconds since the epoch. */
  readonly clock: () => number;
  /** The CORS headers each answer carries, from the request's Origin. */
  readonly origins: Pick<OriginPolicy, 'corsHeaders'>;
  /** True once shutdown began: every answer then closes its connection. */
  readonly closing: () => boolean;
}

export function writeAnswer(deps: WriteDeps, req: IncomingMessage, res: ServerResponse, response: EncodedResponse, refusedInput: boolean): void {
  if (res.headersSent) {
    // Nothing more can be sent: release what the answer holds (a file's bytes, an open download).
    if (!Buffer.isBuffer(response.body)) response.body.finished();
    response.stream?.destroy();
    return;
  }
  const closing = deps.closing();
  // A body may still be arriving (refused, or never read: a 404 or 405 to a POST): it is read
  // and dropped (bounded) before the answer ends, so the client sees our answer instead of a
  // reset; a complete refused request is closed after. A request without a body (a GET: most
  // requests) is not complete yet while it is answered at once, since node marks it so only
  // after this handler returns; it has nothing to wait for, and ends with the answer in one
  // write. (Waiting for its end, through the stream machinery, cost more than the write itself.)
  const draining = !req.complete && mayCarryBody(req) && !closing && Buffer.isBuffer(response.body) && !response.stream;
  const closeConnection = closing || (refusedInput && !draining);
  // Filled in place rather than spread together: same names, same order, fewer objects.
  const headers: Record<string, string> = {};
  const cors = deps.origins.corsHeaders(req.headers, req.method);
  Object.assign(headers, cors);
  // The domain clock (Unix seconds), so a client can show time left as the sandbox counts it.
  headers['x-sandbox-now'] = String(domainNow(deps.store, deps.clock()));
  Object.assign(headers, response.headers);
  // The answer may vary by more than the origin (the home page by Accept): both are named.
  if (cors['vary'] !== undefined && response.headers['vary'] !== undefined) headers['vary'] = `${response.headers['vary']}, ${cors['vary']}`;
  if (!response.stream) headers['content-length'] = String(response.body.length);
  if (closeConnection) headers['connection'] = 'close';
  res.writeHead(response.status, headers);
  if (response.stream) {
    // A source that fails part way cuts the connection: the client sees an incomplete body.
    pipeline(response.stream, res).catch(() => res.destroy());
    return;
  }
  if (draining) endAfterBody(req, res, response.body);
  else if (Buffer.isBuffer(response.body)) res.end(response.body);
  else writeStreamed(res, response.body);
  // Node reads and drops what nobody read of a request once its answer is sent; a body still
  // arriving is read now so the connection can serve the next request.
  if (!draining && !req.complete && mayCarryBody(req)) req.resume();
}

/** Whether a body may follow the request's head: HTTP/1.1 sends one only with a length or chunks. */
function mayCarryBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * The `truncate` fault: the headers with the whole body's length, part of the body, then the
 * connection ends, as when a proxy or the network drops it mid-answer.
 */
export function writeCutShort(deps: WriteDeps, res: ServerResponse, response: EncodedResponse): void {
  const body = Buffer.isBuffer(response.body) ? response.body : Buffer.alloc(0);
  const headers: Record<string, string> = { 'x-sandbox-now': String(domainNow(deps.store, deps.clock())), ...response.headers, 'content-length': String(Math.max(body.length, 1)) };
  res.writeHead(response.status, headers);
  res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.destroy());
}
