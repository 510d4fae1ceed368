/**
 * Attempt limits for the sandbox's web pages (the customer panel, the magic-link and reset pages,
 * the reseller shop hook, the dashboard's sign-in link). Load limits (every page, panel form posts, forged shop signatures per
 * client IP) follow `--no-rate-limit`, like the API's; the limit on wrong panel passwords per
 * username always holds, as the 2FA code count does (domain/twofa-guesses.ts): it is what keeps
 * a password from being guessed, not a load limit; so does the limit on wrong dashboard sign-in
 * codes per client IP.
 */
import { FixedWindowLimiter, type RateDecision } from './rate-limiter.js';

interface PageLimit {
  readonly limit: number;
  readonly windowMs: number;
  /** Holds even with rate limits off. */
  readonly always: boolean;
}

export const PAGE_LIMITS = {
  /** Page requests (any page, GET or POST) per client IP. */
  page: { limit: 300, windowMs: 60_000, always: false },
  /** Customer panel form posts (sign-in, 2FA code, HWID reset, password…) per client IP. */
  panelPost: { limit: 30, windowMs: 60_000, always: false },
  /** Wrong panel passwords per app and username (existing or not: a lock must not tell which exist). */
  panelWrongPassword: { limit: 10, windowMs: 15 * 60_000, always: true },
  /** Shop hook deliveries with a wrong signature per client IP. */
  shopBadSignature: { limit: 10, windowMs: 60_000, always: false },
  /** Dashboard sign-in codes that were wrong, spent or expired, per client IP (ui/sign-in-codes.ts). */
  uiCodeMiss: { limit: 30, windowMs: 10 * 60_000, always: true },
} as const satisfies Readonly<Record<string, PageLimit>>;

export type PageLimitName = keyof typeof PAGE_LIMITS;

export interface PageLimits {
  /** Counts one attempt of `key`; refused past the limit. */
  hit(name: PageLimitName, key: string): RateDecision;
  /** Whether `key` is already over the limit, without counting. */
  peek(name: PageLimitName, key: string): RateDecision;
  /** Forgets `key`'s count (a right password clears the wrong ones). */
  forget(name: PageLimitName, key: string): void;
}

const ALLOWED: RateDecision = { allowed: true };

/** The limits of one server; `rateLimit` false switches the load limits off. */
export function createPageLimits(clock: () => number, rateLimit: boolean): PageLimits {
  const limiters = new Map<PageLimitName, FixedWindowLimiter>();
  for (const [name, spec] of Object.entries(PAGE_LIMITS) as [PageLimitName, PageLimit][]) {
    if (rateLimit || spec.always) limiters.set(name, new FixedWindowLimiter(spec.limit, spec.windowMs, clock));
  }
  return {
    hit: (name, key) => limiters.get(name)?.hit(key) ?? ALLOWED,
    peek: (name, key) => limiters.get(name)?.peek(key) ?? ALLOWED,
    forget: (name, key) => limiters.get(name)?.forget(key),
  };
}
