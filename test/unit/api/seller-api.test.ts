/** SellerApi against a real HTTP server on 127.0.0.1 that answers the way docs/protocol/seller-api.md records. */
import { describe, expect, it } from 'vitest';
import { ApiFailure, AuthError, ExitCode, exitCodeOf, RateLimitError } from '../../../src/errors.js';
import { cliHints } from '../../../src/error-hints.js';
import { SellerApi } from '../../../src/api/seller-api.js';
import type { SellerApiOptions } from '../../../src/api/seller-api.js';
import { Transport } from '../../../src/api/transport.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { fakeTime, json, startHttpServer } from './helpers/servers.js';
import type { TestServer } from './helpers/servers.js';
import { caught } from './helpers/caught.js';

const SELLER_KEY = 'ab12cd34ef56ab12cd34ef56ab12cd34';
const TOO_FREQUENT =
  'Seller key used too frequently! Try again in 1 minute. Keep seller key private, use webhook function. Also, store data after fetching first time.';

function makeSeller(server: TestServer, options: Partial<SellerApiOptions> & { verbose?: string[] } = {}) {
  const time = fakeTime();
  const warnings: string[] = [];
  const { verbose, ...overrides } = options;
  const seller = new SellerApi({
    baseUrl: server.baseUrl,
    sellerKey: SELLER_KEY,
    ratePerMinute: 0,
    transport: new Transport({ timeoutMs: 2000, ...(verbose ? { verbose: (line: string) => verbose.push(line) } : {}) }),
    warn: (line) => warnings.push(line),
    now: time.now,
    sleep: time.sleep,
    random: () => 0,
    ...overrides,
  });
  return { seller, warnings, time };
}

describe('requests', () => {
  it('GET {base}/api/seller/ with sellerkey, type and the parameters', async () => {
    const server = await startHttpServer(() => json({ success: true, message: 'License Successfully Generated', key: 'AAAA-BBBB' }));
    const { seller } = makeSeller(server);
    const body = await seller.call('add', { expiry: 30, level: 1, note: undefined });
    expect(body).toMatchObject({ key: 'AAAA-BBBB' });
    const req = server.requests[0]!;
    expect(req.method).toBe('GET');
    expect(req.url.startsWith('/api/seller/?')).toBe(true);
    expect(Object.fromEntries(req.params)).toEqual({ sellerkey: SELLER_KEY, type: 'add', expiry: '30', level: '1' });
  });

  it('never shows the seller key in --verbose lines', async () => {
    const server = await startHttpServer(() => json({ success: true, message: 'ok' }));
    const lines: string[] = [];
    const { seller } = makeSeller(server, { verbose: lines });
    await seller.call('setseller');
    expect(lines[0]).toBe(`→ GET ${server.baseUrl}/api/seller/?sellerkey=ab12…&type=setseller`);
    expect(lines.join('\n')).not.toContain(SELLER_KEY);
  });

  it('takes 302 with a JSON body and no Location (add of several keys) as the answer', async () => {
    const server = await startHttpServer(() => json({ success: true, message: 'Licenses successfully generated', keys: ['K1', 'K2'] }, 302));
    const { seller } = makeSeller(server);
    await expect(seller.call('add', { expiry: 1, amount: 2 })).resolves.toEqual({ success: true, message: 'Licenses successfully generated', keys: ['K1', 'K2'] });
  });

  it('format=text asks for text and returns it', async () => {
    const server = await startHttpServer(() => ({ headers: { 'content-type': 'text/html; charset=UTF-8' }, body: 'K1\r\nK2' }));
    const { seller } = makeSeller(server);
    await expect(seller.call('add', { expiry: 1, amount: 2 }, { format: 'text' })).resolves.toBe('K1\r\nK2');
    expect(server.requests[0]!.params.get('format')).toBe('text');
  });

  it('format=text with a 400 is the text as a failure, exit 1', async () => {
    const server = await startHttpServer(() => ({ status: 400, body: 'Level too long' }));
    const { seller } = makeSeller(server);
    const error = await caught(seller.call('add', { expiry: 1, level: 'x'.repeat(20) }, { format: 'text' }));
    expect(error).toBeInstanceOf(ApiFailure);
    expect(error.message).toBe('Level too long');
  });
});

describe('empty lists', () => {
  const list = { key: 'keys', emptyMessage: 'No keys found' };

  it('406 with the op\'s message is an empty list', async () => {
    const server = await startHttpServer(() => json({ success: false, message: 'No keys found' }, 406));
    const { seller } = makeSeller(server);
    await expect(seller.call('fetchallkeys', {}, { list, effect: 'read' })).resolves.toEqual({ success: true, message: 'No keys found', keys: [] });
  });

  it('a 200 "No … found" failure (an older server\'s wording) is an empty list too', async () => {
    const server = await startHttpServer(() => json({ success: false, message: 'No License Keys Found' }));
    const { seller } = makeSeller(server);
    await expect(seller.call('fetchallkeys', {}, { list, effect: 'read' })).resolves.toMatchObject({ success: true, keys: [] });
  });

  it('a 406 on an op that is not a list stays a failure (verify: Key Not Found)', async () => {
    const server = await startHttpServer(() => json({ success: false, message: 'Key Not Found' }, 406));
    const { seller } = makeSeller(server);
    const error = await caught(seller.call('verify', { key: 'X' }));
    expect(error).toBeInstanceOf(ApiFailure);
    expect(error.message).toBe('Key Not Found');
  });
});

describe('failures', () => {
  it.each([200, 400])('success:false with status %i is the message verbatim, exit 1', async (status) => {
    const server = await startHttpServer(() => json({ success: false, message: 'Failed to delete license!' }, status));
    const { seller } = makeSeller(server);
    const error = await caught(seller.call('del', { key: 'X' }));
    expect(error).toBeInstanceOf(ApiFailure);
    expect(exitCodeOf(error)).toBe(ExitCode.failure);
    expect(error.message).toBe('Failed to delete license!');
    expect((error as ApiFailure).status).toBe(status);
  });

  it.each([
    [404, 'No application found', /copy it again/],
    [200, 'Seller key should be 32 characters long. Copy it from https://keyauth.cc/app/?page=seller-settings', /exactly 32 characters/],
    [404, 'Seller Key Not Found', /copy it again/],
    [403, 'Not authorized to use SellerAPI, please upgrade', /seller plan/],
    [423, 'Restricted. Only authorized IPs may use this seller key!', /allowed IPs/],
    [403, 'This application has been banned from KeyAuth.cc for violating terms', /banned/],
    [400, 'Invalid seller key', /seller key/],
  ])('a refused seller key (%i %s) is exit 3 with a hint', async (status, message, hint) => {
    const server = await startHttpServer(() => json({ success: false, message }, status));
    const { seller } = makeSeller(server);
    const error = await caught(seller.call('fetchallkeys', {}, { list: { key: 'keys', emptyMessage: 'No keys found' }, effect: 'read' }));
    expect(error).toBeInstanceOf(AuthError);
    expect(exitCodeOf(error)).toBe(ExitCode.auth);
    expect(error.message).toBe(message);
    expect(cliHints(error).join(' ')).toMatch(hint);
  });

  it('the daily key quota (429) is not retried: the server\'s message, exit 1', async () => {
    const server = await startHttpServer(() => json({ success: false, message: 'You can only generate 5000 keys per 24 hours with SellerAPI.' }, 429));
    const { seller } = makeSeller(server);
    const error = await caught(seller.call('add', { expiry: 1 }));
    expect(error).toBeInstanceOf(ApiFailure);
    expect(server.requests).toHaveLength(1);
  });

  it('a write refused with a 500 is not retried (exit 4)', async () => {
    const server = await startHttpServer(() => json({ success: false, message: 'Failed to add time! Key must not be used.' }, 500));
    const { seller } = makeSeller(server);
    const error = await caught(seller.call('addtime', { time: 1 }, { effect: 'bulk' }));
    expect(exitCodeOf(error)).toBe(ExitCode.network);
    expect(error.message).toMatch(/"Failed to add time! Key must not be used."/);
    expect(server.requests).toHaveLength(1);
  });

  it('a read that meets a 502 is retried', async () => {
    const server = await startHttpServer((_req, index) => (index === 0 ? { status: 502, body: '<html><title>502 Bad Gateway</title></html>' } : json({ success: true, message: 'ok', users: [] })));
    const { seller } = makeSeller(server);
    await expect(seller.call('fetchallusers', {}, { effect: 'read' })).resolves.toMatchObject({ users: [] });
    expect(server.requests).toHaveLength(2);
  });

  it('an HTML error page does not leak the seller key it echoes', async () => {
    const server = await startHttpServer((req) => ({ status: 404, headers: { 'content-type': 'text/html' }, body: `<html><body>Not found: ${req.url}</body></html>` }));
    const { seller } = makeSeller(server);
    const error = await caught(seller.call('stats', {}, { effect: 'read' }));
    expect(exitCodeOf(error)).toBe(ExitCode.network);
    expect(error.message).toMatch(/HTML page/);
    expect(error.message).not.toContain(SELLER_KEY);
  });
});

describe('rate limits and pacing', () => {
  it('the seller rate-limit message is retried, even for a write (it was refused, nothing was made)', async () => {
    const server = await startHttpServer((_req, index) => (index === 0 ? json({ success: false, message: TOO_FREQUENT }) : json({ success: true, message: 'License Successfully Generated', key: 'K' })));
    const { seller, warnings } = makeSeller(server);
    await expect(seller.call('add', { expiry: 1 }, { effect: 'write' })).resolves.toMatchObject({ key: 'K' });
    expect(server.requests).toHaveLength(2);
    expect(warnings).toEqual(['Rate limited by the server; trying again in 60 s (try 2 of 3).']);
  });

  it('429 with Retry-After, then 200', async () => {
    const server = await startHttpServer((_req, index) => (index === 0 ? json({ success: false, message: 'Too many' }, 429, { 'retry-after': '5' }) : json({ success: true, message: 'ok', users: [] })));
    const { seller, time } = makeSeller(server);
    await seller.call('fetchallusers', {}, { effect: 'read' });
    expect(time.slept).toEqual([5000]);
  });

  it('always rate-limited with "Try again in 1 minute": waits the window once, then exit 6 with the server\'s words', async () => {
    const server = await startHttpServer(() => json({ success: false, message: TOO_FREQUENT }));
    const { seller, time } = makeSeller(server);
    const error = await caught(seller.call('fetchallkeys', {}, { effect: 'read' }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(exitCodeOf(error)).toBe(ExitCode.rateLimited);
    expect(error.message).toContain('Seller key used too frequently!');
    expect(error.message).toMatch(/^Still rate limited after waiting 60 s\./);
    expect(time.slept).toEqual([60_000]);
    expect(server.requests).toHaveLength(2);
  });

  it('paces calls to the budget, shared through the state folder, and says so', async () => {
    const server = await startHttpServer(() => json({ success: true, message: 'ok' }));
    const dir = tempDir();
    const time = fakeTime();
    const waits: number[] = [];
    const options = { ratePerMinute: 2, stateDir: dir, now: time.now, sleep: time.sleep, onWait: (ms: number) => void waits.push(ms) };
    const first = makeSeller(server, options).seller;
    const second = makeSeller(server, options).seller;
    await first.call('setseller');
    await second.call('setseller');
    expect(waits).toEqual([]);
    await second.call('setseller');
    expect(waits).toEqual([61_000]);
    expect(server.requests).toHaveLength(3);
  });

  it('the default pacing note goes to warn', async () => {
    const server = await startHttpServer(() => json({ success: true, message: 'ok' }));
    const { seller, warnings } = makeSeller(server, { ratePerMinute: 1 });
    await seller.call('setseller');
    await seller.call('setseller');
    expect(warnings).toEqual(['pacing: waiting 61.0 s for the seller API budget (1 call a minute).']);
  });
});
