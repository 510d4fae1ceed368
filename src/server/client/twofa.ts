/**
 * Two-factor authentication: `2faenable` (docs/protocol/client-api.md §4.23) and `2fadisable` (§4.24). TOTP
 * with SHA-1, 6 digits, 30-second steps, one step either side (domain/twofa.ts), checked against
 * real time: the codes come from a real authenticator app, which knows nothing of the sandbox clock.
 *
 * Enabling takes two calls: without `code` the first makes a secret (kept 5 minutes) and answers
 * `{"success":true,"2fa":{"secret_code","QRCode"}}`; with the authenticator's `code` the second
 * turns 2FA on. From then on every login path wants the code.
 *
 * Deliberate departures from the 1.2 source, on both API versions: a wrong code and an expired
 * pending secret answer `success:false` (the source says `success:true`, and a client that
 * believes 2FA got enabled when it did not leaves its user unprotected); `2fadisable` says
 * "disabled" on success (the source's "activated" is a copy-paste slip). The texts are the
 * source's. No 2FA answer carries a nonce, as in the source. On 1.3 the first call's answer also
 * carries a `message` (the C++ SDKs read `message` from every answer); 1.2 keeps the source's
 * bare `{"success":true,"2fa":{…}}`.
 */
import { realNow } from '../domain/clock.js';
import { disable2fa, enable2fa, getPending2fa, newTotpSecret, setPending2fa, totpUri, verifyTotp } from '../domain/twofa.js';
import { reply } from '../dispatch/reply.js';
import { sessionUnauthed, withValidatedSession } from '../dispatch/session-guard.js';
import type { HandlerTable, Reply } from '../dispatch/types.js';
import { sessionUser } from './session-user.js';

export const TWOFA_MESSAGES = {
  alreadyEnabled: '2fa is already enabled on this account',
  expired: '2fa session has expired',
  invalidCode: 'Invalid code please try again',
  enabled: '2fa successfully activated',
  secretMade: 'Confirm 2fa with a code from your authenticator app',
  codeRequired: 'Please provide the 2fa code to disable 2fa',
  notEnabled: '2fa is not enabled on this account',
  disabled: '2fa successfully disabled',
} as const;

function answer(success: boolean, message: string): Reply {
  return reply(success, { message }, { nonce: false });
}

const twofaEnable = withValidatedSession((ctx, params) => {
  const user = sessionUser(ctx);
  if (user === undefined) return sessionUnauthed(ctx);
  if (user.twofaEnabled) return answer(false, TWOFA_MESSAGES.alreadyEnabled);
  const code = params.get('code');
  if (code === undefined) {
    const secret = newTotpSecret();
    setPending2fa(ctx.store, user.id, secret, ctx.now);
    const twofa = { secret_code: secret, QRCode: totpUri(user.username, secret) };
    return reply(true, ctx.api === '1.2' ? { '2fa': twofa } : { message: TWOFA_MESSAGES.secretMade, '2fa': twofa }, { nonce: false });
  }
  const pending = getPending2fa(ctx.store, user.id, ctx.now);
  if (pending === undefined) return answer(false, TWOFA_MESSAGES.expired);
  if (!verifyTotp(pending, code, realNow(ctx.store, ctx.now))) return answer(false, TWOFA_MESSAGES.invalidCode);
  enable2fa(ctx.store, user.id, pending);
  return answer(true, TWOFA_MESSAGES.enabled);
});

const twofaDisable = withValidatedSession((ctx, params) => {
  const user = sessionUser(ctx);
  if (user === undefined) return sessionUnauthed(ctx);
  const code = params.get('code');
  if (code === undefined) return answer(false, TWOFA_MESSAGES.codeRequired);
  if (!user.twofaEnabled || user.twofaSecret === null) return answer(false, TWOFA_MESSAGES.notEnabled);
  if (!verifyTotp(user.twofaSecret, code, realNow(ctx.store, ctx.now))) return answer(false, TWOFA_MESSAGES.invalidCode);
  disable2fa(ctx.store, user.id);
  return answer(true, TWOFA_MESSAGES.disabled);
});

export const twofaHandlers: HandlerTable = { '2faenable': twofaEnable, '2fadisable': twofaDisable };
