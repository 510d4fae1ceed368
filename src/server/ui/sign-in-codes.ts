/**
 * One-time codes that sign a browser in to the dashboard (`kactl sandbox ui`): minted by the
 * admin route `POST /sandbox/ui-code` for whoever holds the admin token, exchanged once at
 * `GET /sandbox/ui/login?code=…` for the dashboard's cookie. The admin token itself never goes
 * into a URL: the code does, and it is worth nothing once used or two minutes old.
 *
 * Kept in memory beside the store (a restart forgets them, as it forgets sign-ins), on real time:
 * the sandbox's clock, which a tester moves, must not expire or revive them.
 */
import { randomBytes } from 'node:crypto';
import { perStore } from '../store/per-store.js';
import type { Store } from '../store/store.js';

/** How long a code may wait to be used, in seconds. */
export const SIGN_IN_CODE_SECONDS = 120;
/** Codes waiting at once; minting past this drops the oldest (a code is for one browser, now). */
const MAX_WAITING_CODES = 20;

/** code → when it expires (real time, ms). Insertion order is age order. */
const codesOf = perStore(() => new Map<string, number>());

/** A new code for one sign-in; `nowMs` is real time. */
export function mintSignInCode(store: Store, nowMs: number): string {
  const codes = codesOf(store);
  for (const [code, expiresAt] of codes) if (expiresAt <= nowMs) codes.delete(code);
  while (codes.size >= MAX_WAITING_CODES) {
    const oldest = codes.keys().next().value;
    if (oldest === undefined) break;
    codes.delete(oldest);
  }
  const code = randomBytes(24).toString('base64url');
  codes.set(code, nowMs + SIGN_IN_CODE_SECONDS * 1000);
  return code;
}

/** Spends `code`: true once, for a code minted here less than two minutes ago. */
export function redeemSignInCode(store: Store, code: string | undefined, nowMs: number): boolean {
  if (code === undefined) return false;
  const codes = codesOf(store);
  const expiresAt = codes.get(code);
  if (expiresAt === undefined) return false;
  codes.delete(code);
  return expiresAt > nowMs;
}
