/**
 * The spec's error shape `{"success":false,"message":…}` for every failure the HTTP layer itself
 * produces, in the encoding (and signing) of the route it happened on.
 */
import type { KeyObject } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { fail } from '../dispatch/reply.js';
import { encodeClientReply } from './client-encoder.js';
import { JSON_CONTENT_TYPE, type EncodedResponse } from './encoded-response.js';
import { MESSAGES } from './input-error.js';
import { asciiJson } from './json-encode.js';
import { lenientQueryParam } from './request-input.js';
import { allowedMethods, type Route } from './routes.js';
import { encodeSellerReply } from './seller-endpoint.js';

/** What an error needs to be shaped and signed like its route's answers. */
export interface ErrorShapeDeps {
  readonly failureStatus: 200 | 400;
  /** Signs 1.3 answers. */
  readonly privateKey: KeyObject;
  /** Milliseconds since the epoch, for the signature timestamp. */
  readonly clock: () => number;
}

/** An error in the shape and signing of the route it happened on. */
export function errorFor(
  deps: ErrorShapeDeps,
  route: Route | undefined,
  req: IncomingMessage,
  status: number,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): EncodedResponse {
  const reply = { ...fail(message), status, headers, unsigned: true };
  if (route?.kind === 'client') {
    return encodeClientReply(reply, {
      version: route.version,
      ownerid: lenientQueryParam(req.url, 'ownerid') ?? null,
      app: undefined,
      session: undefined,
      isInit: false,
      failureStatus: deps.failureStatus,
      privateKey: deps.privateKey,
      nowMs: deps.clock(),
    });
  }
  if (route?.kind === 'seller') return encodeSellerReply(reply, false, deps.failureStatus);
  return plainError(status, message, headers);
}

/** `{"success":false,"message":…}` for paths outside the APIs. */
export function plainError(status: number, message: string, headers: Readonly<Record<string, string>> = {}): EncodedResponse {
  return { status, headers: { 'content-type': JSON_CONTENT_TYPE, ...headers }, body: Buffer.from(asciiJson({ success: false, message })) };
}

/** CORS preflight: the methods and headers of the route; whether the origin may read is the origin policy's (origin-policy.ts, write-answer.ts). */
export function preflight(route: Route): EncodedResponse {
  return {
    status: 204,
    headers: {
      'access-control-allow-methods': [...allowedMethods(route), 'OPTIONS'].join(', '),
      'access-control-allow-headers': 'Content-Type, Authorization',
      'access-control-max-age': '600',
    },
    body: Buffer.alloc(0),
  };
}

/** Writing the answer itself failed (a bad header value, say): never let that reach the process. */
export function lastResort(res: ServerResponse, err: unknown, log: (line: string) => void): void {
  log(`writing a response failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = Buffer.from(asciiJson({ success: false, message: MESSAGES.internal }));
  res.writeHead(500, { 'content-type': JSON_CONTENT_TYPE, 'content-length': String(body.length), connection: 'close' });
  res.end(body);
}

/**
 * Requests node's parser refuses never reach the listener (a request line or headers over
 * MAX_HEADER_BYTES, broken HTTP). Answer them in the spec's error shape too, then close; they
 * are not signed, since the route is unknown at this point.
 */
export function answerParserError(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, message] =
    err.code === 'HPE_HEADER_OVERFLOW' ? [431, MESSAGES.headersTooLarge] : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'Request timeout'] : [400, MESSAGES.badRequest];
  const body = asciiJson({ success: false, message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: ${JSON_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
}
