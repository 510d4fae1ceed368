/**
 * A loopback proxy in front of a sandbox that answers the `failOn`-th seller call of one `type`
 * with an HTML 500 page instead of forwarding it: a server failure in the middle of a job.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FailingProxy {
  readonly baseUrl: string;
  /** How many calls of the type it has seen (the failed one included). */
  calls(): number;
  close(): Promise<void>;
}

export async function failingProxy(target: string, type: string, failOn: number): Promise<FailingProxy> {
  let seen = 0;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', target);
    if (url.searchParams.get('type') === type && ++seen === failOn) {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('<html><body>Internal Server Error</body></html>');
      return;
    }
    void fetch(url, { redirect: 'manual' }).then(async (answer) => {
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls: () => seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
