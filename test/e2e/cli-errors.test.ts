/**
 * How the real binary reports what goes wrong: one sentence on stderr, the design's exit code,
 * nothing on stdout, no stack trace unless --verbose, no secret in full. The bad answers come
 * from a real HTTP server on 127.0.0.1 (port 0) that this test runs.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKactl, type SpawnResult } from '../helpers/run-kactl.js';
import { tempDir } from '../helpers/temp-dir.js';

const SELLER_KEY = 'k3y0123456789abcdef0123456789abc';
let server: http.Server;
let base = '';
let closedPort = 0;

function answer(req: http.IncomingMessage, res: http.ServerResponse): void {
  const scenario = (req.url ?? '').split('/')[1];
  const json = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  switch (scenario) {
    case 'html':
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>checking your browser</body></html>');
      return;
    case 'invalid':
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end('KeyAuth_Invalid');
      return;
    case 'fault':
      return json(500, { success: false, message: 'Error: database is down' });
    case 'fail200':
      return json(200, { success: false, message: 'Key Not Found' });
    case 'fail400':
      return json(400, { success: false, message: 'Key Not Found' });
    case 'refused':
      return json(400, { success: false, message: 'No application found' });
    case 'ratelimit':
      return json(429, { success: false, message: 'Seller key used too frequently! Try again in 1 minute.' }, { 'retry-after': '1' });
    case 'truncated':
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
      res.write('{"success":true,"message":"Successfully Retrieved Licenses","keys":[{"key":"AAAA');
      setTimeout(() => res.destroy(), 20);
      return;
    case 'silent':
      return; // never answers
    default:
      json(404, { success: false, message: 'no such scenario' });
  }
}

beforeAll(async () => {
  server = http.createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function seller(scenario: string, extra: string[] = []): Promise<SpawnResult> {
  return runKactl(['seller', 'call', 'fetchallkeys', ...extra], {
    configDir: tempDir(),
    env: { KACTL_BASE_URL: `${base}/${scenario}`, KACTL_SELLER_KEY: SELLER_KEY },
  });
}

function expectOneSentence(result: SpawnResult, code: number, pattern: RegExp): void {
  expect(result.code, result.stderr).toBe(code);
  const lines = result.stderr.trim().split('\n');
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toMatch(pattern);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.stderr).not.toContain(SELLER_KEY);
}

describe('errors as the user sees them', () => {
  it('an HTML page: exit 4, says it was HTML and quotes its title', async () => {
    const result = await seller('html');
    expectOneSentence(result, 4, /HTML page/);
    expect(result.stderr).toContain('Just a moment');
    expect(result.stdout).toBe('');
  });

  it('the bare text KeyAuth_Invalid: exit 4, says no application matches', async () => {
    const result = await runKactl(['client', 'call', 'init'], {
      configDir: tempDir(),
      env: { KACTL_BASE_URL: `${base}/invalid`, KACTL_APP_NAME: 'Nope', KACTL_OWNERID: 'AbCdEf1234', KACTL_PUBLIC_KEY: 'ab'.repeat(32) },
    });
    expectOneSentence(result, 4, /No application named "Nope"/);
  });

  it('a server fault: exit 4 with the server\'s message', async () => {
    expectOneSentence(await seller('fault'), 4, /500.*database is down/);
  });

  it('a truncated body: exit 4', async () => {
    expectOneSentence(await seller('truncated'), 4, /cut off|closed|reset/i);
  });

  it('success:false with status 200 and with status 400: exit 1, the message verbatim, and the JSON on stdout', async () => {
    for (const scenario of ['fail200', 'fail400']) {
      const result = await seller(scenario);
      expectOneSentence(result, 1, /^error: Key Not Found$/);
      expect(JSON.parse(result.stdout)).toEqual({ success: false, message: 'Key Not Found' });
    }
  });

  it('a refused seller key: exit 3 with a hint', async () => {
    const result = await seller('refused');
    expectOneSentence(result, 3, /No application found/);
    expect(result.stderr).toMatch(/seller key/i);
  });

  it('still rate limited after the retries: exit 6', async () => {
    const result = await seller('ratelimit');
    expect(result.code, result.stderr).toBe(6);
    expect(result.stderr).toMatch(/rate limited/i);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('a refused connection: exit 4', async () => {
    const result = await runKactl(['seller', 'call', 'fetchallkeys'], {
      configDir: tempDir(),
      env: { KACTL_BASE_URL: `http://127.0.0.1:${closedPort}`, KACTL_SELLER_KEY: SELLER_KEY },
    });
    expectOneSentence(result, 4, /connection refused/);
  });

  it('a timeout: exit 4, says how long it waited', async () => {
    expectOneSentence(await seller('silent', ['--timeout', '1s']), 4, /No answer .* within 1 s/);
  });

  it('--verbose adds the masked request line and the stack trace', async () => {
    const result = await seller('fault', ['--verbose']);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/→ GET http:\/\/127\.0\.0\.1:\d+\/fault\/api\/seller\/\?sellerkey=k3y0…&type=fetchallkeys/);
    expect(result.stderr).toMatch(/← 500 Internal Server Error in \d+ ms, \d+ bytes/);
    expect(result.stderr).toMatch(/\n\s+at /);
    expect(result.stderr).not.toContain(SELLER_KEY);
  });

  it('no server configured: exit 2 and says how to set one', async () => {
    const result = await runKactl(['seller', 'call', 'fetchallkeys'], { configDir: tempDir() });
    expectOneSentence(result, 2, /^error: No server base URL is configured/);
    expect(result.stderr).toContain('kactl sandbox start');
  });
});
