/**
 * Issue 9 item 8: a client sending a body over the cap reads the 413 (it used to see a reset
 * connection most of the time, because the sandbox closed while the body was still arriving).
 * Issue 21 item 21: the same when the client asks to close the connection (`Connection: close`,
 * HTTP/1.0) and for answers that never read the body (404): node closed the socket as the
 * answer ended, under a client still sending, so it saw a reset (a broken pipe) every time.
 */
import http from 'node:http';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestSandbox } from '../../helpers/sandbox.js';

const TEN_MB = 10 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x61);

/** POSTs 10 MB of form body; resolves with the status and body read, or the error the client saw. */
function postHuge(baseUrl: string, chunked: boolean): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const url = new URL('/api/1.3/', baseUrl);
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (!chunked) headers['content-length'] = String(TEN_MB);
    const req = http.request(url, { method: 'POST', headers, agent: false });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (err) => resolve({ error: err.message }));
    });
    req.on('error', (err) => resolve({ error: err.message }));
    let sent = 0;
    const pump = (): void => {
      while (sent < TEN_MB) {
        sent += CHUNK.length;
        if (!req.write(CHUNK)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

/** The same with fetch (undici): a Buffer body (Content-Length) or a stream (chunked). */
async function fetchHuge(baseUrl: string, chunked: boolean): Promise<{ status: number; body: string } | { error: string }> {
  const body = chunked
    ? new ReadableStream<Uint8Array>({
        start(controller) {
          for (let sent = 0; sent < TEN_MB; sent += CHUNK.length) controller.enqueue(new Uint8Array(CHUNK));
          controller.close();
        },
      })
    : Buffer.alloc(TEN_MB, 0x61);
  try {
    const res = await fetch(new URL('/api/1.3/', baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
      ...(chunked ? { duplex: 'half' } : {}),
    });
    return { status: res.status, body: await res.text() };
  } catch (err) {
    return { error: String((err as Error & { cause?: unknown }).cause ?? err) };
  }
}

/**
 * A client that sends its whole body before it reads (many do): raw socket, paused until the
 * last byte is written, then reads whatever arrived.
 */
function sendThenRead(baseUrl: string, head?: (hostname: string) => string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    socket.pause();
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (text: string): void => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(text);
    };
    socket.on('error', (err) => finish(chunks.length > 0 ? Buffer.concat(chunks).toString('latin1') : `error: ${err.message}`));
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      if (/\r\n\r\n\{/.test(Buffer.concat(chunks).toString('latin1'))) finish(Buffer.concat(chunks).toString('latin1'));
    });
    socket.on('end', () => finish(Buffer.concat(chunks).toString('latin1')));
    socket.write(head?.(hostname) ?? `POST /api/1.3/ HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${TEN_MB}\r\n\r\n`);
    let sent = 0;
    const pump = (): void => {
      while (sent < TEN_MB) {
        sent += CHUNK.length;
        if (!socket.write(CHUNK)) {
          socket.once('drain', pump);
          return;
        }
      }
      setTimeout(() => socket.resume(), 200);
    };
    socket.on('error', () => undefined);
    pump();
  });
}

describe('413 reaches the client', () => {
  it('a client that sends everything before reading still reads the 413 (5 of 5)', async () => {
    const sb = await startTestSandbox();
    for (let i = 0; i < 5; i++) expect(await sendThenRead(sb.baseUrl)).toMatch(/^HTTP\/1\.1 413 /);
  });

  it.each([false, true])('fetch, 10 MB body, chunked=%s: 10 of 10 read the 413', async (chunked) => {
    const sb = await startTestSandbox();
    const outcomes = [];
    for (let i = 0; i < 10; i++) outcomes.push(await fetchHuge(sb.baseUrl, chunked));
    for (const outcome of outcomes) expect(outcome).toMatchObject({ status: 413 });
  });

  it.each([false, true])('10 MB body, chunked=%s: 10 of 10 clients read the 413 in the error shape', async (chunked) => {
    const sb = await startTestSandbox();
    const outcomes = [];
    for (let i = 0; i < 10; i++) outcomes.push(await postHuge(sb.baseUrl, chunked));
    for (const outcome of outcomes) {
      expect(outcome).toMatchObject({ status: 413 });
      if ('body' in outcome) expect(JSON.parse(outcome.body)).toMatchObject({ success: false, message: 'Request body too large' });
    }
    // The server is still serving.
    expect((await sb.client('init', { ver: sb.info.app.version })).json.success).toBe(true);
  });
});

describe('the answer reaches a client that asked to close and sends everything first', () => {
  const form = 'Content-Type: application/x-www-form-urlencoded';
  it.each([
    ['Connection: close, over the cap', (host: string) => `POST /api/1.3/ HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n${form}\r\nContent-Length: ${TEN_MB}\r\n\r\n`, 413],
    ['HTTP/1.0, over the cap', (host: string) => `POST /api/1.3/ HTTP/1.0\r\nHost: ${host}\r\n${form}\r\nContent-Length: ${TEN_MB}\r\n\r\n`, 413],
    ['Connection: close, seller API', (host: string) => `POST /api/seller/ HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n${form}\r\nContent-Length: ${TEN_MB}\r\n\r\n`, 413],
    ['Connection: close, unknown path (body never read)', (host: string) => `POST /nowhere HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n${form}\r\nContent-Length: ${TEN_MB}\r\n\r\n`, 404],
    ['Connection: close, not a form (body never read)', (host: string) => `POST /api/1.3/ HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${TEN_MB}\r\n\r\n`, 415],
  ])('%s: 5 of 5 read the answer', async (_name, head, status) => {
    const sb = await startTestSandbox();
    for (let i = 0; i < 5; i++) expect(await sendThenRead(sb.baseUrl, head)).toMatch(new RegExp(`^HTTP/1\\.[01] ${status} `));
    expect((await sb.client('init', { ver: sb.info.app.version })).json.success).toBe(true);
  });
});
