/**
 * Wrong 2FA codes, counted per user. A TOTP code is six digits valid for a minute or so, so an
 * unlimited stream of guesses finds it: after MAX_WRONG_2FA_CODES wrong codes within
 * WRONG_2FA_WINDOW seconds (counted from the first), the user's 2FA step refuses every code,
 * right or wrong, until the window ends. Every login path (login, license, magic link with
 * `code`, email code with `totp`) goes through this one check, so a magic link or email code
 * cannot be used to guess either. A successful code clears the count.
 *
 * The counts live in memory beside the store (a restart forgets them), keyed by store so that
 * sandboxes in one process do not share them.
 */
import type { Store } from '../store/store.js';
import { perStore } from '../store/per-store.js';

export const MAX_WRONG_2FA_CODES = 5;
export const WRONG_2FA_WINDOW = 15 * 60;

interface Count {
  start: number;
  wrong: number;
}

const countsOf = perStore(() => new Map<number, Count>());

/** Seconds until the user may try a code again, or undefined when they may now. */
export function twofaLockedFor(store: Store, userId: number, now: number): number | undefined {
  const count = countsOf(store).get(userId);
  if (count === undefined) return undefined;
  const left = count.start + WRONG_2FA_WINDOW - now;
  if (left <= 0) {
    countsOf(store).delete(userId);
    return undefined;
  }
  return count.wrong >= MAX_WRONG_2FA_CODES ? left : undefined;
}

export function recordWrong2faCode(store: Store, userId: number, now: number): void {
  const map = countsOf(store);
  const count = map.get(userId);
  if (count === undefined || now - count.start >= WRONG_2FA_WINDOW) map.set(userId, { start: now, wrong: 1 });
  else count.wrong++;
}

export function clearWrong2faCodes(store: Store, userId: number): void {
  countsOf(store).delete(userId);
}

export function twofaLockedMessage(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `Too many wrong 2FA codes. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}
