/**
 * The user's own account: `changeUsername` (docs/protocol/client-api.md §4.21) and `forgot` (§4.22).
 *
 * `changeUsername` renames the user (subscriptions, variables, chat authorship, license
 * `usedby` and other sessions follow) and ends this session. A new name is held to the
 * register rules (app minimum length, 70 characters at most).
 *
 * `forgot` puts a `password-reset` mail in the outbox with a link to the sandbox's reset page
 * (`/sandbox/reset/<secret>`, 24 hours), where the user really sets a new password.
 */
import { appMessage } from '../domain/messages.js';
import { FORGOT_MESSAGES, passwordResetMail, requestPasswordReset } from '../domain/password-resets.js';
import { MAX_USERNAME_LENGTH } from '../domain/register.js';
import { deleteSession } from '../domain/sessions.js';
import { renameUser } from '../domain/users.js';
import { because, fail, ok } from '../dispatch/reply.js';
import { sessionUnauthed, withSession, withValidatedSession } from '../dispatch/session-guard.js';
import type { HandlerTable } from '../dispatch/types.js';

export const ACCOUNT_MESSAGES = {
  usernameTooLong: `Username must be shorter than ${MAX_USERNAME_LENGTH} characters`,
  usernameTaken: 'Username already used!',
  renamed: 'Successfully changed username, user logged out.',
} as const;

const changeUsername = withValidatedSession((ctx, params) => {
  const from = ctx.session.credential;
  if (from === null) return sessionUnauthed(ctx);
  const to = params.get('newUsername') ?? '';
  if (to.length > MAX_USERNAME_LENGTH) return because(fail(ACCOUNT_MESSAGES.usernameTooLong), `the new username is ${to.length} characters; at most ${MAX_USERNAME_LENGTH}`);
  if (to.length < Math.max(1, ctx.app.minUsernameLength)) {
    return because(fail(appMessage(ctx.store, ctx.app.id, 'unTooShort')), to === '' ? 'no newUsername was sent' : `the new username is ${to.length} characters; the app wants at least ${ctx.app.minUsernameLength}`);
  }
  return ctx.store.tx(() => {
    const renamed = renameUser(ctx.store, ctx.app.id, from, to);
    if (!renamed.ok) return renamed.code === 'taken' ? because(fail(ACCOUNT_MESSAGES.usernameTaken), `username ${to} is taken`) : sessionUnauthed(ctx);
    deleteSession(ctx.store, ctx.app.id, ctx.session.id);
    return ok(ACCOUNT_MESSAGES.renamed);
  });
});

const forgot = withSession((ctx, params) => {
  const email = params.get('email');
  const result = requestPasswordReset(ctx.store, ctx.app.id, { username: params.get('username'), email }, ctx.now);
  if (!result.ok) return fail(result.message);
  ctx.outbox.send(passwordResetMail(result.value, ctx.app.name, email ?? '', ctx.baseUrl));
  return ok(FORGOT_MESSAGES.sent);
});

export const accountHandlers: HandlerTable = { changeUsername, forgot };
