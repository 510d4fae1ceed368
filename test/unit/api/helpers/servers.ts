/**
 * Real loopback servers for the protocol-library tests: an HTTP server that records what it
 * received and answers through a handler, a raw TCP server for answers HTTP servers won't
 * produce (cut-off bodies, resets), and a port that is certainly closed.
 *
 * The HTTP server is strict, as gh's httpmock registry is: after each test, a server that
 * received no request, or whose handler threw (a request the test did not expect), fails the
 * test. A server meant to stay untouched says so (`{ unused: true }`) and the test asserts it.
 */
import http from 'node:http';
import net from 'node:net';
import { cleanUpAfterEachTest } from '../../../helpers/cleanup.js';

export interface Recorded {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Query parameters, or the form body's fields for a POST. */
  params: URLSearchParams;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export type Handler = (req: Recorded, index: number) => Reply | Promise<Reply> | 'hang';

export interface ServerOptions {
  /** The test checks that nothing reaches this server (a dry run, a refused flag). */
  unused?: boolean;
  /** More checks run after the test (e.g. stubs never used); each string is a failure. */
  verify?: () => readonly string[];
}

export interface TestServer {
  baseUrl: string;
  host: string;
  requests: Recorded[];
  close(): Promise<void>;
}

const open: (() => Promise<void>)[] = [];
const verifiers: (() => readonly string[])[] = [];
cleanUpAfterEachTest(async () => {
  const problems = verifiers.splice(0).flatMap((verify) => verify());
  await Promise.all(open.splice(0).map((close) => close()));
  if (problems.length > 0) throw new Error(`Fake server: ${problems.join('; ')}`);
});

/** An HTTP server on 127.0.0.1, port 0, closed and checked after each test. */
export async function startHttpServer(handler: Handler, options: ServerOptions = {}): Promise<TestServer> {
  const requests: Recorded[] = [];
  const unexpected: string[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://x');
      const recorded: Recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        params: req.method === 'POST' ? new URLSearchParams(body) : url.searchParams,
      };
      requests.push(recorded);
      const answered = Promise.resolve()
        .then(() => handler(recorded, requests.length - 1))
        .catch((error: unknown): Reply => {
          // The test did not expect this request: answer it (so the client does not hang) and fail the test.
          unexpected.push(`${recorded.method} ${recorded.url}: ${(error as Error).message}`);
          return json({ success: false, message: `fake server: ${(error as Error).message}` }, 500);
        });
      void answered.then((reply) => {
        if (reply === 'hang') {
          hanging.add(res);
          return;
        }
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json; charset=utf-8', ...reply.headers });
        res.end(reply.body ?? '');
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const close = async (): Promise<void> => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  open.push(close);
  verifiers.push(() => [
    ...unexpected.map((line) => `unexpected request ${line}`),
    ...(options.unused === true
      ? requests.map((r) => `request to a server meant to stay unused: ${r.method} ${r.url}`)
      : requests.length === 0 ? ['a server was started but received no request'] : []),
    ...(options.verify?.() ?? []),
  ]);
  return { baseUrl: `http://127.0.0.1:${port}`, host: `127.0.0.1:${port}`, requests, close };
}

/** A TCP server that hands each connection's first data to `onRequest`. */
export async function startRawServer(onRequest: (socket: net.Socket, request: string) => void): Promise<TestServer> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.once('data', (data) => onRequest(socket, data.toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const close = async (): Promise<void> => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  open.push(close);
  return { baseUrl: `http://127.0.0.1:${port}`, host: `127.0.0.1:${port}`, requests: [], close };
}

/** A loopback port that was just bound and released, so nothing listens on it. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A JSON reply. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Reply {
  return { status, headers, body: JSON.stringify(body) };
}

/** A fake wall clock and a sleep that only moves it, recording each wait. */
export function fakeTime(startMs = 1_700_000_000_000): {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  slept: number[];
  advance: (ms: number) => void;
} {
  let current = startMs;
  const slept: number[] = [];
  return {
    now: () => current,
    sleep: async (ms: number) => {
      slept.push(ms);
      current += ms;
    },
    slept,
    advance: (ms: number) => {
      current += ms;
    },
  };
}
