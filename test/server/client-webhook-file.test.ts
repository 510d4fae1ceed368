/**
 * webhook and file over real HTTP (docs/protocol/client-api.md §4.16, §4.17): the sandbox really calls a
 * loopback server started here, and answers what that server sent.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox } from '../helpers/sandbox.js';
import { updateAppSettings } from '../../src/server/domain/apps.js';
import { createFile } from '../../src/server/domain/files.js';
import { listLogs } from '../../src/server/domain/logs.js';
import { createWebhook } from '../../src/server/domain/webhooks.js';
import { WEBHOOK_MAX_RESPONSE_BYTES } from '../../src/server/client/webhook.js';
import { registerUser } from './support/client-fixtures.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const seen: Seen[] = [];
let origin = '';
let server: http.Server;
/** A port nothing listens on (a server was there and closed). */
let deadOrigin = '';
const FILE_BYTES = Buffer.from([0x00, 0x01, 0x7f, 0x80, 0xfe, 0xff, 0x4b, 0x41]);

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const path = (req.url ?? '').split('?')[0];
      if (path === '/hook') return res.end(`hook got ${req.method} ${req.url}`);
      if (path === '/broken') {
        res.writeHead(500);
        return res.end('remote failure text');
      }
      if (path === '/file.bin') return res.end(FILE_BYTES);
      if (path === '/huge') return res.end(Buffer.alloc(WEBHOOK_MAX_RESPONSE_BYTES + 1, 0x61));
      if (path === '/moved') {
        res.writeHead(302, { location: '/file.bin' });
        return res.end();
      }
      if (path === '/forbidden') {
        res.writeHead(403);
        return res.end('no');
      }
      res.writeHead(404);
      res.end('not here');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  deadOrigin = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('webhook', () => {
  it('GETs the base link + params (decoded once more) with the stored user agent; the body comes back in response', async () => {
    const sb = await startTestSandbox();
    const hook = createWebhook(sb.store, sb.app().id, { baselink: `${origin}/hook?type=banuser`, useragent: 'MyAgent/1.0' })!;
    const { sid } = await registerUser(sb);
    const before = seen.length;
    const res = await sb.client('webhook', { sessionid: sid, webid: hook.webid, params: '&user=a%2Bb%26c' });
    expect(res.status).toBe(200);
    expect(sb.verify13(res)).toBe(true);
    expect(Object.keys(res.json)).toEqual(['success', 'code', 'message', 'response', 'nonce', 'ownerid']);
    expect(res.json).toMatchObject({ success: true, message: 'Webhook request successful', response: 'hook got GET /hook?type=banuser&user=a+b&c' });
    const call = seen[before]!;
    expect(call.method).toBe('GET');
    expect(call.headers['user-agent']).toBe('MyAgent/1.0');
  });

  it('POSTs a body with the content type asked for; the remote status is ignored', async () => {
    const sb = await startTestSandbox();
    const hook = createWebhook(sb.store, sb.app().id, { baselink: `${origin}/hook` })!;
    const broken = createWebhook(sb.store, sb.app().id, { baselink: `${origin}/broken` })!;
    const { sid } = await registerUser(sb);
    const before = seen.length;
    const body = '{"raw": "<b>kept</b>"}';
    const res = await sb.client('webhook', { sessionid: sid, webid: hook.webid, body, conttype: 'application/json' }, { method: 'POST' });
    expect(res.json.response).toBe('hook got POST /hook');
    expect(seen[before]).toMatchObject({ method: 'POST', body });
    expect(seen[before]!.headers['content-type']).toBe('application/json');
    expect(seen[before]!.headers['user-agent']).toBe('KeyAuth');
    expect((await sb.client('webhook', { sessionid: sid, webid: broken.webid })).json).toMatchObject({ success: true, response: 'remote failure text' });
  });

  it('answers an empty response when the remote cannot be reached, on 1.2 too', async () => {
    const sb = await startTestSandbox();
    const dead = createWebhook(sb.store, sb.app().id, { baselink: `${deadOrigin}/hook` })!;
    const { sid } = await registerUser(sb);
    expect((await sb.client('webhook', { sessionid: sid, webid: dead.webid })).json).toMatchObject({ success: true, message: 'Webhook request successful', response: '' });
    expect((await sb.client('webhook', { sessionid: sid, webid: dead.webid }, { api: '1.2' })).json).toMatchObject({ success: true, response: '' });
  });

  it('answers an empty response for a remote answer over the size cap', async () => {
    const sb = await startTestSandbox();
    const huge = createWebhook(sb.store, sb.app().id, { baselink: `${origin}/huge` })!;
    const { sid } = await registerUser(sb);
    expect((await sb.client('webhook', { sessionid: sid, webid: huge.webid })).json).toMatchObject({ success: true, response: '' });
  });

  it('refuses an unknown webhook, and an authed one on an unlogged session', async () => {
    const sb = await startTestSandbox();
    const authed = createWebhook(sb.store, sb.app().id, { baselink: `${origin}/hook` })!;
    const open = createWebhook(sb.store, sb.app().id, { baselink: `${origin}/hook`, authed: false })!;
    const sid = await sb.init();
    expect((await sb.client('webhook', { sessionid: sid, webid: 'nope' })).json.message).toBe('Webhook Not Found.');
    expect((await sb.client('webhook', { sessionid: sid })).json.message).toBe('Webhook Not Found.');
    expect((await sb.client('webhook', { sessionid: sid, webid: authed.webid })).json.message).toBe('Session is not validated');
    expect((await sb.client('webhook', { sessionid: sid, webid: open.webid })).json.success).toBe(true);
  });
});

describe('file', () => {
  it('answers the file as lowercase hex, following redirects', async () => {
    const sb = await startTestSandbox();
    const file = createFile(sb.store, sb.app().id, { url: `${origin}/file.bin`, size: '8 B' }, Math.floor(Date.now() / 1000));
    const moved = createFile(sb.store, sb.app().id, { url: `${origin}/moved`, size: '8 B' }, Math.floor(Date.now() / 1000));
    const { sid } = await registerUser(sb);
    const res = await sb.client('file', { sessionid: sid, fileid: file.id });
    expect(res.status).toBe(200);
    expect(sb.verify13(res)).toBe(true);
    expect(res.json).toMatchObject({ success: true, code: 68, message: 'File download successful', contents: '00017f80feff4b41' });
    expect((await sb.client('file', { sessionid: sid, fileid: moved.id })).json.contents).toBe('00017f80feff4b41');
    const v12 = await sb.client('file', { sessionid: sid, fileid: file.id }, { api: '1.2' });
    expect(v12.json.contents).toBe(FILE_BYTES.toString('hex'));
  });

  it('says the file no longer works on 403, 404 and an unreachable origin', async () => {
    const sb = await startTestSandbox();
    const now = Math.floor(Date.now() / 1000);
    const { sid } = await registerUser(sb);
    for (const url of [`${origin}/forbidden`, `${origin}/gone`, `${deadOrigin}/file.bin`]) {
      const file = createFile(sb.store, sb.app().id, { url, size: '1 B' }, now);
      const res = await sb.client('file', { sessionid: sid, fileid: file.id });
      expect(res.json).toMatchObject({ success: false, message: 'File no longer works, please notify the application developer.' });
    }
  });

  it('refuses an unknown file, and an authed one on an unlogged session', async () => {
    const sb = await startTestSandbox();
    const now = Math.floor(Date.now() / 1000);
    const authed = createFile(sb.store, sb.app().id, { url: `${origin}/file.bin`, size: '8 B' }, now);
    const open = createFile(sb.store, sb.app().id, { url: `${origin}/file.bin`, size: '8 B', authed: false }, now);
    const sid = await sb.init();
    expect((await sb.client('file', { sessionid: sid, fileid: '000000' })).json.message).toBe('File not Found');
    expect((await sb.client('file', { sessionid: sid, fileid: authed.id })).json.message).toBe('Session is not validated');
    expect((await sb.client('file', { sessionid: sid, fileid: open.id })).json.contents).toBe('00017f80feff4b41');
  });
});

describe('log with an app Discord webhook', () => {
  it('posts the source embed there, and keeps the line too', async () => {
    const sb = await startTestSandbox();
    updateAppSettings(sb.store, sb.app().id, { webhook: `${origin}/hook` });
    const { sid, username } = await registerUser(sb);
    const before = seen.length;
    expect((await sb.client('log', { sessionid: sid, message: 'hello', pcuser: 'desk' })).json.message).toBe('Log sent');
    const post = seen[before]!;
    expect(post.method).toBe('POST');
    expect(post.headers['content-type']).toBe('application/json');
    expect(JSON.parse(post.body)).toEqual({
      embeds: [
        {
          title: '📜 Log: hello',
          color: 0x00ffe1,
          fields: [
            { name: '🔐 Credential:', value: username },
            { name: '💻 PC Name:', value: 'desk' },
            { name: '🌎 Client IP:', value: '127.0.0.1' },
          ],
        },
      ],
    });
    expect(listLogs(sb.store, sb.app().id).map((row) => row.logdata)).toEqual(['hello']);
  });
});
