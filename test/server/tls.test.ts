/**
 * The HTTPS sandbox (`tls` option): every API, page and admin route over HTTPS to a client that
 * trusts only the sandbox's authority, with the same signed answers as over HTTP; TLS 1.2 or
 * newer, HTTP/1.1; and a client that does not trust the authority is refused by TLS itself.
 */
import https from 'node:https';
import fs from 'node:fs';
import type { TLSSocket } from 'node:tls';
import { beforeAll, describe, expect, it } from 'vitest';
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
