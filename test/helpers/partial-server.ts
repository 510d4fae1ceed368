/**
 * A loopback server in front of a sandbox that has only some of its paths, as other servers
 * do: the open-source KeyAuth server has the client API 1.2 and no 1.3 (its HEAD tree) or no
 * seller API (its 2022 tree). Paths under `missing` answer as such a server answers a path it
 * does not have (an HTML 404); every other request is forwarded as is, body and answer headers
 * (the signatures) included.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PartialServer {
  readonly baseUrl: string;
  close(): Promise<void>;
}

export async function partialServer(target: string, missing: readonly string[]): Promise<PartialServer> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', target);
    if (missing.some((prefix) => url.pathname.startsWith(prefix))) {
      res.writeHead(404, { 'content-type': 'text/html; charset=iso-8859-1' });
      res.end('<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN"><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>');
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const headers: Record<string, string> = {};
      if (req.headers['content-type'] !== undefined) headers['content-type'] = req.headers['content-type'];
      void fetch(url, { method: req.method ?? 'GET', headers, ...(body === undefined ? {} : { body }), redirect: 'manual' }).then(async (answer) => {
        const forwarded: Record<string, string> = {};
        answer.headers.forEach((value, name) => {
          if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive'].includes(name)) forwarded[name] = value;
        });
        res.writeHead(answer.status, forwarded);
        res.end(Buffer.from(await answer.arrayBuffer()));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
