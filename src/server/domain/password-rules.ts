/**
 * What a new password must be, wherever an end user picks one: `register` (and `license` on first
 * use), the password-reset page and the customer panel's password change. One rule for all, so a
 * password the panel takes is one the program can register with, and the reverse.
 *
 * Present and not empty (the source would hash an empty password: an account anyone can claim),
 * at most MAX_PASSWORD_LENGTH characters, and not on the leaked list when the app blocks leaked
 * passwords (domain/leaked-passwords.ts).
 */
import type { Store } from '../store/store.js';
import { isLeakedPassword } from './leaked-passwords.js';
import { appMessage } from './messages.js';
import type { AppRow } from './rows.js';

/** Longest password taken: longer than any password manager makes, short of an abuse. */
export const MAX_PASSWORD_LENGTH = 256;

export const PASSWORD_RULE_MESSAGES = {
  missing: 'No password provided',
  tooLong: `Password must be ${MAX_PASSWORD_LENGTH} characters or less`,
} as const;

export type PasswordProblem = { readonly code: 'passwordmissing' | 'passwordtoolong' | 'pwleaked'; readonly message: string };

/** Why `password` may not become a password of `app`'s users; undefined when it may. */
export function newPasswordProblem(store: Store, app: AppRow, password: string | undefined): PasswordProblem | undefined {
  if (password === undefined || password === '') return { code: 'passwordmissing', message: PASSWORD_RULE_MESSAGES.missing };
  if (password.length > MAX_PASSWORD_LENGTH) return { code: 'passwordtoolong', message: PASSWORD_RULE_MESSAGES.tooLong };
  if (app.blockLeakedPasswords && isLeakedPassword(password)) return { code: 'pwleaked', message: appMessage(store, app.id, 'pwLeaked') };
  return undefined;
}
