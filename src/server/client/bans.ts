/**
 * `ban` (docs/protocol/client-api.md §4.10) and `checkblacklist` (§4.9).
 *
 * `ban` bans the session's user and blacklists the HWID sent and the caller's IP (never a
 * loopback IP: docs/design.md, "Bans and loopback"); the session lives on. It answers
 * `Successfully Banned User` on both API versions: the source's "Failed to ban user." after a
 * ban that worked tests the wrong variable (§8 #21), and it was never captured as behaviour.
 *
 * `checkblacklist` keeps the real service's inverted meaning on both versions, because every
 * client depends on it: `success:true` = blacklisted, `success:false` = not blacklisted.
 */
import { banUser } from '../domain/bans.js';
import { isBlacklisted } from '../domain/blacklists.js';
import { fail, ok } from '../dispatch/reply.js';
import { sessionUnauthed, withSession, withValidatedSession } from '../dispatch/session-guard.js';
import type { HandlerTable } from '../dispatch/types.js';

export const BAN_REASON_MAX = 99;
export const DEFAULT_BAN_REASON = 'User banned from triggering ban function in the client';

export const BAN_MESSAGES = {
  reasonTooLong: `Reason must be ${BAN_REASON_MAX} characters or less`,
  banned: 'Successfully Banned User',
  blacklisted: 'Client is blacklisted',
  notBlacklisted: 'Client is not blacklisted',
} as const;

const ban = withValidatedSession((ctx, params) => {
  const reason = params.get('reason') ?? DEFAULT_BAN_REASON;
  if (reason.length > BAN_REASON_MAX) return fail(BAN_MESSAGES.reasonTooLong);
  const credential = ctx.session.credential;
  const banned = credential === null ? undefined : banUser(ctx.store, ctx.app.id, credential, reason, { hwid: params.get('hwid'), ip: ctx.ip });
  return banned === undefined ? sessionUnauthed(ctx) : ok(BAN_MESSAGES.banned);
});

const checkblacklist = withSession((ctx, params) =>
  isBlacklisted(ctx.store, ctx.app.id, { hwid: params.get('hwid'), ip: ctx.ip }) ? ok(BAN_MESSAGES.blacklisted) : fail(BAN_MESSAGES.notBlacklisted),
);

export const banHandlers: HandlerTable = { ban, checkblacklist };
