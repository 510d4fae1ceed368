/**
 * Email one-time codes: `emailCodeSend` (email, hwid) and `emailCodeVerify` (email, code, hwid)
 * (docs/design.md; no public source describes them, so the messages below are ours).
 *
 * Send finds the user by email and mails a fresh 6-digit code (10 minutes; a newer code kills
 * older ones) to the outbox (kind `email-code`). Verify checks it (5 wrong tries kill it), then
 * runs the login pipeline minus the password: ban, blacklist, HWID rules and lock with the
 * `hwid` sent to verify, subscriptions, 2FA. `code` is the email code here, so a user with 2FA
 * sends the authenticator's code as `totp`. The code is spent only by a login that succeeds.
 */
import { checkEmailCode, EMAIL_CODE_TTL, issueEmailCode, MAX_EMAIL_CODE_TRIES, spendEmailCode } from '../domain/email-codes.js';
import { loginUser } from '../domain/login.js';
import { clockNote } from '../domain/shown.js';
import { because, fail, ok } from '../dispatch/reply.js';
import { withSession } from '../dispatch/session-guard.js';
import type { HandlerTable } from '../dispatch/types.js';
import { userByEmail } from './email-user.js';
import { loginAnswer } from './login-answer.js';
import { refuseMailedLogin } from './login-precheck.js';

export const EMAIL_CODE_MESSAGES = {
  sent: 'Email code sent',
  noCode: 'No code provided',
  none: 'No email code pending, request a new one',
  expired: 'Email code expired, request a new one',
  exhausted: 'Too many wrong codes, request a new one',
  wrong: 'Invalid email code',
  wrongLast: 'Invalid email code. Too many wrong codes, request a new one',
  used: 'Email code already used',
} as const;

const emailCodeSend = withSession((ctx, params) => {
  const email = params.get('email');
  const found = userByEmail(ctx, email);
  if ('reply' in found) return found.reply;
  const refused = refuseMailedLogin(ctx, found.user, params.get('hwid'));
  if (refused) return refused;

  const { code, expiresAt } = issueEmailCode(ctx.store, ctx.app.id, found.user.id, ctx.now);
  ctx.outbox.send({
    kind: 'email-code',
    to: email ?? '',
    subject: `Your ${ctx.app.name} sign-in code: ${code}`,
    text:
      `Your one-time code to sign in to ${ctx.app.name} as ${found.user.username} is ${code}.\n\n` +
      `It works once, for ${EMAIL_CODE_TTL / 60} minutes, and dies after ${MAX_EMAIL_CODE_TRIES} wrong tries. ` +
      `If you did not ask for it, ignore this email.`,
    data: { code, username: found.user.username, expiresAt },
  });
  return ok(EMAIL_CODE_MESSAGES.sent);
});

const EMAIL_CODE_STATES = { none: 'not there (none was sent, or it was used)', expired: 'expired', exhausted: 'spent by too many wrong tries' } as const;

const emailCodeVerify = withSession(async (ctx, params) => {
  const found = userByEmail(ctx, params.get('email'));
  if ('reply' in found) return found.reply;
  const code = params.get('code');
  const who = found.user.username;
  if (code === undefined) return because(fail(EMAIL_CODE_MESSAGES.noCode), { reason: 'no code was sent', user: who });

  const check = checkEmailCode(ctx.store, found.user.id, code, ctx.now);
  switch (check.result) {
    case 'none':
    case 'expired':
    case 'exhausted':
      return because(fail(EMAIL_CODE_MESSAGES[check.result]), { reason: `the emailed code of ${who} is ${EMAIL_CODE_STATES[check.result]}${clockNote(ctx.store)}`, user: who });
    case 'wrong':
      return because(fail(check.triesLeft > 0 ? EMAIL_CODE_MESSAGES.wrong : EMAIL_CODE_MESSAGES.wrongLast), { reason: `wrong emailed code for ${who}; ${check.triesLeft} tries left`, user: who });
    case 'match':
      break;
  }
  const result = await loginUser(ctx.store, ctx.app, ctx.session, {
    username: found.user.username,
    credential: { kind: 'verified' },
    hwid: params.get('hwid'),
    code: params.get('totp'),
    ip: ctx.ip,
    consume: () => (spendEmailCode(ctx.store, check.codeId, ctx.now) ? undefined : EMAIL_CODE_MESSAGES.used),
  }, ctx.now);
  return loginAnswer(ctx, result);
});

export const emailCodeHandlers: HandlerTable = { emailCodeSend, emailCodeVerify };
