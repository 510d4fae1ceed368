/**
 * Email one-time codes (`emailCodeSend` / `emailCodeVerify`, docs/design.md): 6 digits from the
 * CSPRNG, stored only as a salted SHA-256, valid 10 minutes, spent by the login they open, and
 * dead after 5 wrong tries. Only the newest code of a user counts: sending a new one kills the
 * older ones.
 *
 * Every try is judged inside one transaction (read, compare, count), so simultaneous guesses
 * can never get more than MAX_EMAIL_CODE_TRIES comparisons out of one code.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Store } from '../store/store.js';
import { DIGITS, randomString } from './random.js';

export const EMAIL_CODE_LENGTH = 6;
/** Lifetime of a code, seconds. */
export const EMAIL_CODE_TTL = 10 * 60;
/** Wrong tries a code survives; the last one kills it. */
export const MAX_EMAIL_CODE_TRIES = 5;

interface EmailCodeRow {
  readonly id: number;
  readonly appId: number;
  readonly userId: number;
  readonly codeHash: string;
  readonly tries: number;
  readonly used: number;
  readonly createdAt: number;
  readonly expiresAt: number;
}

function hashCode(code: string, salt: string): string {
  return createHash('sha256').update(`${salt}:${code}`).digest('hex');
}

/** `sha256$<salt>$<hash>`: a 6-digit code is guessable offline from a bare hash, less so salted. */
function storedHash(code: string): string {
  const salt = randomBytes(16).toString('hex');
  return `sha256$${salt}$${hashCode(code, salt)}`;
}

function matches(code: string, stored: string): boolean {
  const [scheme, salt, expected] = stored.split('$');
  if (scheme !== 'sha256' || salt === undefined || expected === undefined) return false;
  const actual = Buffer.from(hashCode(code, salt), 'hex');
  const wanted = Buffer.from(expected, 'hex');
  return actual.length === wanted.length && timingSafeEqual(actual, wanted);
}

/** Issues a new code for the user (older unused ones die). Returns the code in clear, for the mail. */
export function issueEmailCode(store: Store, appId: number, userId: number, now: number): { code: string; expiresAt: number } {
  const code = randomString(EMAIL_CODE_LENGTH, DIGITS);
  const expiresAt = now + EMAIL_CODE_TTL;
  store.tx(() => {
    store.run('UPDATE email_codes SET used = 1 WHERE userId = ? AND used = 0', userId);
    store.run('INSERT INTO email_codes (appId, userId, codeHash, tries, used, createdAt, expiresAt) VALUES (?, ?, ?, 0, 0, ?, ?)', appId, userId, storedHash(code), now, expiresAt);
  });
  return { code, expiresAt };
}

/**
 * How a try went:
 * - `match`: the code is right; spend it with `spendEmailCode(codeId)` in the login transaction;
 * - `wrong`: counted; `triesLeft` more are allowed (0: the code is dead now);
 * - `none`: no live code (never sent, spent, or superseded);
 * - `expired`, `exhausted`: the newest code ran out of time / of tries.
 */
export type EmailCodeCheck =
  | { readonly result: 'match'; readonly codeId: number }
  | { readonly result: 'wrong'; readonly triesLeft: number }
  | { readonly result: 'none' | 'expired' | 'exhausted' };

/** Judges one try against the user's newest code (and counts it when wrong). */
export function checkEmailCode(store: Store, userId: number, code: string, now: number): EmailCodeCheck {
  return store.tx(() => {
    const row = store.get<EmailCodeRow>('SELECT * FROM email_codes WHERE userId = ? ORDER BY id DESC LIMIT 1', userId);
    if (row === undefined || row.used) return { result: 'none' };
    if (row.tries >= MAX_EMAIL_CODE_TRIES) return { result: 'exhausted' };
    if (row.expiresAt <= now) return { result: 'expired' };
    if (/^\d{6}$/.test(code) && matches(code, row.codeHash)) return { result: 'match', codeId: row.id };
    store.run('UPDATE email_codes SET tries = tries + 1 WHERE id = ?', row.id);
    return { result: 'wrong', triesLeft: MAX_EMAIL_CODE_TRIES - row.tries - 1 };
  });
}

/** Spends a code found by `checkEmailCode`. False when another request spent it first (or it ran out). */
export function spendEmailCode(store: Store, codeId: number, now: number): boolean {
  return store.run('UPDATE email_codes SET used = 1 WHERE id = ? AND used = 0 AND tries < ? AND expiresAt > ?', codeId, MAX_EMAIL_CODE_TRIES, now).changes === 1;
}
