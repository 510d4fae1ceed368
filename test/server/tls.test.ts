/**
 * The HTTPS sandbox (`tls` option): every API, page and admin route over HTTPS to a client that
 * trusts only the sandbox's authority, with the same signed answers as over HTTP; TLS 1.2 or
 * newer, HTTP/1.1; and a client that does not trust the authority is refused by TLS itself.
 */
import https from 'node:https';
import fs from 'node:fs';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox.js';
import { signInLink } from '../helpers/dashboard.js';
import { hmacHex, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

let sb: TestSandbox;
let ca: string;
beforeAll(async () => {
  sb = await startTestSandbox({ tls: { dataDir: tempDir('kactl-tls-data-') } });
  ca = fs.readFileSync(sb.info.caFile!, 'utf8');
});

/** One GET over node:https with the given TLS options; resolves with what the socket saw. */
function get(path: string, options: https.RequestOptions & { ALPNProtocols?: string[] }): Promise<{ status: number; protocol: string | null; alpn: string | false | null; body: string }> {
  return new Promise((resolve, reject) => {
    const req = https.get(`${sb.baseUrl}${path}`, { agent: false, ...options }, (res) => {
      const socket = res.socket as TLSSocket;
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, protocol: socket.getProtocol(), alpn: socket.alpnProtocol, body }));
    });
    req.on('error', reject);
  });
}

describe('an HTTPS sandbox', () => {
  it('reports an https base URL, its authority file and host name in the ready line', () => {
    expect(sb.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(sb.info).toMatchObject({ hostname: 'kactl.test', caFile: expect.stringMatching(/ca[\\/]kactl-sandbox-ca\.pem$/) });
  });

  it('answers the client API 1.3 signed, failures included', async () => {
    const sid = await sb.init();
    const refused = await sb.client('login', { sessionid: sid, username: 'nobody', pass: 'x', hwid: 'H-1' });
    expect(refused.json).toMatchObject({ success: false, code: expect.any(Number), ownerid: sb.info.app.ownerid });
    expect(sb.verify13(refused)).toBe(true);
    const check = await sb.client('check', { sessionid: sid });
    expect(sb.verify13(check)).toBe(true);
  });

  it('answers the client API 1.2 with its HMAC signature', async () => {
    const res = await sb.client('init', { ver: '1.0', enckey: 'tlsenckey0000001' }, { api: '1.2', method: 'POST' });
    expect(res.json).toMatchObject({ success: true, message: 'Initialized' });
    expect(res.headers.get('signature')).toBe(hmacHex(sb.info.app.secret, res.bytes));
  });

  it('answers the seller API, the customer panel page and the admin routes (outbox, clock)', async () => {
    const added = await sb.seller('add', { expiry: '1', amount: '1', level: '1', format: 'json' });
    expect(added.json).toMatchObject({ success: true });
    const keys = await sb.seller('fetchallkeys');
    expect(keys.json.keys).toHaveLength(1);
    const init = await sb.client('init', { ver: '1.0' });
    const panel = new URL(init.json.appinfo.customerPanelLink as string);
    expect(panel.origin).toBe(sb.baseUrl);
    const page = await sb.page(panel.pathname);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<html/i);
    expect(await sb.outbox()).toEqual([]);
    expect((await sb.clock()).offset).toBe(0);
  });

  it('speaks HTTP/1.1 over TLS 1.2 or newer, and refuses TLS 1.1', async () => {
    const tls13 = await get('/api/1.3/', { ca });
    expect(tls13).toMatchObject({ protocol: 'TLSv1.3', alpn: false });
    const tls12 = await get('/api/1.3/', { ca, maxVersion: 'TLSv1.2', ALPNProtocols: ['http/1.1'] });
    expect(tls12).toMatchObject({ protocol: 'TLSv1.2', alpn: 'http/1.1' });
    await expect(get('/api/1.3/', { ca, minVersion: 'TLSv1', maxVersion: 'TLSv1.1' })).rejects.toMatchObject({ code: expect.stringMatching(/^ERR_SSL_|EPROTO/) });
  });

  it('a client that trusts only its usual authorities is refused by TLS, and the sandbox keeps serving', async () => {
    await expect(get('/api/1.3/?type=init', {})).rejects.toMatchObject({ code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' });
    // The host name is checked: the certificate names kactl.test, not example.com.
    await expect(get('/api/1.3/', { ca, servername: 'example.com' })).rejects.toMatchObject({ code: 'ERR_TLS_CERT_ALTNAME_INVALID' });
    expect((await get('/api/1.3/', { ca, servername: 'kactl.test' })).status).toBeGreaterThan(0);
    expect((await get('/api/1.3/', { ca })).status).toBeGreaterThan(0);
  });
});

describe('an HTTPS sandbox: the dashboard cookie and the links it gives out', () => {
  it("the dashboard's sign-in cookie is Secure over HTTPS (issue 29), as is the one that signs out", async () => {
    const { url } = await signInLink(sb);
    const spent = await sb.request(`${new URL(url).pathname}${new URL(url).search}`, { redirect: 'manual' });
    expect(spent.status).toBe(303);
    expect(spent.headers.get('set-cookie')).toMatch(/^kactl_ui=[A-Za-z0-9_-]+; Path=\/sandbox\/ui; HttpOnly; SameSite=Strict; Max-Age=43200; Secure$/);
    const cookie = spent.headers.get('set-cookie')!.split(';')[0]!;
    const page = await sb.request('/sandbox/ui', { headers: { cookie } });
    const formToken = /name="form_token" value="([^"]+)"/.exec(page.text)![1]!;
    const out = await sb.request('/sandbox/ui/logout', { method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: `form_token=${formToken}` });
    expect(out.headers.get('set-cookie')).toMatch(/Max-Age=0; Secure$/);
  });
});

/** init over HTTPS to 127.0.0.1 with a chosen TLS server name and Host header, as keyauth-js sends them. */
function initAs(target: { baseUrl: string; caFile: string; app: { name: string; ownerid: string } }, name: string, host: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const url = new URL(target.baseUrl);
  const query = new URLSearchParams({ type: 'init', ver: '1.0', name: target.app.name, ownerid: target.app.ownerid }).toString();
  return new Promise((resolve, reject) => {
    const req = https.get(
      { host: '127.0.0.1', port: url.port, path: `/api/1.3/?${query}`, servername: name, headers: { host }, ca: fs.readFileSync(target.caFile, 'utf8'), agent: false },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(body) as Record<string, unknown> }));
      },
    );
    req.on('error', reject);
  });
}

describe('customerPanelLink uses the name and port the client used (issue 32)', () => {
  let named: Sandbox;
  beforeAll(async () => {
    // What keyauth-js needs over HTTPS: a certificate for keyauth.win (a temporary authority).
    named = await startSandbox({ tls: { hostname: 'keyauth.win' } });
  });
  afterAll(() => named.close());

  it('keyauth.win for keyauth-js, the sandbox host name with its port, loopback as used; never a Host the sandbox does not answer to', async () => {
    const target = { baseUrl: named.baseUrl, caFile: named.caFile!, app: named.app };
    const port = new URL(named.baseUrl).port;
    const origin = async (host: string, name = 'keyauth.win'): Promise<string> => {
      const link = ((await initAs(target, name, host)).body.appinfo as { customerPanelLink: string }).customerPanelLink;
      expect(new URL(link).pathname).toMatch(/^\/panel\/[^/]+\/[^/]+\/$/);
      return new URL(link).origin;
    };
    expect(await origin('keyauth.win')).toBe(`https://keyauth.win:${port}`);
    expect(await origin(`keyauth.win:${port}`)).toBe(`https://keyauth.win:${port}`);
    expect(await origin(`localhost:${port}`, 'localhost')).toBe(`https://localhost:${port}`);
    expect(await origin(`127.0.0.1:${port}`)).toBe(named.baseUrl);
    // A name this sandbox does not answer to is never echoed back: it is not answered at all
    // (421, origin-policy.ts), so no link can carry it.
    for (const foreign of ['evil.example', 'keyauth.win.evil.example']) {
      const answer = await initAs(target, 'keyauth.win', foreign);
      expect(answer.status, foreign).toBe(421);
      expect(JSON.stringify(answer.body)).not.toContain('evil.example');
    }
  });
});

