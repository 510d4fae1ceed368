/**
 * `kactl doctor` against a real sandbox (every check passes), a port nobody listens on, a local
 * server that answers HTML (plain and Cloudflare-looking), and a wrong seller key.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2ESandbox, type E2ESandbox } from '../helpers/e2e.js';

interface Check {
  check: string;
  status: 'pass' | 'fail' | 'skip';
  detail: string;
}

let sb: E2ESandbox;
let htmlServer: http.Server;
let htmlUrl: string;

function listen(server: http.Server | net.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

beforeAll(async () => {
  sb = await startE2ESandbox();
  htmlServer = http.createServer((req, res) => {
    const cloudflare = req.url?.startsWith('/cf/') === true;
    if (req.url?.startsWith('/escapes/') === true) {
      // A hostile page: its title would retitle the terminal, clear it and paint it red.
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><head><title>\u001b]0;pwned\u0007\u001b[2J\u001b[31mHello\u009b0m\u0008</title></head></html>');
      return;
    }
    res.writeHead(cloudflare ? 403 : 200, { 'content-type': 'text/html; charset=utf-8', ...(cloudflare ? { server: 'cloudflare', 'cf-ray': '8a1b2c3d4e5f-AMS' } : {}) });
    res.end(cloudflare ? '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>Cloudflare</body></html>' : '<!doctype html><html><head><title>Welcome to nginx!</title></head></html>');
  });
  htmlUrl = `http://127.0.0.1:${await listen(htmlServer)}`;
});
afterAll(async () => {
  await sb.stop();
  await new Promise((resolve) => htmlServer.close(resolve));
});

async function doctor(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; checks: Check[]; text: string }> {
  const asJson = await sb.kactl(['doctor', '--json', ...args], { env });
  const asText = await sb.kactl(['doctor', ...args], { env });
  expect(asText.code).toBe(asJson.code);
  return { code: asJson.code, checks: JSON.parse(asJson.stdout) as Check[], text: asText.stdout };
}

const statusOf = (checks: Check[], name: string): Check => checks.find((c) => c.check === name)!;

describe('kactl doctor', () => {
  it('passes every check against a sandbox, one line each', async () => {
    const { code, checks, text } = await doctor([]);
    expect(code).toBe(0);
    expect(checks.map((c) => c.check)).toEqual([
      'node', 'sandbox module', 'permissions', 'config folder', 'data folder', 'free space', 'certificate authority',
      'reachable', 'api path', 'seller key', 'client app', 'signature', 'clock',
    ]);
    for (const c of checks) expect(c.status, `${c.check}: ${c.detail}`).toBe('pass');
    // Piped: words, not marks; one line per check.
    expect(text.trimEnd().split('\n')).toHaveLength(checks.length);
    expect(text).toMatch(/^ok {3}seller key: accepted$/m);
    // Reachable reads as what it is: a 404 at an API server's root is normal (was "answered HTTP 404").
    expect(text).toMatch(/^ok {3}reachable: the server at http:\/\/127\.0\.0\.1:\d+ answers \(HTTP (404 at its root, as an API server usually answers there|\d+ at its root); \d+ ms\)$/m);
  });

  it('names a dead port and exits 1', async () => {
    const probe = net.createServer();
    const port = await listen(probe);
    await new Promise((resolve) => probe.close(resolve));
    const { code, checks, text } = await doctor(['--base-url', `http://127.0.0.1:${port}`]);
    expect(code).toBe(1);
    expect(statusOf(checks, 'reachable').status).toBe('fail');
    expect(statusOf(checks, 'reachable').detail).toContain(`127.0.0.1:${port}`);
    expect(text).toMatch(/^FAIL reachable: /m);
    expect(checks.map((c) => c.check)).not.toContain('seller key');
  });

  it('names an HTML page, and a Cloudflare page as such', async () => {
    const plain = await doctor(['--base-url', htmlUrl]);
    expect(plain.code).toBe(1);
    expect(statusOf(plain.checks, 'reachable').status).toBe('pass');
    expect(statusOf(plain.checks, 'api path')).toMatchObject({ status: 'fail' });
    expect(statusOf(plain.checks, 'api path').detail).toContain('an HTML page ("Welcome to nginx!")');
    expect(statusOf(plain.checks, 'seller key').status).toBe('skip');
    const cloudflare = await doctor(['--base-url', `${htmlUrl}/cf`]);
    expect(statusOf(cloudflare.checks, 'api path').detail).toContain('a Cloudflare page ("Just a moment...")');
    expect(statusOf(cloudflare.checks, 'client app')).toMatchObject({ status: 'skip', detail: 'the client API 1.3 did not answer at the base URL' });
  });

  it('prints a page title without the control characters that would drive the terminal', async () => {
    const { checks, text } = await doctor(['--base-url', `${htmlUrl}/escapes`]);
    expect(statusOf(checks, 'api path').detail).toContain('an HTML page ("]0;pwned[2J[31mHello0m")');
    // eslint-disable-next-line no-control-regex -- the point: none of them reaches the terminal
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  it('says a wrong seller key is refused, without printing it', async () => {
    const wrongKey = 'f'.repeat(32);
    const { code, checks, text } = await doctor([], { KACTL_SELLER_KEY: wrongKey });
    expect(code).toBe(1);
    expect(statusOf(checks, 'api path').status).toBe('pass');
    expect(statusOf(checks, 'seller key').status).toBe('fail');
    expect(statusOf(checks, 'seller key').detail).toMatch(/^refused: /);
    expect(text).not.toContain(wrongKey);
    expect(statusOf(checks, 'client app').status).toBe('pass');
  });

  it('fails the signature check with another public key', async () => {
    const { code, checks } = await doctor(['--public-key', 'ab'.repeat(32)]);
    expect(code).toBe(1);
    expect(statusOf(checks, 'signature')).toMatchObject({ status: 'fail' });
    expect(statusOf(checks, 'clock').status).toBe('pass');
  });
});
