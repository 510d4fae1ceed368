/**
 * Fixed-window rate limiting, as the real server: a window opens with a key's first request and
 * lasts `windowMs`; past `limit` requests in it, the key is refused until the window ends.
 */
/** Client API: 200 requests per 60 s per application (source) and client IP (sandbox). Seller: 120 per 60 s per key. */
export const CLIENT_RATE_LIMIT = 200;
export const SELLER_RATE_LIMIT = 120;
export const RATE_WINDOW_MS = 60_000;
/** Wrong seller keys accepted from one client IP per window (sandbox: a guess must not open a fresh window). */
export const SELLER_KEY_FAILURE_LIMIT = 10;

export type RateDecision = { readonly allowed: true } | RateRefusal;

export interface RateRefusal {
  readonly allowed: false;
  readonly retryAfterSeconds: number;
  /** The limit that was passed, and its window, for the reason the inspector records. */
  readonly limit: number;
  readonly windowSeconds: number;
}

/** `more than 200 requests within 60 s from 127.0.0.1; retry in 37 s`. */
export function rateReason(refusal: RateRefusal, what: string): string {
  return `rate limit: more than ${refusal.limit} ${what} within ${refusal.windowSeconds} s; retry in ${refusal.retryAfterSeconds} s`;
}

export class FixedWindowLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private lastSweep = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: () => number,
  ) {}

  /** Counts one request of `key`. */
  hit(key: string): RateDecision {
    const now = this.clock();
    this.sweep(now);
    let window = this.windows.get(key);
    if (window === undefined || now - window.start >= this.windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count++;
    if (window.count <= this.limit) return { allowed: true };
    return this.refusal(window.start, now);
  }

  /** Whether `key` is over its limit now, without counting a request. */
  peek(key: string): RateDecision {
    const now = this.clock();
    const window = this.windows.get(key);
    if (window === undefined || now - window.start >= this.windowMs || window.count < this.limit) return { allowed: true };
    return this.refusal(window.start, now);
  }

  private refusal(start: number, now: number): RateRefusal {
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((start + this.windowMs - now) / 1000)), limit: this.limit, windowSeconds: Math.round(this.windowMs / 1000) };
  }

  /** Forgets `key`'s window (a success that clears the failures counted so far). */
  forget(key: string): void {
    this.windows.delete(key);
  }

  /** Forget finished windows now and then, so random keys cannot grow the map for ever. */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    for (const [key, window] of this.windows) if (now - window.start >= this.windowMs) this.windows.delete(key);
  }
}
