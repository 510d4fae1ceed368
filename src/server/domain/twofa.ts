/**
 * Two-factor authentication: TOTP (RFC 6238) with HMAC-SHA1, 6 digits, 30-second steps
 * (docs/protocol/client-api.md §4.26), secrets of 40 base32 characters. The login check accepts the current
 * step and one step either side.
 */
import { Secret, TOTP } from 'otpauth';
import type { Store } from '../store/store.js';

export const TOTP_DIGITS = 6;
export const TOTP_PERIOD = 30;
/** Steps accepted either side of now at login. */
export const LOGIN_TOTP_WINDOW = 1;
/** How long a secret from the first `2faenable` call waits for its code. */
export const PENDING_2FA_TTL = 300;

/** A fresh secret: 25 random bytes as 40 base32 characters, no padding. */
export function newTotpSecret(): string {
  return new Secret({ size: 25 }).base32;
}

/** The `QRCode` value of `2faenable`: username not URL-encoded, as the real server. */
export function totpUri(username: string, secret: string): string {
  return `otpauth://totp/${username}?secret=${secret}&issuer=KeyAuth`;
}

function totp(secret: string): TOTP {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD });
}

/** The code an authenticator shows for `secret` at Unix second `now` (tests, tools). */
export function totpCode(secret: string, now: number): string {
  return totp(secret).generate({ timestamp: now * 1000 });
}

/** Whether `code` is valid for `secret` at `now`, within ±`window` steps. */
export function verifyTotp(secret: string, code: string, now: number, window: number = LOGIN_TOTP_WINDOW): boolean {
  if (!/^\d{6}$/.test(code)) return false;
  try {
    return totp(secret).validate({ token: code, timestamp: now * 1000, window }) !== null;
  } catch {
    return false;
  }
}

/** Keeps `secret` waiting for the user's confirming code until `now + PENDING_2FA_TTL`. */
export function setPending2fa(store: Store, userId: number, secret: string, now: number): void {
  store.run(
    'INSERT INTO pending_2fa (userId, secret, expiresAt) VALUES (?, ?, ?) ON CONFLICT (userId) DO UPDATE SET secret = excluded.secret, expiresAt = excluded.expiresAt',
    userId, secret, now + PENDING_2FA_TTL,
  );
}

/** The user's pending secret if it has not expired. */
export function getPending2fa(store: Store, userId: number, now: number): string | undefined {
  return store.get<{ secret: string }>('SELECT secret FROM pending_2fa WHERE userId = ? AND expiresAt > ?', userId, now)?.secret;
}

/** Turns 2FA on with `secret` and drops the pending one. */
export function enable2fa(store: Store, userId: number, secret: string): void {
  store.tx(() => {
    store.run('UPDATE users SET twofaSecret = ?, twofaEnabled = 1 WHERE id = ?', secret, userId);
    store.run('DELETE FROM pending_2fa WHERE userId = ?', userId);
  });
}

/** Turns 2FA off and forgets the secret. */
export function disable2fa(store: Store, userId: number): void {
  store.run('UPDATE users SET twofaSecret = NULL, twofaEnabled = 0 WHERE id = ?', userId);
}
