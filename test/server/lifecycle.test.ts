/** Server lifecycle and plumbing: graceful close, client IP and proxies, page routes, logging. */
import { describe, expect, it } from 'vitest';
import { startTestSandbox } from '../helpers/sandbox.js';
import { ok } from '../../src/server/dispatch/reply.js';
import type { HandlerTable } from '../../src/server/dispatch/types.js';
import type { PageRoute } from '../../src/server/http/pages.js';
import { startSandbox } from '../../src/server/start.js';

let slowStarted: () => void = () => undefined;

const whoami: HandlerTable = {
  whoami: (ctx) => ok('you', { ip: ctx.ip, api: ctx.api, now: ctx.now }),
  slow: async (ctx) => {
    slowStarted();
    await new Promise((resolve) => setTimeout(resolve, 300));
    return ok('done', { aborted: ctx.signal.aborted });
  },
};

describe('graceful close', () => {
  it('finishes in-flight requests before closing the store', async () => {
    const sb = await startTestSandbox({ handlers: { client: whoami } });
    const started = new Promise<void>((resolve) => (slowStarted = resolve));
    const pending = sb.client('slow');
    await started;
    const closed = sb.close();
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, message: 'done', aborted: false });
    await closed;
    expect(sb.store.db.open).toBe(false);
  });
});

describe('client IP', () => {
  it('ignores X-Forwarded-For unless trustProxy', async () => {
    const plain = await startTestSandbox({ handlers: { client: whoami } });
    const spoofed = await plain.client('whoami', {}, { headers: { 'x-forwarded-for': '10.9.9.9' } });
    expect(spoofed.json.ip).toBe('127.0.0.1');
    const proxied = await startTestSandbox({ handlers: { client: whoami }, trustProxy: true });
    expect((await proxied.client('whoami', {}, { headers: { 'x-forwarded-for': '10.9.9.9, 172.16.0.1' } })).json.ip).toBe('10.9.9.9');
    expect((await proxied.client('whoami', {}, { headers: { 'x-forwarded-for': 'not-an-ip' } })).json.ip).toBe('127.0.0.1');
  });

  it('stores the init IP on the session', async () => {
    const sb = await startTestSandbox({ trustProxy: true });
    const sid = await sb.init({}, { headers: { 'x-forwarded-for': '203.0.113.77' } });
    expect(sb.store.get<{ ip: string; api: string }>('SELECT ip, api FROM sessions WHERE id = ?', sid)).toEqual({ ip: '203.0.113.77', api: '1.3' });
  });
});

describe('page routes', () => {
  it('serves registered pages with params from form and query; other methods get 405', async () => {
    const pages: PageRoute[] = [
      { method: 'GET', path: '/magic', handle: (_ctx, params) => ({ body: `<p>token ${params.get('token') ?? '-'}</p>` }) },
      { method: 'POST', path: '/magic', handle: (_ctx, params) => ({ status: 201, contentType: 'text/plain; charset=utf-8', body: `approved ${params.get('token') ?? '-'}` }) },
    ];
    const sb = await startTestSandbox({ handlers: { pages } });
    const get = await sb.request('/magic/?token=abc');
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(get.text).toBe('<p>token abc</p>');
    const post = await sb.request('/magic', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'token=xyz' });
    expect(post.status).toBe(201);
    expect(post.text).toBe('approved xyz');
    expect((await sb.request('/magic', { method: 'DELETE' })).status).toBe(405);
  });
});

describe('logging', () => {
  it('logs one line per request without the query string (which carries secrets)', async () => {
    const lines: string[] = [];
    const sb = await startTestSandbox({ log: (line) => lines.push(line) });
    await sb.seller('nosuchtype');
    await sb.client('init', { pass: 'hunter2' });
    expect(lines.some((l) => /^GET \/api\/seller\/ type=nosuchtype → 200/.test(l))).toBe(true);
    expect(lines.some((l) => /^GET \/api\/1\.3\/ type=init → 200/.test(l))).toBe(true);
    expect(lines.join('\n')).not.toContain(sb.info.sellerKey);
    expect(lines.join('\n')).not.toContain('hunter2');
  });

  it('refuses an empty data option', async () => {
    await expect(startSandbox({ data: '' })).rejects.toThrow(/^data must be a file path or :memory:\.$/);
  });
});

describe('a reply the HTTP layer cannot write', () => {
  it('answers 500 and keeps serving', async () => {
    const lines: string[] = [];
    const sb = await startTestSandbox({
      log: (line) => lines.push(line),
      handlers: { client: { badheader: () => ({ ...ok('x'), headers: { 'x-bad': 'line\nbreak' } }) } },
    });
    const res = await sb.client('badheader');
    expect(res.status).toBe(500);
    expect(res.json).toEqual({ success: false, message: 'Error: internal server error' });
    expect(lines.some((l) => l.startsWith('writing a response failed'))).toBe(true);
    expect((await sb.client('init')).status).toBe(200);
  });
});
