/**
 * Magic links: `magicLinkSend` (email, hwid) and `magicLinkCheck` (docs/design.md; no public source
 * describes them, so the messages below are ours).
 *
 * Send finds the user by email, stores a single-use link bound to this session and the HWID
 * sent (15 minutes), and mails `<baseUrl>/sandbox/magic/<token>` to the outbox (kind
 * `magic-link`). The page there lets the user approve or refuse the login (client/magic-link-page.ts).
 *
 * Check polls the session's newest link. Failures carry a `status` a client can loop on:
 *   pending  → `Magic link not approved yet`        (keep polling)
 *   expired  → `Magic link expired`                 (past 15 minutes, superseded, or refused)
 *   used     → `Magic link already used`
 *   none     → `No magic link was sent for this session`
 * Approved → the login answer (`info`, session validated) after the full login pipeline for
 * the link's user: ban, blacklist, HWID lock with the HWID given at send, subscriptions, and
 * 2FA — a user with 2FA sends the authenticator's `code` with the check (a magic link proves
 * the mailbox, not the second factor). The link is spent only by a login that succeeds, so a
 * check refused for a missing 2FA code can be repeated with the code.
 */
import { loginUser } from '../domain/login.js';
import { consumeMagicLink, createMagicLink, latestMagicLinkOfSession, MAGIC_LINK_TTL, magicLinkPath, magicLinkState } from '../domain/magic-links.js';
import { getUserById } from '../domain/users.js';
import { clockNote } from '../domain/shown.js';
import { because, fail, ok } from '../dispatch/reply.js';
import { withSession } from '../dispatch/session-guard.js';
import type { HandlerTable } from '../dispatch/types.js';
import { userByEmail } from './email-user.js';
import { loginAnswer } from './login-answer.js';
import { refuseMailedLogin } from './login-precheck.js';

export const MAGIC_LINK_MESSAGES = {
  sent: 'Magic link sent',
  pending: 'Magic link not approved yet',
  expired: 'Magic link expired',
  used: 'Magic link already used',
  none: 'No magic link was sent for this session',
} as const;

const magicLinkSend = withSession((ctx, params) => {
  const email = params.get('email');
  const found = userByEmail(ctx, email);
  if ('reply' in found) return found.reply;
  const hwid = params.get('hwid');
  const refused = refuseMailedLogin(ctx, found.user, hwid);
  if (refused) return refused;

  const link = createMagicLink(ctx.store, { appId: ctx.app.id, userId: found.user.id, sessionId: ctx.session.id, hwid }, ctx.now);
  const url = `${ctx.baseUrl}${magicLinkPath(link.token)}`;
  ctx.outbox.send({
    kind: 'magic-link',
    to: email ?? '',
    subject: `Sign in to ${ctx.app.name}`,
    text:
      `Someone is signing in to ${ctx.app.name} as ${found.user.username}.\n\n` +
      `Open this link within ${MAGIC_LINK_TTL / 60} minutes and approve the login:\n${url}\n\n` +
      `The link works once. If it was not you, refuse the login on that page or ignore this email.`,
    link: url,
    data: { token: link.token, username: found.user.username, expiresAt: link.expiresAt },
  });
  return ok(MAGIC_LINK_MESSAGES.sent);
});

const magicLinkCheck = withSession(async (ctx, params) => {
  const link = latestMagicLinkOfSession(ctx.store, ctx.app.id, ctx.session.id);
  if (link === undefined) return because(fail(MAGIC_LINK_MESSAGES.none, { status: 'none' }), 'this session sent no magic link');
  const state = magicLinkState(link, ctx.now);
  if (state !== 'approved') return because(fail(MAGIC_LINK_MESSAGES[state], { status: state }), `the magic link of this session is ${state}${state === 'expired' ? clockNote(ctx.store) : ''}`);
  // Deleting a user deletes their links, so the user is there; a rename is followed by id.
  const user = getUserById(ctx.store, link.userId);
  if (user === undefined) return because(fail(MAGIC_LINK_MESSAGES.expired, { status: 'expired' }), "the magic link's user is gone");

  const result = await loginUser(ctx.store, ctx.app, ctx.session, {
    username: user.username,
    credential: { kind: 'verified' },
    hwid: link.hwid ?? undefined,
    code: params.get('code'),
    ip: ctx.ip,
    consume: () => (consumeMagicLink(ctx.store, link.token, ctx.now) ? undefined : MAGIC_LINK_MESSAGES.used),
  }, ctx.now);
  return loginAnswer(ctx, result);
});

export const magicLinkHandlers: HandlerTable = { magicLinkSend, magicLinkCheck };
