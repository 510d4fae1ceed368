/**
 * A program's web loader as the official KeyAuth C++ and C# examples build it (docs/protocol/client-api.md
 * §4.29), for the loader page's browser tests: http.sys / HttpListener with only
 * `http://localhost:PORT/handshake` registered (and each button's path once signed in), so any
 * other path gets the system's bare 404, without CORS headers. `/handshake` takes `user` and
 * `token` from the query and logs in with them; success answers 420 "SHEESH", a refusal answers
 * 200 with the message as the reason and the program exits (here: stops listening), as the
 * examples do — also when the request carries no user or token at all.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SdkLoader {
  readonly port: number;
  /** Every request heard, as `METHOD /path?query`. */
  readonly requests: string[];
  /** Button values pressed after the sign-in. */
  readonly pressed: string[];
  /** Whether it stopped after a refused sign-in, as the SDK's program exits. */
  exited(): boolean;
  close(): Promise<void>;
}

/** The program's login with the page's token: `undefined` when it succeeds, else the server's message. */
export type TokenLogin = (user: string, token: string) => Promise<string | undefined>;

export async function startSdkLoader(login: TokenLogin, buttonValues: readonly string[]): Promise<SdkLoader> {
  let port = 0;
  const requests: string[] = [];
  const pressed: string[] = [];
  const servers: http.Server[] = [];
  const registered = new Set(['/handshake']);
  let stopped = false;
  const cors = { 'access-control-allow-origin': '*' };

  const stop = (): Promise<void> => {
    stopped = true;
    return Promise.all(servers.map((server) => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }))).then(() => undefined);
  };

  async function handshake(url: URL, res: ServerResponse): Promise<void> {
    const user = url.searchParams.get('user') ?? '';
    const token = url.searchParams.get('token') ?? '';
    const refusal = await login(user, token);
    if (refusal !== undefined) {
      res.writeHead(200, refusal, cors).end(() => void stop());
      return;
    }
    for (const value of buttonValues) registered.add(`/${value}`);
    res.writeHead(420, 'SHEESH', cors).end();
  }

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    requests.push(`${req.method} ${req.url}`);
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (!registered.has(url.pathname)) {
      res.writeHead(404, 'Not Found').end();
      return;
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(200, { ...cors, 'access-control-allow-methods': 'GET', 'access-control-allow-headers': '*' }).end();
      return;
    }
    if (url.pathname === '/handshake') {
      void handshake(url, res).catch(() => res.writeHead(500).end());
      return;
    }
    pressed.push(url.pathname.slice(1));
    res.writeHead(420, 'SHEESH', cors).end();
  };

  // `localhost` may be either loopback address for the browser; http.sys answers on both, on
  // the port the first one got.
  for (const host of ['127.0.0.1', '::1']) {
    const server = http.createServer(handle);
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) => (host === '::1' && error.code === 'EADDRNOTAVAIL' ? resolve() : reject(error)));
      server.listen(port, host, () => {
        servers.push(server);
        port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  }
  return { port, requests, pressed, exited: () => stopped, close: stop };
}
