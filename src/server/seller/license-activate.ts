/**
 * `activate` (docs/protocol/seller-api.md §3.6): create a user from an unused license, with the client
 * register's rules (domain/register.ts), on the seller's behalf.
 *
 * The register rules live in one place, `registerWithKey`, which logs the new user into a
 * session. The seller API has none, so a short-lived session is opened for the registration
 * and ended right after: nothing a client could use outlives the request.
 */
import type { RegisterFailure } from '../domain/register.js';
import { registerWithKey } from '../domain/register.js';
import { createSession, deleteSession } from '../domain/sessions.js';
import type { Params } from '../dispatch/params.js';
import { fail, ok } from '../dispatch/reply.js';
import type { HandlerContext, Reply } from '../dispatch/types.js';
import { checkedParams } from './checked-params.js';

/** The seller API's own wording of the register refusals (the client's come from app messages). */
const ACTIVATE_MESSAGES: Partial<Record<RegisterFailure, string>> = {
  usernametaken: 'Username Already Exists.',
  keynotfound: 'Key Not Found.',
  keyused: 'Key Already Used.',
  keybanned: 'Your license is banned.',
  hwidblacked: 'HWID is blacklisted',
  nosublevel: 'No active subscriptions found.',
};

/**
 * Success is `{"success":true,"message":"Logged in!","info":{username, subscriptions, ip}}`
 * (D23's shape; E nests the whole register result inside `info.subscriptions`, a quirk not
 * copied). Each subscription carries the register fields: subscription, key, expiry, timeleft.
 */
export async function activateLicense(ctx: HandlerContext, params: Params): Promise<Reply> {
  const p = checkedParams(params, 'activate', { required: ['user', 'pass', 'key'], optional: ['hwid'] });
  const session = createSession(ctx.store, ctx.app, { ip: ctx.ip, api: '1.3' }, ctx.now);
  try {
    const result = await registerWithKey(ctx.store, ctx.app, session, {
      username: p.user,
      pass: p.pass,
      key: p.key,
      hwid: p.hwid,
      ip: ctx.ip,
    }, ctx.now);
    if (!result.ok) return fail(ACTIVATE_MESSAGES[result.code] ?? result.message);
    const { info } = result.value;
    return ok('Logged in!', { info: { username: info.username, subscriptions: info.subscriptions, ip: info.ip } });
  } finally {
    deleteSession(ctx.store, ctx.app.id, session.id);
  }
}
