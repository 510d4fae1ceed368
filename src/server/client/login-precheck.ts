/**
 * The checks made before mailing a login (magic link, email code): the HWID rules, a banned
 * user, a blacklisted HWID or IP. Sending a mail for a login that cannot succeed only wastes the
 * tester's time; the full login pipeline still runs when the link or code is used.
 */
import { whyBlacklisted } from '../domain/blacklists.js';
import { checkHwidRules } from '../domain/login.js';
import { appMessage } from '../domain/messages.js';
import type { UserRow } from '../domain/rows.js';
import { because, fail, refusal } from '../dispatch/reply.js';
import type { HandlerContext, Reply } from '../dispatch/types.js';

export function refuseMailedLogin(ctx: HandlerContext, user: UserRow, hwid: string | undefined): Reply | undefined {
  const hwidRule = checkHwidRules(ctx.app, hwid);
  if (hwidRule) return refusal(hwidRule);
  if (user.banned !== null) return because(fail(appMessage(ctx.store, ctx.app.id, 'userbanned', user.banned)), { reason: `${user.username} is banned: ${user.banned}`, user: user.username });
  const blacklisted = whyBlacklisted(ctx.store, ctx.app.id, { hwid, ip: ctx.ip });
  if (blacklisted !== undefined) return because(fail(appMessage(ctx.store, ctx.app.id, 'hwidblacked')), { reason: blacklisted, user: user.username });
  return undefined;
}
