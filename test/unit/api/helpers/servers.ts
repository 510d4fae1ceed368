/**
 * Real loopback servers for the protocol-library tests: an HTTP server that records what it
 * received and answers through a handler, a raw TCP server for answers HTTP servers won't
 * produce (cut-off bodies, resets), and a port that is certainly closed.
 */
import http from 'node:http';
import net from 'node:net';
import { afterEach } from 'vitest';

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

export interface TestServer {
  baseUrl: string;
  host: string;
  requests: Recorded[];
  close(): Promise<void>;
}

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close()));
});

/** An HTTP server on 127.0.0.1, port 0, closed after each test. */
export async function startHttpServer(handler: Handler): Promise<TestServer> {
  const requests: Recorded[] = [];
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
      void Promise.resolve(handler(recorded, requests.length - 1)).then((reply) => {
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
