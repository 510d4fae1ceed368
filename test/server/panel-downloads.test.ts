/**
 * Customer panel downloads over real HTTP: the panel links to its own `files/<id>` route, which
 * only a signed-in user may open; the file's stored URL is fetched and its bytes streamed back
 * as an attachment. On the old code the link was the stored URL and `files/<id>` answered 404.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFile } from '../../src/server/domain/files.js';
import { formToken, PanelBrowser, panelSetup } from '../helpers/panel-browser.js';
import { startTestSandbox } from '../helpers/sandbox.js';

const PROGRAM = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7) % 256));
let origin: string;
let server: http.Server;
/** Resolves the held-back second half of `/held.bin`. */
let release: () => void = () => undefined;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/loader%20v2.exe') {
      res.writeHead(200, { 'content-length': String(PROGRAM.length), 'content-type': 'text/html' });
      res.end(PROGRAM);
    } else if (req.url === '/held.bin') {
      // The first part now, the rest only once the test has read the first part through the panel.
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write('first-part;');
      release = () => res.end('second-part');
    } else {
      res.writeHead(404);
      res.end('gone');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('customer panel downloads', () => {
  it('serves the app files to signed-in users only, as attachments, without showing the stored URL', async () => {
    const sb = await startTestSandbox();
    const now = Math.floor(Date.now() / 1000);
    const program = createFile(sb.store, sb.app().id, { url: `${origin}/loader%20v2.exe`, size: '293 KB' }, now);
    const gone = createFile(sb.store, sb.app().id, { url: `${origin}/missing.bin`, size: '1 KB' }, now);
    const base = await panelSetup(sb);
    const browser = new PanelBrowser(sb);

    const anonymous = await browser.get(`${base}files/${program.id}`);
    expect(anonymous.status).toBe(403);
    expect(anonymous.text).toContain('Sign in to the customer panel to download files.');
    expect(anonymous.bytes.includes(PROGRAM.subarray(0, 64))).toBe(false);

    const first = await browser.get(base);
    expect((await browser.post(`${base}login`, { username: 'carol', password: 'carol-pass-1', form_token: formToken(first) })).status).toBe(303);
    const dash = await browser.get(base);
    expect(dash.text).toContain(`href="${base}files/${program.id}" download`);
    expect(dash.text).not.toContain(origin);

    const file = await browser.get(`${base}files/${program.id}`);
    expect(file.status).toBe(200);
    expect(file.bytes.equals(PROGRAM)).toBe(true);
    expect(file.headers.get('content-type')).toBe('application/octet-stream');
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="loader v2.exe"; filename*=UTF-8''loader%20v2.exe`);
    expect(file.headers.get('content-length')).toBe(String(PROGRAM.length));

    const broken = await browser.get(`${base}files/${gone.id}`);
    expect(broken.status).toBe(502);
    expect(broken.text).toContain('File no longer works, please notify the application developer.');
    const unknown = await browser.get(`${base}files/999999`);
    expect(unknown.status).toBe(404);

    // Signed out: the same link is refused again.
    const dashAgain = await browser.get(base);
    await browser.post(`${base}logout`, { form_token: formToken(dashAgain) });
    expect((await browser.get(`${base}files/${program.id}`)).status).toBe(403);
  });

  it('streams: the first bytes reach the user before the origin has sent the rest', async () => {
    const sb = await startTestSandbox();
    const held = createFile(sb.store, sb.app().id, { url: `${origin}/held.bin`, size: '1 KB' }, Math.floor(Date.now() / 1000));
    const base = await panelSetup(sb);
    const browser = new PanelBrowser(sb);
    const first = await browser.get(base);
    await browser.post(`${base}login`, { username: 'carol', password: 'carol-pass-1', form_token: formToken(first) });

    const res = await fetch(`${sb.baseUrl}${base}files/${held.id}`, { headers: { cookie: browser.cookie } });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let text = '';
    const decoder = new TextDecoder();
    // A panel that buffered the whole file would never answer here: the origin waits for us.
    while (!text.includes('first-part;')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    expect(text).toBe('first-part;');
    release();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    expect(text).toBe('first-part;second-part');
  });
});
