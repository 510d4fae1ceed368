/**
 * Rate limits: client 200 / 60 s per application, seller 120 / 60 s per key; fixed windows. These
 * run in the spec-strict mode (429 + Retry-After everywhere); hardening/rate-limit-genuine.test.ts
 * holds the default, hosted answers.
 */
import { describe, expect, it } from 'vitest';
import { fakeClock, startTestSandbox } from '../helpers/sandbox.js';

describe('client API rate limit', () => {
  it('answers the 201st request in a window with 429, Retry-After and the source message', async () => {
    const clock = fakeClock();
    const sb = await startTestSandbox({ rateLimit: true, failureStatus: 400, now: clock.now });
    for (let i = 0; i < 200; i++) expect((await sb.client('bogus')).status).toBe(400);
    clock.advance(15);
    const limited = await sb.client('init');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('45');
    expect(limited.json).toEqual({ success: false, code: 0, message: 'This application has sent too many requests. Try again in a minute.', ownerid: sb.info.app.ownerid });
    expect(sb.verify13(limited)).toBe(true);
    // Another application's window is separate; requests refused before the app check do not count.
    expect((await sb.client('init', { name: 'other-app' })).text).toBe('KeyAuth_Invalid');
    expect((await sb.client('init', { ownerid: undefined })).status).toBe(400);
    // The window opened with the first request; it ends 60 s later.
    clock.advance(44);
    expect((await sb.client('init')).status).toBe(429);
    clock.advance(1);
    expect((await sb.client('init')).status).toBe(200);
  });

  it('counts 1.2 and 1.3 together for one application', async () => {
    const clock = fakeClock();
    const sb = await startTestSandbox({ rateLimit: true, failureStatus: 400, now: clock.now });
    for (let i = 0; i < 100; i++) await sb.client('bogus');
    for (let i = 0; i < 100; i++) await sb.client('bogus', {}, { api: '1.2' });
    const limited = await sb.client('init', {}, { api: '1.2' });
    expect(limited.status).toBe(429);
    expect(limited.json).toEqual({ success: false, message: 'This application has sent too many requests. Try again in a minute.' });
  });

  it('is off with rateLimit: false', async () => {
    const sb = await startTestSandbox({ rateLimit: false, failureStatus: 400 });
    for (let i = 0; i < 250; i++) expect((await sb.client('bogus')).status).toBe(400);
  });
});

describe('seller API rate limit', () => {
  it('answers the 121st request for one key with 429 and Retry-After, even with format=text', async () => {
    const clock = fakeClock();
    const sb = await startTestSandbox({ rateLimit: true, failureStatus: 400, now: clock.now });
    for (let i = 0; i < 120; i++) expect((await sb.seller('nosuchtype')).status).toBe(400);
    clock.advance(30);
    const limited = await sb.seller('nosuchtype', { format: 'text' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('30');
    expect(limited.json).toEqual({
      success: false,
      message: 'Seller key used too frequently! Try again in 1 minute. Keep seller key private, use webhook function. Also, store data after fetching first time.',
    });
    // Another key has its own window (and is then refused as unknown).
    expect((await sb.seller('nosuchtype', { sellerkey: 'b'.repeat(32) })).json.message).toBe('No application found');
    clock.advance(30);
    expect((await sb.seller('nosuchtype')).status).toBe(400);
  });
});
