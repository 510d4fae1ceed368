/**
 * The checks made before mailing a login (magic link, email code): the HWID rules, a banned
 * user, a blacklisted HWID or IP. Sending a mail for a login that cannot succeed only wastes the
 * tester's time; the full login pipeline still runs when the link or code is used.
 */
import { isBlacklisted } from '../domain/blacklists.js';
import { checkHwidRules } from '../domain/login.js';
import { appMessage } from '../domain/messages.js';
import type { UserRow } from '../domain/rows.js';
import { fail } from '../dispatch/reply.js';
import type { HandlerContext, Reply } from '../dispatch/types.js';

export function refuseMailedLogin(ctx: HandlerContext, user: UserRow, hwid: string | undefined): Reply | undefined {
  const hwidRule = checkHwidRules(ctx.app, hwid);
  if (hwidRule) return fail(hwidRule.message);
  if (user.banned !== null) return fail(appMessage(ctx.store, ctx.app.id, 'userbanned', user.banned));
  if (isBlacklisted(ctx.store, ctx.app.id, { hwid, ip: ctx.ip })) return fail(appMessage(ctx.store, ctx.app.id, 'hwidblacked'));
  return undefined;
}
