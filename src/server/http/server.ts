/**
 * The sandbox's node:http server: routing, input limits, error shapes, status policy, and a
 * graceful shutdown that lets in-flight requests finish.
 *
 * Every failure that reaches a client has the spec's shape `{"success":false,"message":…}`
 * with a 4xx (or 500) status and leaves the server serving: bad percent-encoding or UTF-8
 * (400), unknown path (404), wrong method (405), URL too long (414), body too large (413),
 * a POST that is not a form (415), headers too large for the parser (431), a handler
 * exception (500, no stack trace). On /api/1.3/ these are signed like every other answer.
 *
 * With `deps.tls` the same server speaks HTTPS (HTTP/1.1 over TLS 1.2 or newer): node:https is
 * node:http over a TLS socket, so everything above applies unchanged. A client that does not
 * trust the certificate ends the handshake itself; the sandbox only notes it in its log.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { clientIp } from './client-ip.js';
import { serveClock } from './clock-endpoint.js';
import { serveClient } from './client-endpoint.js';
import type { EncodedResponse } from './encoded-response.js';
import { answerParserError, errorFor, lastResort, plainError, preflight } from './error-shapes.js';
import type { RequestBasics } from './handler-context.js';
import { InputError, MESSAGES } from './input-error.js';
import { loggable, maskPageToken, requestLogLine } from './log-line.js';
import { serveOutbox } from './outbox-endpoint.js';
import { createPageLimits } from './page-limits.js';
import { servePage } from './page-endpoint.js';
import { CLIENT_RATE_LIMIT, FixedWindowLimiter, RATE_WINDOW_MS, SELLER_KEY_FAILURE_LIMIT, SELLER_RATE_LIMIT } from './rate-limiter.js';
import { endAfterBody } from './read-body.js';
import { andThen, isPromise, type MaybePromise } from './maybe-async.js';
import { writeStreamed } from './write-streamed.js';
import { MAX_HEADER_BYTES, readRequestInput, splitUrl, type RequestInput } from './request-input.js';
import { allowedMethods, matchRoute, type Route } from './routes.js';
import { serveSeller } from './seller-endpoint.js';
import type { Limiters, ServerDeps } from './server-deps.js';
import { domainNow } from '../domain/clock.js';

export { maskPageToken } from './log-line.js';
export { CLIENT_RATE_LIMIT, RATE_WINDOW_MS, SELLER_RATE_LIMIT } from './rate-limiter.js';

export interface SandboxServer {
  readonly server: http.Server | https.Server;
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
    sellerKeyFailures: new FixedWindowLimiter(SELLER_KEY_FAILURE_LIMIT, RATE_WINDOW_MS, deps.clock),
    pages: createPageLimits(deps.clock, deps.options.rateLimit),
  };
  // The abort controllers of requests in flight that asked for a signal; a forced shutdown aborts them.
  const abortable = new Set<AbortController>();
  let forced = false;
  const inflight = new Set<Promise<void>>();
  let closing = false;

  /**
   * The request's abort signal, made on first use: only handlers that call out (webhook, file,
   * the log hook) need one, and most requests never ask. It aborts when the client goes away
   * before the answer, or on a forced shutdown. Not `AbortSignal.any` with a server-wide signal:
   * on Node 20 every such call leaves a reference on the long-lived signal, so memory grew with
   * every request.
   */
  const signals = new WeakMap<ServerResponse, AbortSignal>();
  function requestSignal(res: ServerResponse): AbortSignal {
    const made = signals.get(res);
    if (made !== undefined) return made;
    const controller = new AbortController();
    signals.set(res, controller.signal);
    if (forced || (res.closed && !res.writableFinished)) {
      controller.abort();
    } else if (!res.closed) {
      abortable.add(controller);
      // 'close' also follows every answered request: aborting then would build a DOMException
      // (with its stack) per request for nobody to read.
      res.once('close', () => {
        abortable.delete(controller);
        if (!res.writableFinished) controller.abort();
      });
    }
    return controller.signal;
  }

  const httpOptions: http.ServerOptions = { maxHeaderSize: MAX_HEADER_BYTES, requestTimeout: 60_000, headersTimeout: 30_000, keepAliveTimeout: 5_000, requireHostHeader: false };
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    let pending: Promise<void> | undefined;
    try {
      pending = handleRequest(req, res);
    } catch (err) {
      lastResort(res, err, deps.log);
    }
    if (pending === undefined) return;
    const task = pending.catch((err: unknown) => lastResort(res, err, deps.log)).finally(() => inflight.delete(task));
    inflight.add(task);
  };
  const server = deps.tls
    ? https.createServer({ ...httpOptions, cert: deps.tls.cert, key: deps.tls.key, minVersion: 'TLSv1.2', ALPNProtocols: ['http/1.1'] }, onRequest)
    : http.createServer(httpOptions, onRequest);
  server.on('clientError', (err: Error & { code?: string }, socket: Duplex) => answerParserError(err, socket, deps.cors));
  // A refused handshake (the client does not trust our authority, or speaks plain HTTP) never reaches a handler.
  server.on('tlsClientError', (err: Error & { code?: string }) => deps.log(`TLS handshake refused: ${err.code ?? err.message}`));

  interface Answer {
    readonly response: EncodedResponse;
    readonly type?: string | undefined;
    readonly refusedInput?: boolean;
  }

  /**
   * Answers one request. Synchronous (no promise) from start to write when nothing on the way
   * waits: a GET to a synchronous handler, which is most requests (see maybe-async.ts).
   */
  function handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> | undefined {
    const started = deps.clock();
    const { path } = splitUrl(req.url ?? '/');
    const route = matchRoute(path, deps.pages);
    const finish = (answer: Answer): undefined => {
      write(req, res, answer.response, answer.refusedInput === true);
      deps.log(requestLogLine(req.method, path, answer.type, answer.response.status, deps.clock() - started));
      return undefined;
    };
    const failed = (err: unknown): Answer => failureAnswer(req, route, path, err);
    let answer: MaybePromise<Answer>;
    try {
      answer = answerRequest(req, res, route);
    } catch (err) {
      answer = failed(err);
    }
    if (!isPromise(answer)) return finish(answer);
    return answer.then(finish, (err: unknown) => finish(failed(err)));
  }

  function answerRequest(req: IncomingMessage, res: ServerResponse, route: Route | undefined): MaybePromise<Answer> {
    if (req.headers.host === undefined && req.httpVersion === '1.1') {
      // HTTP/1.1 requires Host; node's own check (turned off above) would answer an empty 400.
      return { response: errorFor(deps, route, req, 400, MESSAGES.badRequest), refusedInput: true };
    }
    if (route === undefined) return { response: plainError(404, MESSAGES.notFound) };
    if (req.method === 'OPTIONS') return { response: preflight(route) };
    if (!allowedMethods(route).includes(req.method ?? '')) {
      return { response: errorFor(deps, route, req, 405, MESSAGES.methodNotAllowed, { allow: [...allowedMethods(route), 'OPTIONS'].join(', ') }) };
    }
    const input = readRequestInput(req, { allowJsonBody: route.kind === 'seller' || route.kind === 'clock' || (route.kind === 'page' && route.pages.some((m) => m.page.acceptsJson === true)) });
    return andThen(input, (ready) => serve(route, req, res, ready));
  }

  /** A refused input (its status and message) or a failure (500, details only in the log). */
  function failureAnswer(req: IncomingMessage, route: Route | undefined, path: string, err: unknown): Answer {
    if (err instanceof InputError) return { response: errorFor(deps, route, req, err.status, err.message, err.headers), refusedInput: true };
    deps.log(`request ${req.method ?? '?'} ${loggable(maskPageToken(path))} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return { response: errorFor(deps, route, req, 500, MESSAGES.internal) };
  }

  function serve(route: Route, req: IncomingMessage, res: ServerResponse, input: RequestInput): MaybePromise<Answer> {
    const basics: RequestBasics = {
      ip: clientIp(req, deps.options.trustProxy),
      request: { method: req.method ?? 'GET', path: input.path, rawQuery: input.rawQuery, headers: req.headers, body: input.body },
      get signal() {
        return requestSignal(res);
      },
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
        return andThen(servePage(deps, route.pages, req.method ?? 'GET', input.params, basics, limiters.pages), (response) => ({ response }));
    }
  }

  function write(req: IncomingMessage, res: ServerResponse, response: EncodedResponse, refusedInput: boolean): void {
    if (res.headersSent) {
      // Nothing more can be sent: release what the answer holds (a file's bytes, an open download).
      if (!Buffer.isBuffer(response.body)) response.body.finished();
      response.stream?.destroy();
      return;
    }
    // A body may still be arriving (refused, or never read: a 404 or 405 to a POST): it is read
    // and dropped (bounded) before the answer ends, so the client sees our answer instead of a
    // reset; a complete refused request is closed after.
    const draining = !req.complete && !closing && Buffer.isBuffer(response.body) && !response.stream;
    const closeConnection = closing || (refusedInput && !draining);
    // Filled in place rather than spread together: same names, same order, fewer objects.
    const headers: Record<string, string> = {};
    if (deps.cors) headers['access-control-allow-origin'] = '*';
    // The domain clock (Unix seconds), so a client can show time left as the sandbox counts it.
    headers['x-sandbox-now'] = String(domainNow(deps.store, deps.clock()));
    Object.assign(headers, response.headers);
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
    if (!draining && !req.complete) req.resume();
  }

  return {
    server,
    async shutdown(graceMs = 10_000) {
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const force = setTimeout(() => {
        forced = true;
        for (const controller of abortable) controller.abort();
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
