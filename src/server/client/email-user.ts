/**
 * Finding the user of an email address, for the paths that start from one (loginEmail,
 * magicLinkSend, emailCodeSend, emailCodeVerify). Emails are stored only as SHA-1 hashes, so
 * this is a hash lookup.
 *
 * An unknown address is said plainly (`No user found with that email`), in the explicit style of
 * the real service (`forgot`: "No user found with that username!"): the sandbox is for testers
 * rehearsing their flows, and hiding whether an account exists would only hide their mistakes.
 */
import type { UserRow } from '../domain/rows.js';
import { findUserByEmail } from '../domain/users.js';
import { because, fail } from '../dispatch/reply.js';
import type { HandlerContext, Reply } from '../dispatch/types.js';

export const EMAIL_USER_MESSAGES = {
  missing: 'No email provided',
  unknown: 'No user found with that email',
} as const;

export function userByEmail(ctx: HandlerContext, email: string | undefined): { user: UserRow } | { reply: Reply } {
  if (email === undefined) return { reply: because(fail(EMAIL_USER_MESSAGES.missing), 'no email was sent') };
  const user = findUserByEmail(ctx.store, ctx.app.id, email);
  return user === undefined ? { reply: because(fail(EMAIL_USER_MESSAGES.unknown), `no user of the app has the email ${email}`) } : { user };
}
