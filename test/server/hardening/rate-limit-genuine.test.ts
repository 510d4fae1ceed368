/**
 * Issue 9 item 10: under `--failure-status 200` a rate-limited request is answered as the genuine
 * server answers it (HTTP 200, unsigned, bare success/message); by default it stays 429 + Retry-After.
 */
import { describe, expect, it } from 'vitest';
import { fakeClock, startTestSandbox } from '../../helpers/sandbox.js';

const CLIENT_LIMITED = 'This application has sent too many requests. Try again in a minute.';

describe('rate limiting under --failure-status 200', () => {
  it('client API: HTTP 200, no signature, no Retry-After, the source message', async () => {
    const clock = fakeClock();
    const sb = await startTestSandbox({ rateLimit: true, failureStatus: 200, now: clock.now });
    for (let i = 0; i < 200; i++) await sb.client('bogus');
    for (const api of ['1.3', '1.2'] as const) {
      const limited = await sb.client('init', {}, { api });
      expect(limited.status).toBe(200);
      expect(limited.json).toEqual({ success: false, message: CLIENT_LIMITED });
      expect(limited.headers.get('retry-after')).toBeNull();
      expect(limited.headers.get('x-signature-ed25519')).toBeNull();
      expect(limited.headers.get('signature')).toBeNull();
    }
  });

  it('seller API: HTTP 200, JSON, no Retry-After', async () => {
    const sb = await startTestSandbox({ rateLimit: true, failureStatus: 200 });
    for (let i = 0; i < 120; i++) await sb.seller('x');
    const limited = await sb.seller('x', { format: 'text' });
    expect(limited.status).toBe(200);
    expect(limited.json).toMatchObject({ success: false, message: expect.stringMatching(/^Seller key used too frequently! Try again in 1 minute/) });
    expect(limited.headers.get('retry-after')).toBeNull();
  });

  it('the default policy keeps 429 with Retry-After', async () => {
    const sb = await startTestSandbox({ rateLimit: true });
    for (let i = 0; i < 120; i++) await sb.seller('x');
    const limited = await sb.seller('x');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).not.toBeNull();
  });
});
