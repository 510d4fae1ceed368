import { describe, expect, it } from 'vitest';
import { ExitCode, exitCodeOf, RateLimitError } from '../../../src/errors.js';
import { BadResponseError, RateLimitedAnswer, TransportError } from '../../../src/api/api-errors.js';
import {
  backoffMs,
  isQuotaMessage,
  isRateLimitMessage,
  MAX_RETRY_AFTER_MS,
  parseRetryAfter,
  retryNoticeLine,
  withRetry,
} from '../../../src/api/retry.js';
import type { RetryNotice } from '../../../src/api/retry.js';
import type { Effect } from '../../../src/api/seller-catalog/index.js';

const NOW = Date.parse('2026-05-01T12:00:00Z');

describe('rate-limit messages', () => {
  it.each([
    'Seller key used too frequently! Try again in 1 minute. Keep seller key private, use webhook function. Also, store data after fetching first time.',
    'This application has sent too many requests. Try again in a minute.',
    "You've been rate limited, you're sending too many requests",
  ])('recognises %s', (message) => {
    expect(isRateLimitMessage(message)).toBe(true);
  });

  it('does not take the daily key quota for a rate limit', () => {
    const quota = 'You can only generate 5000 keys per 24 hours with SellerAPI.';
    expect(isQuotaMessage(quota)).toBe(true);
    expect(isRateLimitMessage(quota)).toBe(false);
  });

  it('does not take ordinary failures for rate limits', () => {
    expect(isRateLimitMessage("Chat slower, you've hit the delay limit")).toBe(false);
    expect(isRateLimitMessage('Invalid license key')).toBe(false);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds', () => expect(parseRetryAfter('7', NOW)).toBe(7000));
  it('reads an HTTP date', () => expect(parseRetryAfter(new Date(NOW + 12_000).toUTCString(), NOW)).toBe(12_000));
  it('gives 0 for a date in the past', () => expect(parseRetryAfter(new Date(NOW - 5000).toUTCString(), NOW)).toBe(0));
  it('ignores nonsense and absence', () => {
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
  });
});

describe('backoffMs', () => {
  it('doubles from about 1 s with at most 25 % jitter', () => {
    expect(backoffMs(1, () => 0)).toBe(1000);
    expect(backoffMs(2, () => 0)).toBe(2000);
    expect(backoffMs(1, () => 0.999)).toBeLessThanOrEqual(1250);
  });
});

function runner(effect: Effect, failures: Error[]) {
  const sleeps: number[] = [];
  const notices: RetryNotice[] = [];
  let calls = 0;
  const run = withRetry(
    async () => {
      calls++;
      const failure = failures.shift();
      if (failure !== undefined) throw failure;
      return 'done';
    },
    { effect, sleep: async (ms) => void sleeps.push(ms), random: () => 0, onRetry: (n) => notices.push(n) },
  );
  return { run, sleeps, notices, calls: () => calls };
}

const limited = (retryAfterMs?: number) =>
  new RateLimitedAnswer({ status: 429, serverMessage: 'slow down', ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
const reset = () => new TransportError('The connection to h was reset before an answer arrived.', 'reset', 'h');
const serverFault = (status: number) => new BadResponseError(`h answered ${status}`, { kind: 'server-error', status, excerpt: '' });

describe('withRetry', () => {
  it('retries a rate-limited write, honouring Retry-After', async () => {
    const r = runner('write', [limited(3000)]);
    await expect(r.run).resolves.toBe('done');
    expect(r.sleeps).toEqual([3000]);
    expect(r.notices[0]).toMatchObject({ attempt: 2, maxAttempts: 3, reason: 'rate limited' });
  });

  it('never retries a 429 immediately, even with Retry-After: 0', async () => {
    const r = runner('read', [limited(0)]);
    await r.run;
    expect(r.sleeps).toEqual([1000]);
  });

  it('uses backoff without Retry-After and gives up after 3 tries with exit 6', async () => {
    const r = runner('read', [limited(), limited(), limited(), limited()]);
    const error = await r.run.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).not.toBeInstanceOf(RateLimitedAnswer);
    expect(exitCodeOf(error as RateLimitError)).toBe(ExitCode.rateLimited);
    expect((error as Error).message).toBe('Still rate limited after 3 tries. Server said: slow down');
    expect(r.calls()).toBe(3);
    expect(r.sleeps).toEqual([1000, 2000]);
  });

  it('with maxAttempts 1 tries once and says no retries were allowed', async () => {
    const sleeps: number[] = [];
    let calls = 0;
    const error = await withRetry(
      async () => {
        calls += 1;
        throw new RateLimitedAnswer({ status: 429, serverMessage: 'slow down' });
      },
      { effect: 'read', maxAttempts: 1, sleep: async (ms) => void sleeps.push(ms) },
    ).catch((e: unknown) => e);
    expect(exitCodeOf(error as RateLimitError)).toBe(ExitCode.rateLimited);
    expect((error as Error).message).toBe('Rate limited, and no retries are allowed. Server said: slow down');
    expect(calls).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('does not wait out a Retry-After longer than the cap', async () => {
    const r = runner('read', [limited(MAX_RETRY_AFTER_MS + 1000)]);
    const error = await r.run.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as Error).message).toMatch(/asks to wait 61 s, longer than kactl waits \(60 s\)/);
    expect(r.calls()).toBe(1);
  });

  it('retries a read after a reset and a 503', async () => {
    const r = runner('read', [reset(), serverFault(503)]);
    await expect(r.run).resolves.toBe('done');
    expect(r.calls()).toBe(3);
  });

  it('does not retry a write after a reset (it may have been applied)', async () => {
    const r = runner('write', [reset()]);
    await expect(r.run).rejects.toBeInstanceOf(TransportError);
    expect(r.calls()).toBe(1);
  });

  it('does not retry a 500, even for a read', async () => {
    const r = runner('read', [serverFault(500)]);
    await expect(r.run).rejects.toBeInstanceOf(BadResponseError);
    expect(r.calls()).toBe(1);
  });

  it('says why it waits', () => {
    expect(retryNoticeLine({ attempt: 2, maxAttempts: 3, delayMs: 2000, reason: 'rate limited' })).toBe(
      'Rate limited by the server; trying again in 2 s (try 2 of 3).',
    );
  });
});
