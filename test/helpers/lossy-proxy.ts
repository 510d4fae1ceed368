/**
 * A loopback proxy in front of a sandbox that lets the `nth` seller call of one `type` reach the
 * server and then loses or holds its answer: the server has done the work, the client does not
 * know. `drop` closes the client's connection instead of answering (a network failure after the
 * request arrived); `hold` keeps the answer until `release()` (a call in flight when the user
 * presses Ctrl-C). Every other request is forwarded as it is.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LossyProxy {
  readonly baseUrl: string;
  /** How many calls of the type it has seen. */
  calls(): number;
  /** Resolves once the server has answered the `nth` call (the answer the proxy loses or holds). */
  readonly served: Promise<void>;
  /** Sends the held answer (`hold`). */
  release(): void;
  close(): Promise<void>;
}

async function forward(target: string, url: URL): Promise<{ status: number; type: string; body: Buffer }> {
  const answer = await fetch(new URL(url.pathname + url.search, target), { redirect: 'manual' });
  return { status: answer.status, type: answer.headers.get('content-type') ?? 'application/json', body: Buffer.from(await answer.arrayBuffer()) };
}

export async function lossyProxy(target: string, type: string, nth: number, mode: 'drop' | 'hold'): Promise<LossyProxy> {
  let seen = 0;
  let markServed = (): void => undefined;
  const served = new Promise<void>((resolve) => (markServed = resolve));
  let release = (): void => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', target);
    const lost = url.searchParams.get('type') === type && ++seen === nth;
    void forward(target, url).then(async (answer) => {
      if (lost) {
        markServed();
        if (mode === 'drop') return req.socket.destroy();
        await released;
      }
      res.writeHead(answer.status, { 'content-type': answer.type });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls: () => seen,
    served,
    release,
    close: () =>
      new Promise<void>((resolve) => {
        release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
