/**
 * What every login path answers (login, loginEmail, license, register, magicLinkCheck,
 * emailCodeVerify): `{"success":true,"message":<loggedInMsg>,"info":{…},"nonce":…}`, or the
 * refusal's message.
 *
 * `info` comes in the shape of the path that made it (login variant, register variant) on 1.2,
 * byte for byte as the source; on 1.3 every subscription item carries `level` (see
 * domain/user-info.ts `withLevels`).
 */
import type { LoginResult } from '../domain/login.js';
import type { Outcome } from '../domain/outcome.js';
import { withLevels } from '../domain/user-info.js';
import { because, ok, refusal } from '../dispatch/reply.js';
import type { HandlerContext, Reply } from '../dispatch/types.js';

export function loginAnswer(ctx: HandlerContext, outcome: Outcome<LoginResult>): Reply {
  if (!outcome.ok) return refusal(outcome);
  const { info, message } = outcome.value;
  return because(ok(message, { info: ctx.api === '1.2' ? info : withLevels(ctx.store, ctx.app.id, info) }), outcome);
}
