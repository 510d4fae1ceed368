/**
 * Password resets (client `forgot`, docs/protocol/client-api.md §4.22): a 32-hex secret valid 24 hours, mailed
 * as a link to a sandbox page where the user picks a new password. Using it sets the password,
 * spends it (and any other open reset of the user) and ends the user's sessions (whoever held the
 * old password is logged out).
 */
import type { Store } from '../store/store.js';
import type { NewOutboxMessage } from './outbox.js';
import { failure, success, type Outcome } from './outcome.js';
import { randomHex } from './random.js';
import { deleteSessionsOf } from './sessions.js';
import { findUser, hashEmail, setUserPassword } from './users.js';

/** Lifetime of a reset link, seconds. */
export const PASSWORD_RESET_TTL = 24 * 3600;

export const FORGOT_MESSAGES = {
  userNotFound: 'No user found with that username!',
  noEmail: 'Email address not provided during register, ask developer to edit your account and change email.',
  emailMismatch: "Email address doesn't match!",
  sent: 'Successfully sent email to change password.',
} as const;

export interface PasswordResetRow {
  readonly secret: string;
  readonly appId: number;
  readonly emailHash: string;
  readonly username: string;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly used: number;
}

/** The path of a reset's page on the sandbox. */
export function passwordResetPath(secret: string): string {
  return `/sandbox/reset/${secret}`;
}

/**
 * The mail a reset sends (to the outbox), whoever asked for it: the client API's `forgot` or the
 * customer panel's "Forgot password?". `baseUrl` is the sandbox's, where the reset page is.
 */
export function passwordResetMail(reset: PasswordResetRow, appName: string, email: string, baseUrl: string): NewOutboxMessage {
  const link = `${baseUrl}${passwordResetPath(reset.secret)}`;
  return {
    kind: 'password-reset',
    to: email,
    subject: `Reset your ${appName} password`,
    text:
      `Someone asked to reset the password of ${reset.username} on ${appName}.\n\n` +
      `Open this link within ${PASSWORD_RESET_TTL / 3600} hours to choose a new password:\n${link}\n\n` +
      `If it was not you, ignore this email: your password stays as it is.`,
    link,
    data: { secret: reset.secret, username: reset.username, expiresAt: reset.expiresAt },
  };
}

export type ForgotFailure = 'usernamenotfound' | 'noemail' | 'emailmismatch';

/**
 * `forgot`: checks, in the source's order, that the user exists, has an email, and that
 * `email` is it; then stores a new reset. Returns the reset (its secret goes in the mail).
 */
export function requestPasswordReset(store: Store, appId: number, input: { username: string | undefined; email: string | undefined }, now: number): Outcome<PasswordResetRow, ForgotFailure> {
  return store.tx(() => {
    const user = input.username === undefined ? undefined : findUser(store, appId, input.username);
    if (user === undefined) return failure('usernamenotfound', FORGOT_MESSAGES.userNotFound);
    if (user.emailHash === null) return failure('noemail', FORGOT_MESSAGES.noEmail);
    if (input.email === undefined || hashEmail(input.email) !== user.emailHash) return failure('emailmismatch', FORGOT_MESSAGES.emailMismatch);
    const secret = randomHex(16);
    store.run(
      'INSERT INTO password_resets (secret, appId, emailHash, username, createdAt, expiresAt, used) VALUES (?, ?, ?, ?, ?, ?, 0)',
      secret, appId, user.emailHash, user.username, now, now + PASSWORD_RESET_TTL,
    );
    const row = findPasswordReset(store, secret);
    if (row === undefined) throw new Error('Password reset vanished right after its insert');
    return success(row);
  });
}

export function findPasswordReset(store: Store, secret: string): PasswordResetRow | undefined {
  return store.get<PasswordResetRow>('SELECT * FROM password_resets WHERE secret = ?', secret);
}

export type PasswordResetState = 'valid' | 'used' | 'expired';

export function passwordResetState(row: PasswordResetRow, now: number): PasswordResetState {
  if (row.used) return 'used';
  return row.expiresAt <= now ? 'expired' : 'valid';
}

export type ResetFailure = 'notfound' | 'used' | 'expired' | 'usergone';

/**
 * Sets the user's password from a valid reset (hash it before: this runs in one transaction),
 * spends the reset and ends the user's sessions.
 */
export function completePasswordReset(store: Store, secret: string, passwordHash: string, now: number): Outcome<{ username: string }, ResetFailure> {
  return store.tx(() => {
    const row = findPasswordReset(store, secret);
    if (row === undefined) return failure('notfound', 'This reset link is not valid.');
    const state = passwordResetState(row, now);
    if (state === 'used') return failure('used', 'This reset link has already been used.');
    if (state === 'expired') return failure('expired', 'This reset link has expired. Ask for a new one from the application.');
    const user = findUser(store, row.appId, row.username);
    if (user === undefined) return failure('usergone', 'The account this link was for no longer exists.');
    setUserPassword(store, user.id, passwordHash);
    // Every open reset of the user is spent: a second link must not undo the new password.
    store.run('UPDATE password_resets SET used = 1 WHERE appId = ? AND username = ?', row.appId, user.username);
    deleteSessionsOf(store, row.appId, user.username);
    return success({ username: user.username });
  });
}
