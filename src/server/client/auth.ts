/**
 * Logging in and redeeming licenses: `login` (docs/protocol/client-api.md §4.2), `loginEmail` (§4.3),
 * `register` (§4.4), `license` (§4.5), `upgrade` (§4.6). The rules live in the domain layer
 * (login.ts, register.ts, upgrade.ts); these handlers only read the parameters and word the answer.
 */
import { loginUser, type LoginCredential } from '../domain/login.js';
import { licenseLogin, registerWithKey } from '../domain/register.js';
import { upgradeUser } from '../domain/upgrade.js';
import type { Params } from '../dispatch/params.js';
import { because, ok, refusal } from '../dispatch/reply.js';
import { withSession } from '../dispatch/session-guard.js';
import type { HandlerTable } from '../dispatch/types.js';
import { userByEmail } from './email-user.js';
import { loginAnswer } from './login-answer.js';

/** The password, or the web loader's `token` in its place (§4.29). */
function credentialOf(params: Params): LoginCredential {
  const token = params.get('token');
  return token !== undefined ? { kind: 'token', token } : { kind: 'password', pass: params.get('pass') };
}

/** `login`: username + password (or web-loader token), HWID, 2FA `code`. */
const login = withSession(async (ctx, params) => {
  const result = await loginUser(ctx.store, ctx.app, ctx.session, {
    username: params.get('username'),
    credential: credentialOf(params),
    hwid: params.get('hwid'),
    code: params.get('code'),
    ip: ctx.ip,
  }, ctx.now);
  return loginAnswer(ctx, result);
});

/**
 * `loginEmail`: the login pipeline for the user whose stored email hash matches `email`, from
 * the ban check on (HWID rules included: an app that forces HWIDs forces them here too).
 */
const loginEmail = withSession(async (ctx, params) => {
  const found = userByEmail(ctx, params.get('email'));
  if ('reply' in found) return found.reply;
  const result = await loginUser(ctx.store, ctx.app, ctx.session, {
    username: found.user.username,
    credential: { kind: 'password', pass: params.get('pass') },
    hwid: params.get('hwid'),
    code: params.get('code'),
    ip: ctx.ip,
  }, ctx.now);
  return loginAnswer(ctx, result);
});

/** `register`: a new account redeemed with an unused key; answers as a login with `info`. */
const register = withSession(async (ctx, params) => {
  const result = await registerWithKey(ctx.store, ctx.app, ctx.session, {
    username: params.get('username'),
    pass: params.get('pass'),
    key: params.get('key'),
    email: params.get('email'),
    hwid: params.get('hwid'),
    ip: ctx.ip,
  }, ctx.now);
  return loginAnswer(ctx, result);
});

/** `license`: the key alone; registers its user on first use, logs in afterwards. */
const license = withSession(async (ctx, params) => {
  const result = await licenseLogin(ctx.store, ctx.app, ctx.session, { key: params.get('key'), hwid: params.get('hwid'), code: params.get('code'), ip: ctx.ip }, ctx.now);
  return loginAnswer(ctx, result);
});

/**
 * `upgrade`: redeems a key onto a named user. No password is checked and nobody is logged in:
 * the session stays as it was (unvalidated if it was).
 */
const upgrade = withSession((ctx, params) => {
  const result = upgradeUser(ctx.store, ctx.app, { username: params.get('username'), key: params.get('key') }, ctx.now);
  return result.ok ? because(ok(result.value.message), result) : refusal(result);
});

export const authHandlers: HandlerTable = { login, loginEmail, register, license, upgrade };
