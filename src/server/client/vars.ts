/**
 * Variables: `var` (global, docs/protocol/client-api.md §4.11), `getvar` and `setvar` (per user, §4.12–4.13).
 *
 * `setvar`'s input errors (no name, no data, data over 500 characters) answer `success:true`
 * with no nonce on /api/1.2/, exactly as the source does (captured); on /api/1.3/ they are
 * `success:false` with the same texts. A name over 99 characters is refused on both (the
 * source leaves it to its database column).
 */
import { findGlobalVar } from '../domain/global-vars.js';
import { getUserVar, setUserVar, USER_VAR_DATA_MAX, USER_VAR_NAME_MAX } from '../domain/user-vars.js';
import { because, fail, ok, reply } from '../dispatch/reply.js';
import { sessionUnauthed, withSession, withValidatedSession } from '../dispatch/session-guard.js';
import type { HandlerContext, HandlerTable, Reply } from '../dispatch/types.js';
import { sessionUser } from './session-user.js';

export const VAR_MESSAGES = {
  globalNotFound: 'Variable not found.',
  userNotFound: 'Variable not found for user',
  retrieved: 'Successfully retrieved variable',
  noName: 'No variable name provided',
  noData: 'No variable data provided',
  dataTooLong: `Variable data must be ${USER_VAR_DATA_MAX} characters or less`,
  nameTooLong: `Variable name must be ${USER_VAR_NAME_MAX} characters or less`,
  readOnly: 'Variable is read only',
  set: 'Successfully set variable',
} as const;

/** `var`: the value comes back in `message`. A variable marked authed needs a logged-in session. */
const globalVar = withSession((ctx, params) => {
  const varid = params.get('varid');
  const row = varid === undefined ? undefined : findGlobalVar(ctx.store, ctx.app.id, varid);
  if (row === undefined) return because(fail(VAR_MESSAGES.globalNotFound), varid === undefined ? 'no varid was sent' : `the app has no variable ${varid}`);
  if (row.authed && !ctx.session.validated) return sessionUnauthed(ctx, `variable ${row.varid} needs a logged-in session`);
  return ok(row.msg);
});

/** `getvar`: the value comes back in `response`. */
const getvar = withValidatedSession((ctx, params) => {
  const user = sessionUser(ctx);
  if (user === undefined) return sessionUnauthed(ctx);
  const name = params.get('var');
  const row = name === undefined ? undefined : getUserVar(ctx.store, user.id, name);
  if (row === undefined) return because(fail(VAR_MESSAGES.userNotFound), name === undefined ? 'no var was sent' : `${user.username} has no variable ${name}`);
  return ok(VAR_MESSAGES.retrieved, { response: row.data });
});

/** The source's input errors: `success:true`, no nonce, on 1.2; plain failures on 1.3. */
function inputError(ctx: HandlerContext, message: string): Reply {
  return ctx.api === '1.2' ? reply(true, { message }, { nonce: false }) : fail(message);
}

const setvar = withValidatedSession((ctx, params) => {
  const user = sessionUser(ctx);
  if (user === undefined) return sessionUnauthed(ctx);
  const name = params.get('var');
  const data = params.get('data');
  if (name === undefined) return inputError(ctx, VAR_MESSAGES.noName);
  if (data === undefined) return inputError(ctx, VAR_MESSAGES.noData);
  if (data.length > USER_VAR_DATA_MAX) return inputError(ctx, VAR_MESSAGES.dataTooLong);
  if (name.length > USER_VAR_NAME_MAX) return fail(VAR_MESSAGES.nameTooLong);
  const result = setUserVar(ctx.store, ctx.app.id, user.id, name, data, { respectReadOnly: true });
  return result === 'readonly' ? because(fail(VAR_MESSAGES.readOnly), `variable ${name} of ${user.username} is read-only`) : ok(VAR_MESSAGES.set);
});

export const varHandlers: HandlerTable = { var: globalVar, getvar, setvar };
