/**
 * The real server's key quotas for `add` (docs/protocol/seller-api.md §3.6): at most 100 keys a call and
 * 5000 keys per application in any 24 hours through the seller API.
 *
 * The 24-hour count is read from the licenses themselves (their `gendate`, indexed per app), so
 * it needs no state of its own and follows the sandbox's clock. Unlike E's counter, a key deleted again no
 * longer counts; the sandbox only needs the limit to be reachable, not unforgiving.
 */
import type { Store } from '../store/store.js';

export const MAX_KEYS_PER_CALL = 100;
export const MAX_KEYS_PER_DAY = 5000;
export const QUOTA_WINDOW_SECONDS = 86_400;

export const TOO_MANY_PER_CALL_MESSAGE = 'You can only generate 100 licenses at a time';
export const DAILY_QUOTA_MESSAGE = 'You can only generate 5000 keys per 24 hours with SellerAPI.';

/** The app's keys made since a moment: counted in the (appId, gendate) index (schema v7), not row by row. */
export const KEYS_IN_WINDOW_SQL = 'SELECT COUNT(*) AS n FROM licenses WHERE appId = ? AND gendate > ?';

/**
 * Whether `amount` more keys fit in the app's 24-hour quota; when not, the seconds until the
 * oldest key of the window leaves it (the Retry-After of the refusal).
 */
export function dailyQuota(store: Store, appId: number, amount: number, now: number): { allowed: true } | { allowed: false; retryAfter: number } {
  const since = now - QUOTA_WINDOW_SECONDS;
  const used = store.get<{ n: number }>(KEYS_IN_WINDOW_SQL, appId, since)?.n ?? 0;
  if (used + amount <= MAX_KEYS_PER_DAY) return { allowed: true };
  const oldest = store.get<{ gendate: number }>('SELECT MIN(gendate) AS gendate FROM licenses WHERE appId = ? AND gendate > ?', appId, since)?.gendate ?? now;
  return { allowed: false, retryAfter: Math.max(1, oldest + QUOTA_WINDOW_SECONDS - now) };
}
