/**
 * Retry and backoff policy (docs/contracts.md §17), shared by the client and seller callers.
 *
 * - At most 3 tries in all by default; the caller may allow fewer or more (`maxAttempts`: the CLI
 *   reads KACTL_RETRIES, which `sandbox exec` sets to 0 so a test sees a fault's answer at once).
 * - A rate-limited answer (HTTP 429, or a rate-limit message in the body) is retried for every
 *   kind of call: the server refused it, so nothing was created and a retry cannot duplicate.
 *   The wait is the server's `Retry-After` (seconds or an HTTP date) when it sends one, else
 *   exponential backoff with jitter from ~1 s. A `Retry-After` longer than 60 s is not waited
 *   out: kactl stops at once with exit 6 and says how long the server asked for.
 * - The genuine server limits clients with HTTP 200 and an unsigned "… Try again in a minute."
 *   (no Retry-After): that text names the hosted window, so kactl waits the window (a countdown
 *   on a terminal) rather than retrying after a second or two, which could only be refused again.
 * - All rate-limit waits of one call together stay within MAX_RETRY_AFTER_MS: a limit that
 *   would need more ends the command with exit 6 instead of waiting minutes.
 * - Transient failures (connection reset or closed, 502/503/504) are retried for reads only:
 *   a write may have been applied before the connection broke, and a retry could create a
 *   second license. A 500 is a server fault, never retried.
 * - `You can only generate 5000 keys per 24 hours with SellerAPI.` arrives as a 429 but is a
 *   daily quota, not a rate: waiting seconds cannot help, so it is not retried and surfaces as
 *   the server's `success:false` message (ApiFailure, exit 1).
 */
import { InterruptedError, RateLimitError } from './errors.js';
import { BadResponseError, RateLimitedAnswer, TransportError } from './api-errors.js';
import { formatSeconds } from './excerpt.js';
import type { Effect } from './seller-catalog/types.js';

/** Tries in all, the first included. */
export const MAX_ATTEMPTS = 3;
/** First backoff step; doubles each retry. */
export const BASE_BACKOFF_MS = 1_000;
/** Longest wait kactl accepts from Retry-After. */
export const MAX_RETRY_AFTER_MS = 60_000;
/** A 429 is never retried sooner than this, even with `Retry-After: 0`. */
export const MIN_RATE_LIMIT_WAIT_MS = 1_000;
/** The hosted service's rate-limit window, which its "Try again in a minute" refers to. */
export const HOSTED_RATE_WINDOW_MS = 60_000;
const WINDOW_TEXT = /\btry again in (a|one|1) minute\b/i;

/** The wait a rate-limit text names ("Try again in a minute" → the hosted window), if any. */
export function windowNamedBy(message: string, windowMs = HOSTED_RATE_WINDOW_MS): number | undefined {
  return WINDOW_TEXT.test(message) ? windowMs : undefined;
}


/** Waits `ms`; rejects with InterruptedError when `signal` aborts. Injected in tests. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The real sleep (a timer of its own: node:timers/promises costs a one-request command start-up time). */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new InterruptedError());
      return;
    }
    const stop = (): void => {
      clearTimeout(timer);
      reject(new InterruptedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal?.addEventListener('abort', stop, { once: true });
  });

// Rate-limit texts seen in the sources (docs/protocol/seller-api.md §1.3, docs/protocol/client-api.md §1.4 and §1.5).
const RATE_LIMIT_PATTERNS: readonly RegExp[] = [
  /used too frequently/i, // seller: "Seller key used too frequently! Try again in 1 minute. …"
  /sent too many requests/i, // client 1.2: "This application has sent too many requests. Try again in a minute."
  /\brate[- ]limit(ed)?\b/i, // hosted docs: {"status":false,"message":"You've been rate limited, …"}
  /too many requests/i,
];
// A quota: arrives as 429 on the seller API's `add`, but waiting seconds will not lift it.
const QUOTA_PATTERN = /you can only generate \d+ (keys|licenses) per/i;

/** True when `message` is one of the known rate-limit texts (and not the daily key quota). */
export function isRateLimitMessage(message: string): boolean {
  return !QUOTA_PATTERN.test(message) && RATE_LIMIT_PATTERNS.some((pattern) => pattern.test(message));
}

/** True for the seller API's daily key-generation quota message. */
export function isQuotaMessage(message: string): boolean {
  return QUOTA_PATTERN.test(message);
}

/**
 * `Retry-After` in ms from now: a number of seconds or an HTTP date. Undefined when absent or
 * unreadable; a date in the past gives 0.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** Backoff before try `attempt + 1`: 1 s, 2 s, 4 s… each plus up to 25 % jitter. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const base = BASE_BACKOFF_MS * 2 ** Math.max(0, attempt - 1);
  return Math.round(base * (1 + 0.25 * random()));
}

/** True for failures worth retrying on a read: a dropped connection or a 502/503/504. */
export function isTransientFailure(error: unknown): boolean {
  if (error instanceof TransportError) return error.kind === 'reset' || error.kind === 'closed';
  if (error instanceof BadResponseError) return error.kind === 'server-error' && [502, 503, 504].includes(error.status);
  return false;
}

/** What `onRetry` is told before each wait. */
export interface RetryNotice {
  /** The try about to be made (2 or 3). */
  attempt: number;
  maxAttempts: number;
  delayMs: number;
  /** `rate limited` or the failure's message. */
  reason: string;
}

export interface RetryOptions {
  /** What the call does to the server's data; decides whether transient failures are retried. */
  effect: Effect;
  maxAttempts?: number;
  sleep?: Sleep;
  signal?: AbortSignal;
  /** For tests: the jitter source. */
  random?: () => number;
  /** Told before each wait, so the CLI can say why it pauses. */
  onRetry?: (notice: RetryNotice) => void;
  /**
   * Waits out a rate limit in place of `onRetry` + `sleep` (a countdown on a terminal). Must
   * reject with InterruptedError when `signal` aborts.
   */
  countdown?: (notice: RetryNotice, signal?: AbortSignal) => Promise<void>;
}

/**
 * Runs `attempt` (1-based try number) until it succeeds, a failure is not retryable, or the
 * tries run out. A rate limit that outlasts the tries becomes RateLimitError (exit 6).
 */
export async function withRetry<T>(attempt: (tryNumber: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const maxAttempts = options.maxAttempts ?? MAX_ATTEMPTS;
  const sleep = options.sleep ?? defaultSleep;
  let rateWaitedMs = 0;
  for (let tryNumber = 1; ; tryNumber++) {
    let waitMs: number;
    let reason: string;
    try {
      return await attempt(tryNumber);
    } catch (error) {
      if (error instanceof RateLimitedAnswer) {
        if (error.retryAfterMs !== undefined && error.retryAfterMs > MAX_RETRY_AFTER_MS) {
          throw new RateLimitError(
            `Rate limited: the server asks to wait ${formatSeconds(error.retryAfterMs)}, longer than kactl waits (${formatSeconds(MAX_RETRY_AFTER_MS)}). Server said: ${error.serverMessage}`,
          );
        }
        if (tryNumber >= maxAttempts) {
          throw new RateLimitError(
            maxAttempts === 1 ? `Rate limited, and no retries are allowed. Server said: ${error.serverMessage}` : `Still rate limited after ${maxAttempts} tries. Server said: ${error.serverMessage}`,
          );
        }
        waitMs = error.retryAfterMs === undefined ? backoffMs(tryNumber, options.random) : Math.max(error.retryAfterMs, MIN_RATE_LIMIT_WAIT_MS);
        if (rateWaitedMs > 0 && rateWaitedMs + waitMs > MAX_RETRY_AFTER_MS) {
          throw new RateLimitError(`Still rate limited after waiting ${formatSeconds(rateWaitedMs)}. Server said: ${error.serverMessage}`);
        }
        rateWaitedMs += waitMs;
        reason = 'rate limited';
      } else if (options.effect === 'read' && tryNumber < maxAttempts && isTransientFailure(error)) {
        waitMs = backoffMs(tryNumber, options.random);
        reason = (error as Error).message;
      } else {
        throw error;
      }
    }
    const notice = { attempt: tryNumber + 1, maxAttempts, delayMs: waitMs, reason };
    if (reason === 'rate limited' && options.countdown) {
      await options.countdown(notice, options.signal);
    } else {
      options.onRetry?.(notice);
      await sleep(waitMs, options.signal);
    }
  }
}

/** The stderr line for a retry: `Rate limited by the server; trying again in 2 s (try 2 of 3).` */
export function retryNoticeLine(notice: RetryNotice): string {
  const why = notice.reason === 'rate limited' ? 'Rate limited by the server' : notice.reason.replace(/\.$/, '');
  return `${why}; trying again in ${formatSeconds(notice.delayMs)} (try ${notice.attempt} of ${notice.maxAttempts}).`;
}
