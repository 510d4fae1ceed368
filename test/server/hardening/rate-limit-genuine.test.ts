/**
 * In the default hosted mode a rate-limited request is answered as the hosted service answers it:
 * 1.2 and the seller API as the genuine server (HTTP 200, unsigned, bare success/message), 1.3 with
 * the 429 its SDKs react to (signed, as every 1.3 answer). The spec-strict mode keeps 429 +
 * Retry-After everywhere (docs/design.md, "Rate limiting").
 */
import { describe, expect, it } from 'vitest';
import { fakeClock, startTestSandbox } from '../../helpers/sandbox.js';

const CLIENT_LIMITED = 'This application has sent too many requests. Try again in a minute.';

describe('rate limiting in the hosted mode (the default)', () => {
  it('client API 1.2: HTTP 200, no signature, no Retry-After, the source message', async () => {
    const clock = fakeClock();
    const sb = await startTestSandbox({ rateLimit: true, now: clock.now });
    for (let i = 0; i < 200; i++) await sb.client('bogus');
    const limited = await sb.client('init', {}, { api: '1.2' });
    expect(limited.status).toBe(200);
    expect(limited.json).toEqual({ success: false, message: CLIENT_LIMITED });
    expect(limited.headers.get('retry-after')).toBeNull();
    expect(limited.headers.get('signature')).toBeNull();
  });

  it('client API 1.3: HTTP 429, signed, with the source message', async () => {
    const clock = fakeClock();
    const sb = await startTestSandbox({ rateLimit: true, now: clock.now });
    for (let i = 0; i < 200; i++) await sb.client('bogus');
    const limited = await sb.client('init');
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ success: false, message: CLIENT_LIMITED });
    expect(sb.verify13(limited)).toBe(true);
  });

  it('seller API: HTTP 200, JSON, no Retry-After', async () => {
    const sb = await startTestSandbox({ rateLimit: true });
    for (let i = 0; i < 120; i++) await sb.seller('x');
    const limited = await sb.seller('x', { format: 'text' });
    expect(limited.status).toBe(200);
    expect(limited.json).toMatchObject({ success: false, message: expect.stringMatching(/^Seller key used too frequently! Try again in 1 minute/) });
    expect(limited.headers.get('retry-after')).toBeNull();
  });

  it('the spec-strict mode keeps 429 with Retry-After', async () => {
    const sb = await startTestSandbox({ rateLimit: true, failureStatus: 400 });
    for (let i = 0; i < 120; i++) await sb.seller('x');
    const limited = await sb.seller('x');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).not.toBeNull();
  });
});
