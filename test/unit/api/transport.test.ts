import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import { ExitCode, exitCodeOf, InterruptedError } from '../../../src/errors.js';
import type { NetworkError } from '../../../src/errors.js';
import { TransportError } from '../../../src/api/api-errors.js';
import { Transport } from '../../../src/api/transport.js';
import { closedPort, json, startHttpServer, startRawServer } from './helpers/servers.js';

const SELLER_KEY = 'ab12cd34ef56ab12cd34ef56ab12cd34';
const PASSWORD = 'correct-horse-battery-staple';
const LICENSE = 'KEYAAA-BBBBBB-CCCCCC-DDDDDD';
const SESSION = 'Fld6YhQV5x';
const ENCKEY = 'q1w2e3r4t5y6u7i8';
const SECRET = 'dfd2dc529fe2e87c77f29b651131a5f4631f915913ce8936d295d0ee4eb166a8';

async function failure(promise: Promise<unknown>): Promise<TransportError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TransportError);
  expect(exitCodeOf(error as NetworkError)).toBe(ExitCode.network);
  return error as TransportError;
}

describe('--verbose lines', () => {
  it('mask secrets in the query string and show status, time and size', async () => {
    const server = await startHttpServer(() => json({ success: true, message: 'ok' }));
    const lines: string[] = [];
    const transport = new Transport({ verbose: (line) => lines.push(line) });
    const url = `${server.baseUrl}/api/seller/?sellerkey=${SELLER_KEY}&type=add&expiry=30&key=${LICENSE}`;
    const res = await transport.request({ method: 'GET', url });
    await transport.close();

    expect(res.status).toBe(200);
    expect(lines[0]).toBe(`→ GET ${server.baseUrl}/api/seller/?sellerkey=ab12…&type=add&expiry=30&key=KEYA…`);
    const size = Buffer.byteLength(JSON.stringify({ success: true, message: 'ok' }));
    expect(lines[1]).toMatch(new RegExp(`^← 200 OK in \\d+ ms, ${size} bytes$`));
    const all = lines.join('\n');
    expect(all).not.toContain(SELLER_KEY);
    expect(all).not.toContain(LICENSE);
    // The server did get the real values.
    expect(server.requests[0]!.params.get('sellerkey')).toBe(SELLER_KEY);
  });

  it('mask secrets in a POST form body', async () => {
    const server = await startHttpServer(() => json({ success: true }));
    const lines: string[] = [];
    const transport = new Transport({ verbose: (line) => lines.push(line) });
    const form = new URLSearchParams({
      type: 'login',
      username: 'refuser',
      pass: PASSWORD,
      sessionid: SESSION,
      enckey: ENCKEY,
      secret: SECRET,
      code: '123456',
      token: '0123456789abcdef0123456789abcdef',
      name: 'refapp',
    });
    await transport.request({ method: 'POST', url: `${server.baseUrl}/api/1.2/`, form });
    await transport.close();

    expect(lines[0]).toBe(`→ POST ${server.baseUrl}/api/1.2/`);
    expect(lines[1]).toBe('  form: type=login&username=refuser&pass=***&sessionid=***&enckey=***&secret=***&code=***&token=0123…&name=refapp');
    const all = lines.join('\n');
    for (const secret of [PASSWORD, SESSION, ENCKEY, SECRET, '123456', '0123456789abcdef0123456789abcdef']) expect(all).not.toContain(secret);
    expect(server.requests[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(server.requests[0]!.params.get('pass')).toBe(PASSWORD);
  });

  it('mask extra secret values passed by the caller in the failure line', async () => {
    const port = await closedPort();
    const lines: string[] = [];
    const transport = new Transport({ verbose: (line) => lines.push(line) });
    await failure(transport.request({ method: 'GET', url: `http://127.0.0.1:${port}/x/${SESSION}/`, secrets: [SESSION] }));
    expect(lines.join('\n')).not.toContain(SESSION);
    expect(lines[1]).toMatch(/^← failed after \d+ ms: Could not connect/);
  });
});

describe('answers', () => {
  it('reads the body whatever the status', async () => {
    const server = await startHttpServer(() => json({ success: false, message: 'Invalid license key' }, 400));
    const transport = new Transport();
    const res = await transport.request({ method: 'GET', url: server.baseUrl });
    expect(res.status).toBe(400);
    expect(res.statusText).toBe('Bad Request');
    expect(res.body.toString()).toBe('{"success":false,"message":"Invalid license key"}');
  });

  it('returns a 302 without a Location (the seller API\'s multi-key add) as a normal answer', async () => {
    const server = await startHttpServer(() => json({ success: true, message: 'Licenses successfully generated', keys: ['A', 'B'] }, 302));
    const res = await new Transport().request({ method: 'GET', url: server.baseUrl });
    expect(res.status).toBe(302);
    expect(JSON.parse(res.body.toString())).toMatchObject({ keys: ['A', 'B'] });
    expect(server.requests).toHaveLength(1);
  });

  it('does not follow a redirect; it says where it points, with secrets masked', async () => {
    const server = await startHttpServer(() => ({ status: 301, headers: { location: `/elsewhere/?sellerkey=${SELLER_KEY}` }, body: '' }));
    const error = await failure(new Transport().request({ method: 'GET', url: `${server.baseUrl}/api/seller/` }));
    expect(error.kind).toBe('redirect');
    expect(error.message).toBe(`${server.host} answered 301 Moved Permanently and points to ${server.baseUrl}/elsewhere/?sellerkey=ab12…; kactl does not follow redirects.`);
    expect(server.requests).toHaveLength(1);
  });

  it('stops reading a body larger than the cap', async () => {
    const server = await startHttpServer(() => ({ body: 'x'.repeat(5000) }));
    const error = await failure(new Transport({ maxBodyBytes: 1000 }).request({ method: 'GET', url: server.baseUrl }));
    expect(error.kind).toBe('too-large');
  });
});

describe('network failures become one sentence, exit 4', () => {
  it('refused connection', async () => {
    const port = await closedPort();
    const error = await failure(new Transport().request({ method: 'GET', url: `http://127.0.0.1:${port}/api/1.3/` }));
    expect(error.kind).toBe('refused');
    expect(error.message).toBe(`Could not connect to 127.0.0.1:${port}: connection refused.`);
  });

  it('timeout: a server that never answers', async () => {
    const server = await startHttpServer(() => 'hang');
    const error = await failure(new Transport({ timeoutMs: 200 }).request({ method: 'GET', url: server.baseUrl }));
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe(`No answer from ${server.host} within 0.2 s.`);
  });

  it('a body cut off before its Content-Length', async () => {
    const server = await startRawServer((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"success":true,"mess');
      setTimeout(() => socket.destroy(), 20);
    });
    const error = await failure(new Transport().request({ method: 'GET', url: server.baseUrl }));
    expect(error.kind).toBe('truncated');
    expect(error.message).toBe(`The answer from ${server.host} was cut off after 21 bytes ("{"success":true,"mess").`);
  });

  it('a connection reset before any answer', async () => {
    const server = await startRawServer((socket) => socket.resetAndDestroy());
    const error = await failure(new Transport().request({ method: 'GET', url: server.baseUrl }));
    expect(error.kind).toBe('reset');
    expect(error.message).toBe(`The connection to ${server.host} was reset before an answer arrived.`);
  });

  it('a connection closed before any answer', async () => {
    const server = await startRawServer((socket) => socket.end());
    const error = await failure(new Transport().request({ method: 'GET', url: server.baseUrl }));
    expect(error.kind).toBe('closed');
    expect(error.message).toBe(`${server.host} closed the connection without answering.`);
  });

  // DNS and TLS failures need a real remote host; a MockAgent produces the same errors offline.
  it('DNS failure (MockAgent)', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent
      .get('https://keyauth.invalid')
      .intercept({ path: '/api/1.3/', method: 'GET' })
      .replyWithError(Object.assign(new Error('getaddrinfo ENOTFOUND keyauth.invalid'), { code: 'ENOTFOUND' }));
    const error = await failure(new Transport({ dispatcher: agent }).request({ method: 'GET', url: 'https://keyauth.invalid/api/1.3/' }));
    expect(error.kind).toBe('dns');
    expect(error.message).toBe('Could not find the host keyauth.invalid (DNS lookup failed).');
    await agent.close();
  });

  it('TLS failure (MockAgent)', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent
      .get('https://keyauth.invalid')
      .intercept({ path: '/api/1.3/', method: 'GET' })
      .replyWithError(Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' }));
    const error = await failure(new Transport({ dispatcher: agent }).request({ method: 'GET', url: 'https://keyauth.invalid/api/1.3/' }));
    expect(error.kind).toBe('tls');
    expect(error.message).toBe('The TLS check of keyauth.invalid failed: certificate has expired.');
    await agent.close();
  });
});

describe('Ctrl-C', () => {
  it('an aborted signal ends the request as InterruptedError (exit 130)', async () => {
    const server = await startHttpServer(() => 'hang');
    const controller = new AbortController();
    const pending = new Transport().request({ method: 'GET', url: server.baseUrl, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const error = await pending.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InterruptedError);
    expect(exitCodeOf(error as InterruptedError)).toBe(ExitCode.interrupted);
  });

  it('the Transport-wide signal works the same way', async () => {
    const server = await startHttpServer(() => 'hang');
    const controller = new AbortController();
    const transport = new Transport({ signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(transport.request({ method: 'GET', url: server.baseUrl })).rejects.toBeInstanceOf(InterruptedError);
  });
});
