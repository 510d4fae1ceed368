/**
 * Minimal login / register / license / upgrade handlers over the domain layer, registered only
 * in tests (`startTestSandbox({ handlers: { client: testLoginHandlers } })`) so these tests can
 * validate sessions over HTTP before the real client handlers exist. They also show the handler
 * contract: a few lines over one domain call each.
 */
import { loginUser } from '../../../src/server/domain/login.js';
import { licenseLogin, registerWithKey } from '../../../src/server/domain/register.js';
import { upgradeUser } from '../../../src/server/domain/upgrade.js';
import { fail, ok } from '../../../src/server/dispatch/reply.js';
import { withSession } from '../../../src/server/dispatch/session-guard.js';
import type { HandlerTable } from '../../../src/server/dispatch/types.js';

export const testLoginHandlers: HandlerTable = {
  login: withSession(async (ctx, params) => {
    const result = await loginUser(ctx.store, ctx.app, ctx.session, {
      username: params.get('username'),
      credential: { kind: 'password', pass: params.get('pass') },
      hwid: params.get('hwid'),
      code: params.get('code'),
      ip: ctx.ip,
    }, ctx.now);
    return result.ok ? ok(result.value.message, { info: result.value.info }) : fail(result.message);
  }),
  register: withSession(async (ctx, params) => {
    const result = await registerWithKey(ctx.store, ctx.app, ctx.session, {
      username: params.get('username'),
      pass: params.get('pass'),
      key: params.get('key'),
      email: params.get('email'),
      hwid: params.get('hwid'),
      ip: ctx.ip,
    }, ctx.now);
    return result.ok ? ok(result.value.message, { info: result.value.info }) : fail(result.message);
  }),
  license: withSession(async (ctx, params) => {
    const result = await licenseLogin(ctx.store, ctx.app, ctx.session, { key: params.get('key'), hwid: params.get('hwid'), code: params.get('code'), ip: ctx.ip }, ctx.now);
    return result.ok ? ok(result.value.message, { info: result.value.info }) : fail(result.message);
  }),
  upgrade: withSession((ctx, params) => {
    const result = upgradeUser(ctx.store, ctx.app, { username: params.get('username'), key: params.get('key') }, ctx.now);
    return result.ok ? ok(result.value.message) : fail(result.message);
  }),
};
