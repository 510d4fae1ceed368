/**
 * The sandbox's home page (`GET /`, src/server/home/home-page.ts): HTML for a browser (what the
 * server is, its APIs, the panel, the admin routes and how to read them, no secret), escaped and
 * sent like the other pages (no-store, unframeable); and for everything that does not ask for
 * HTML, the 404 answer every unknown path gets, unchanged.
 */
import { describe, expect, it } from 'vitest';
import { acceptsHtml, SANDBOX_PLACES } from '../../src/server/home/home-page.js';
import { startTestSandbox, type HttpResult, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

/** What Chromium sends when a person opens a URL. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8';

const asBrowser = (sb: TestSandbox, path = '/'): Promise<HttpResult> => sb.request(path, { headers: { accept: BROWSER_ACCEPT } });

function expectNotFound(res: HttpResult): void {
  expect(res.status, res.text).toBe(404);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(res.text).toBe('{"success":false,"message":"Not found"}');
}

describe('GET / in a browser', () => {
  it('says what the server is, where its APIs are, and links the customer panel', async () => {
    const sb = await startTestSandbox();
    const res = await asBrowser(sb);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('kactl sandbox');
    expect(res.text).toContain(sb.info.app.name);
    expect(res.text).toContain(sb.info.app.ownerid);
    expect(res.text).toContain(`<td>${sb.info.app.version}</td>`);
    expect(res.text).toContain(sb.baseUrl);
    expect(res.text).toContain('Plain HTTP');
    for (const api of ['/api/1.3/', '/api/1.2/', '/api/seller/']) expect(res.text).toContain(`<code>${api}</code>`);
    const app = sb.app();
    const panel = `/panel/${encodeURIComponent(app.owner)}/${encodeURIComponent(app.name)}/`;
    expect(res.text).toContain(`<a href="${panel}">Customer panel</a>`);
    // The link leads to the panel itself.
    expect((await asBrowser(sb, panel)).status).toBe(200);
  });

  it('names the outbox and the clock as admin routes, with the commands that read them, and links neither', async () => {
    const sb = await startTestSandbox();
    const res = await asBrowser(sb);
    expect(res.text).toContain('<code>/sandbox/outbox</code>');
    expect(res.text).toContain('<code>kactl sandbox outbox</code>');
    expect(res.text).toContain('admin token');
    expect(res.text).not.toContain('href="/sandbox/outbox"');
  });

  it('links the dashboard, with the command that signs a browser in', async () => {
    const sb = await startTestSandbox();
    const res = await asBrowser(sb);
    expect(res.text).toContain('<a href="/sandbox/ui">Dashboard</a>');
    expect(res.text).toContain('Sign in with <code>kactl sandbox ui</code>.');
  });

  it('shows no secret: seller key, app secret, admin token', async () => {
    const sb = await startTestSandbox();
    const { text } = await asBrowser(sb);
    for (const secret of [sb.info.sellerKey, sb.info.app.secret, sb.info.adminToken]) expect(text).not.toContain(secret);
  });

  it('is sent like every sandbox page: no-store, never framed, no Referer, and varies on Accept', async () => {
    const sb = await startTestSandbox();
    const { headers } = await asBrowser(sb);
    expect(headers.get('cache-control')).toBe('no-store');
    expect(headers.get('x-frame-options')).toBe('DENY');
    expect(headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(headers.get('referrer-policy')).toBe('no-referrer');
    expect(headers.get('vary')).toBe('Accept');
  });

  it('escapes what the store holds: an app name with markup is text', async () => {
    const sb = await startTestSandbox();
    sb.store.run('UPDATE apps SET name = ?, ver = ? WHERE id = ?', '<img src=x onerror=alert(1)>&"app"', '<b>2</b>', sb.app().id);
    const { text } = await asBrowser(sb);
    expect(text).not.toContain('<img src=x');
    expect(text).not.toContain('<b>2</b>');
    expect(text).toContain('&#60;img src=x onerror=alert(1)&#62;&#38;&#34;app&#34;');
  });

  it('says HTTPS and how to trust it on an HTTPS sandbox', async () => {
    const sb = await startTestSandbox({ tls: { dataDir: tempDir('kactl-home-tls-') } });
    const { status, text } = await asBrowser(sb);
    expect(status).toBe(200);
    expect(text).toContain('HTTPS, with a certificate');
    expect(text).toContain('kactl sandbox ca --help');
    expect(text).toContain(sb.baseUrl);
  });
});

describe('/ for everything that does not ask for HTML', () => {
  it('answers 404 {"success":false,"message":"Not found"}, exactly as an unknown path', async () => {
    const sb = await startTestSandbox();
    expectNotFound(await sb.request('/no-such-path'));
    expectNotFound(await sb.request('/'));
    for (const accept of ['*/*', 'application/json', 'text/plain', 'text/html;q=0', 'application/json, text/*;q=0.5']) {
      expectNotFound(await sb.request('/', { headers: { accept } }));
    }
  });

  it('answers a POST with Not found too, whatever it asks for or carries', async () => {
    const sb = await startTestSandbox();
    expectNotFound(await sb.request('/', { method: 'POST' }));
    expectNotFound(await sb.request('/', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'type=init' }));
    expectNotFound(await sb.request('/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"type":"init"}' }));
    expectNotFound(await sb.request('/', { method: 'POST', headers: { accept: BROWSER_ACCEPT } }));
  });
});

describe('the places the page lists', () => {
  it('are all served: the page never links to a route that does not exist', async () => {
    const sb = await startTestSandbox();
    for (const place of SANDBOX_PLACES) {
      const res = await sb.request(place.path, { headers: { accept: BROWSER_ACCEPT, authorization: `Bearer ${sb.info.adminToken}` } });
      // A page behind a sign-in is served, and says how to sign in (its own tests sign in).
      if (place.signIn !== undefined) {
        expect(res.status, `${place.path}: ${res.text}`).toBe(401);
        expect(res.text).toContain(place.signIn.command);
        continue;
      }
      expect(res.status, `${place.path}: ${res.text}`).toBe(200);
      // Without the token an admin route refuses, which is why the page names the command instead.
      if (place.admin !== undefined) expect((await sb.request(place.path)).status).toBe(401);
    }
  });
});

describe('acceptsHtml', () => {
  it('is true only when HTML is asked for with q > 0', () => {
    expect(acceptsHtml(BROWSER_ACCEPT)).toBe(true);
    expect(acceptsHtml('TEXT/HTML')).toBe(true);
    expect(acceptsHtml('application/xhtml+xml;q=0.5')).toBe(true);
    expect(acceptsHtml(['application/json', 'text/html'])).toBe(true);
    expect(acceptsHtml(undefined)).toBe(false);
    expect(acceptsHtml('*/*')).toBe(false);
    expect(acceptsHtml('text/*')).toBe(false);
    expect(acceptsHtml('text/html;q=0')).toBe(false);
    expect(acceptsHtml('text/html; q=0.0')).toBe(false);
  });
});
