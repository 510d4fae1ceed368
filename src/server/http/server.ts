/**
 * The sandbox's node:http server: the request path (request-path.ts: route, parse, serve,
 * answer), and a graceful shutdown that lets in-flight requests finish.
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
import { generateKeyPairSync } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { socketsClosed } from '../../util/sockets-closed.js';
import { answerParserError, lastResort } from './error-shapes.js';
import { createPageLimits } from './page-limits.js';
import { CLIENT_RATE_LIMIT, FixedWindowLimiter, RATE_WINDOW_MS, SELLER_KEY_FAILURE_LIMIT, SELLER_RATE_LIMIT } from './rate-limiter.js';
import { handleRequest, type RequestPathDeps } from './request-path.js';
import { MAX_HEADER_BYTES } from './request-input.js';
import { RequestSignals } from './request-signals.js';
import type { ServerDeps } from './server-deps.js';

export { maskPageToken } from './log-line.js';
export { CLIENT_RATE_LIMIT, RATE_WINDOW_MS, SELLER_RATE_LIMIT } from './rate-limiter.js';

export interface SandboxServer {
  readonly server: http.Server | https.Server;
  /**
   * Stops accepting connections, lets in-flight requests finish (after `graceMs` they are
   * aborted and their connections closed), then resolves once every socket of the server, the
   * listening one included, is closed: nothing of it is left for a test runner's open-handle
   * check to find.
   */
  shutdown(graceMs?: number): Promise<void>;
}

const HTTP_OPTIONS: http.ServerOptions = { maxHeaderSize: MAX_HEADER_BYTES, requestTimeout: 60_000, headersTimeout: 30_000, keepAliveTimeout: 5_000, requireHostHeader: false };

export function createSandboxServer(deps: ServerDeps): SandboxServer {
  const signals = new RequestSignals();
  const state = { closing: false };
  const path = requestPathDeps(deps, signals, () => state.closing);
  // Requests still waiting for something (a body, an async handler); one answered at once never is.
  const inflight = new Set<Promise<void>>();
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    let pending: Promise<void> | undefined;
    try {
      pending = handleRequest(path, req, res);
    } catch (err) {
      lastResort(res, err, deps.log);
    }
    if (pending === undefined) return;
    const task = pending.catch((err: unknown) => lastResort(res, err, deps.log)).finally(() => inflight.delete(task));
    inflight.add(task);
  };
  const server = deps.tls
    ? https.createServer({ ...HTTP_OPTIONS, cert: deps.tls.cert, key: deps.tls.key, minVersion: 'TLSv1.2', ALPNProtocols: ['http/1.1'] }, onRequest)
    : http.createServer(HTTP_OPTIONS, onRequest);
  server.on('clientError', (err: Error & { code?: string }, socket: Duplex) => answerParserError(err, socket));
  // Every connection until its socket is closed (for HTTPS the TCP socket under the TLS one).
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // A refused handshake (the client does not trust our authority, or speaks plain HTTP) never reaches a handler.
  server.on('tlsClientError', (err: Error & { code?: string }) => deps.log(`TLS handshake refused: ${err.code ?? err.message}`));

  return {
    server,
    async shutdown(graceMs = 10_000) {
      state.closing = true;
      // Live readers of the request log hold their connection open: end them first.
      deps.recorder.endFollowers();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const force = setTimeout(() => {
        signals.abortAll();
        server.closeAllConnections();
      }, graceMs);
      force.unref();
      while (inflight.size > 0) await Promise.allSettled([...inflight]);
      server.closeIdleConnections();
      await closed;
      clearTimeout(force);
      // The server's 'close' comes once its last connection is destroyed, before those sockets'
      // 'close' (they are still in `sockets`) and before their handles and the listening
      // socket's are freed: that takes two turns of the loop after the last 'close'.
      await socketsClosed(sockets, 2);
    },
  };
}

/** Each stage and endpoint gets only what it uses, made once per server. */
function requestPathDeps(deps: ServerDeps, signals: RequestSignals, closing: () => boolean): RequestPathDeps {
  const { store, clock, log, options } = deps;
  const errors = { failureStatus: options.failureStatus, privateKey: deps.identity.privateKey, clock };
  const handlerContext = { store, clock, log, options, baseUrl: deps.baseUrl, site: deps.site, ...(deps.panelUrl ? { panelUrl: deps.panelUrl } : {}) };
  const limiter = (limit: number) => new FixedWindowLimiter(limit, RATE_WINDOW_MS, clock);
  const adminToken = deps.identity.adminToken;
  // The faults this server holds (start.ts makes the book: the dashboard shares it), and what they are made with.
  const faultBook = deps.faultBook;
  const faults = {
    book: faultBook,
    store,
    lastAnswers: faultBook.lastAnswers,
    privateKey: deps.identity.privateKey,
    forgeKey: generateKeyPairSync('ed25519').privateKey,
    failureStatus: options.failureStatus,
    trustProxy: options.trustProxy,
    clock,
  };
  return {
    clock,
    log,
    route: { ...errors, pages: deps.pages, origins: deps.origins },
    serve: {
      client: { ...handlerContext, handlers: deps.clientHandlers, privateKey: deps.identity.privateKey, limiter: limiter(CLIENT_RATE_LIMIT) },
      seller: { ...handlerContext, handlers: deps.sellerHandlers, keyLimiter: limiter(SELLER_RATE_LIMIT), wrongKeyLimiter: limiter(SELLER_KEY_FAILURE_LIMIT) },
      page: { store, clock, log, baseUrl: deps.baseUrl, limits: createPageLimits(clock, options.rateLimit) },
      outbox: { store, adminToken },
      clock: { store, adminToken, clock },
      requests: { recorder: deps.recorder, adminToken },
      faults: { book: faultBook, adminToken },
      uiCode: { store, adminToken, clock, baseUrl: deps.baseUrl },
      trustProxy: options.trustProxy,
      signals,
    },
    answer: { store, clock, requestLog: deps.logRequests === false ? undefined : log, origins: deps.origins, closing, recorder: deps.recorder, trustProxy: options.trustProxy, faults },
  };
}
