/**
 * The sandbox's node:http server: routing, input limits, error shapes, status policy, and a
 * graceful shutdown that lets in-flight requests finish.
 *
 * Every failure that reaches a client has the spec's shape `{"success":false,"message":…}`
 * with a 4xx (or 500) status and leaves the server serving: bad percent-encoding or UTF-8
 * (400), unknown path (404), wrong method (405), URL too long (414), body too large (413),
 * a POST that is not a form (415), headers too large for the parser (431), a handler
 * exception (500, no stack trace). On /api/1.3/ these are signed like every other answer.
 */
import http, { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Params } from '../dispatch/params.js';
import { domainNow } from '../domain/clock.js';
import { addOutboxMessage } from '../domain/outbox.js';
import { fail } from '../dispatch/reply.js';
import { clientIp } from './client-ip.js';
import { serveClock } from './clock-endpoint.js';
import { encodeClientReply } from './client-encoder.js';
import { serveClient } from './client-endpoint.js';
import { JSON_CONTENT_TYPE, type EncodedResponse } from './encoded-response.js';
import type { RequestBasics } from './handler-context.js';
import { InputError, MESSAGES } from './input-error.js';
import { asciiJson } from './json-encode.js';
import { serveOutbox } from './outbox-endpoint.js';
import type { MatchedPage } from './pages.js';
import { FixedWindowLimiter } from './rate-limiter.js';
import { lenientQueryParam, MAX_HEADER_BYTES, readRequestInput, splitUrl, type RequestInput } from './request-input.js';
import { allowedMethods, matchRoute, type Route } from './routes.js';
import { encodeSellerReply, serveSeller } from './seller-endpoint.js';
import type { Limiters, ServerDeps } from './server-deps.js';

/** Client API: 200 requests per 60 s per application (source). Seller: 120 per 60 s per key. */

/** Magic-link and password-reset pages carry a single-use secret in their path: never log it whole. */
export function maskPageToken(path: string): string {
  return path.replace(/^(\/sandbox\/(?:magic|reset)\/)([^/]{0,4})[^/]*/, '$1$2…');
}
export const CLIENT_RATE_LIMIT = 200;
export const SELLER_RATE_LIMIT = 120;
export const RATE_WINDOW_MS = 60_000;

export interface SandboxServer {
  readonly server: http.Server;
  /**
   * Stops accepting connections, lets in-flight requests finish (after `graceMs` they are
   * aborted and their connections closed), then resolves.
   */
  shutdown(graceMs?: number): Promise<void>;
}

export function createSandboxServer(deps: ServerDeps): SandboxServer {
  const limiters: Limiters = {
    client: new FixedWindowLimiter(CLIENT_RATE_LIMIT, RATE_WINDOW_MS, deps.clock),
    seller: new FixedWindowLimiter(SELLER_RATE_LIMIT, RATE_WINDOW_MS, deps.clock),
  };
  const shutdownController = new AbortController();
  const inflight = new Set<Promise<void>>();
  let closing = false;

  const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES, requestTimeout: 60_000, headersTimeout: 30_000, keepAliveTimeout: 5_000 }, (req, res) => {
    const task = handleRequest(req, res)
      .catch((err: unknown) => lastResort(res, err))
      .finally(() => inflight.delete(task));
    inflight.add(task);
  });
  server.on('clientError', answerParserError);

  /** Writing the answer itself failed (a bad header value, say): never let that reach the process. */
  function lastResort(res: ServerResponse, err: unknown): void {
    deps.log(`writing a response failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const body = Buffer.from(asciiJson({ success: false, message: MESSAGES.internal }));
    res.writeHead(500, { 'content-type': JSON_CONTENT_TYPE, 'content-length': String(body.length), connection: 'close' });
    res.end(body);
  }

  async function handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = deps.clock();
    const { path } = splitUrl(req.url ?? '/');
    const logPath = maskPageToken(path);
    const route = matchRoute(path, deps.pages);
    let type: string | undefined;
    let response: EncodedResponse;
    let refusedInput = false;
    try {
      if (route === undefined) {
        response = plainError(404, MESSAGES.notFound);
      } else if (req.method === 'OPTIONS') {
        response = preflight(route);
      } else if (!allowedMethods(route).includes(req.method ?? '')) {
        response = errorFor(route, req, 405, MESSAGES.methodNotAllowed, { allow: [...allowedMethods(route), 'OPTIONS'].join(', ') });
      } else {
        const input = await readRequestInput(req, { allowJsonBody: route.kind === 'seller' || route.kind === 'clock' || (route.kind === 'page' && route.pages.some((m) => m.page.acceptsJson === true)) });
        const outcome = await serve(route, req, res, input);
        response = outcome.response;
        type = outcome.type;
      }
    } catch (err) {
      if (err instanceof InputError) {
        refusedInput = true;
        response = errorFor(route, req, err.status, err.message, err.headers);
      } else {
        deps.log(`request ${req.method ?? '?'} ${logPath} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        response = errorFor(route, req, 500, MESSAGES.internal);
      }
    }
    write(req, res, response, refusedInput || closing);
    deps.log(`${req.method ?? '?'} ${logPath}${type === undefined ? '' : ` type=${type}`} → ${response.status} (${Math.round(deps.clock() - started)} ms)`);
  }

  async function serve(route: Route, req: IncomingMessage, res: ServerResponse, input: RequestInput): Promise<{ response: EncodedResponse; type?: string | undefined }> {
    const requestAbort = new AbortController();
    res.once('close', () => requestAbort.abort());
    const basics: RequestBasics = {
      ip: clientIp(req, deps.options.trustProxy),
      request: { method: req.method ?? 'GET', path: input.path, rawQuery: input.rawQuery, headers: req.headers, body: input.body },
      signal: AbortSignal.any([requestAbort.signal, shutdownController.signal]),
    };
    switch (route.kind) {
      case 'client':
        return serveClient(route.version, input, basics, deps, limiters);
      case 'seller':
        return serveSeller(input, basics, deps, limiters);
      case 'outbox':
        return { response: serveOutbox(req, input.params, deps.store, deps.identity.adminToken) };
      case 'clock':
        return { response: serveClock(req, input, { store: deps.store, adminToken: deps.identity.adminToken, clock: deps.clock }) };
      case 'page':
        return { response: await servePage(route.pages, req.method ?? 'GET', input.params, basics) };
    }
  }

  async function servePage(pages: readonly MatchedPage[], method: string, params: Params, basics: RequestBasics): Promise<EncodedResponse> {
    const matched = pages.find((candidate) => candidate.page.method === method);
    if (matched === undefined) return plainError(405, MESSAGES.methodNotAllowed);
    const now = domainNow(deps.store, deps.clock());
    const reply = await matched.page.handle(
      {
        store: deps.store,
        now,
        ip: basics.ip,
        baseUrl: deps.baseUrl(),
        request: basics.request,
        signal: basics.signal,
        log: deps.log,
        outbox: { send: (message) => addOutboxMessage(deps.store, message, now) },
        pathParams: matched.pathParams,
      },
      params,
    );
    return {
      status: reply.status ?? 200,
      headers: { 'content-type': reply.contentType ?? 'text/html; charset=utf-8', ...reply.headers },
      body: Buffer.from(reply.body, 'utf8'),
    };
  }

  /** An error in the shape and signing of the route it happened on. */
  function errorFor(route: Route | undefined, req: IncomingMessage, status: number, message: string, headers: Readonly<Record<string, string>> = {}): EncodedResponse {
    const reply = { ...fail(message), status, headers, unsigned: true };
    if (route?.kind === 'client') {
      return encodeClientReply(reply, {
        version: route.version,
        ownerid: lenientQueryParam(req.url, 'ownerid') ?? null,
        app: undefined,
        session: undefined,
        isInit: false,
        failureStatus: deps.options.failureStatus,
        privateKey: deps.identity.privateKey,
        nowMs: deps.clock(),
      });
    }
    if (route?.kind === 'seller') return encodeSellerReply(reply, false, deps.options.failureStatus);
    return plainError(status, message, headers);
  }

  function write(req: IncomingMessage, res: ServerResponse, response: EncodedResponse, closeConnection: boolean): void {
    if (res.headersSent) return;
    res.writeHead(response.status, {
      'access-control-allow-origin': '*',
      ...response.headers,
      'content-length': String(response.body.length),
      ...(closeConnection ? { connection: 'close' } : {}),
    });
    res.end(response.body);
    // A refused body may still be arriving: drop it so the client can read our answer.
    if (closeConnection && !req.complete) req.resume();
  }

  return {
    server,
    async shutdown(graceMs = 10_000) {
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const force = setTimeout(() => {
        shutdownController.abort();
        server.closeAllConnections();
      }, graceMs);
      force.unref();
      while (inflight.size > 0) await Promise.allSettled([...inflight]);
      server.closeIdleConnections();
      await closed;
      clearTimeout(force);
    },
  };
}

/** `{"success":false,"message":…}` for paths outside the APIs. */
function plainError(status: number, message: string, headers: Readonly<Record<string, string>> = {}): EncodedResponse {
  return { status, headers: { 'content-type': JSON_CONTENT_TYPE, ...headers }, body: Buffer.from(asciiJson({ success: false, message })) };
}

/** CORS preflight: the real server allows any origin. */
function preflight(route: Route): EncodedResponse {
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

/**
 * Requests node's parser refuses never reach the listener (a request line or headers over
 * MAX_HEADER_BYTES, broken HTTP). Answer them in the spec's error shape too, then close; they
 * are not signed, since the route is unknown at this point.
 */
function answerParserError(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, message] =
    err.code === 'HPE_HEADER_OVERFLOW' ? [431, MESSAGES.headersTooLarge] : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'Request timeout'] : [400, MESSAGES.badRequest];
  const body = asciiJson({ success: false, message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: ${JSON_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Access-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n${body}`,
  );
}
