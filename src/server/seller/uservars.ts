/**
 * User variables (docs/protocol/seller-api.md §3.10, "User variables"). `setvar` takes `user=all` for every
 * user of the app; the seller may write read-only variables (the client may not).
 */
import { deleteUserVar, deleteUserVarsByName, getUserVar, listAppUserVars, setUserVar, USER_VAR_DATA_MAX, USER_VAR_NAME_MAX } from '../domain/user-vars.js';
import { findUser, listUsers } from '../domain/users.js';
import type { Params } from '../dispatch/params.js';
import { fail, failWithStatus, ok } from '../dispatch/reply.js';
import type { HandlerContext, HandlerTable, Reply } from '../dispatch/types.js';
import { either, listReply } from './answers.js';
import { wantsText } from './params.js';
import { checkedParams } from './checked-params.js';

/**
 * E lists `{name, data, user}`; the sandbox adds `readOnly` (0/1, as `setvar` takes it), so an
 * export or backup of a sandbox keeps which variables the client may not overwrite.
 */
function fetchalluservars(ctx: HandlerContext): Reply {
  const rows = listAppUserVars(ctx.store, ctx.app.id).map((v) => ({ name: v.name, data: v.data, user: v.user, readOnly: String(v.readOnly) }));
  return listReply(ctx, 'Successfully retrieved user variables', rows);
}

/** `setvar`: an upsert; `readOnly` absent keeps an existing variable's flag (new: writable). */
function setvar(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'setvar', { required: ['user', 'var', 'data'], optional: ['readOnly'], flags: ['readOnly'] });
  const target = p.user;
  const name = p.var;
  const data = p.data;
  // The store's column sizes (E: name ≤ 99, data ≤ 500); the page gives no wording for these.
  if ([...name].length > USER_VAR_NAME_MAX) return fail(`Invalid parameter: var must be at most ${USER_VAR_NAME_MAX} characters`);
  if ([...data].length > USER_VAR_DATA_MAX) return fail(`Invalid parameter: data must be at most ${USER_VAR_DATA_MAX} characters`);
  const options = p.readOnly === undefined ? {} : { readOnly: p.readOnly };
  return ctx.store.tx(() => {
    if (target === 'all') {
      const users = listUsers(ctx.store, ctx.app.id);
      if (users.length === 0) return fail('No users found!');
      for (const user of users) setUserVar(ctx.store, ctx.app.id, user.id, name, data, options);
      return ok('Successfully set variable!');
    }
    const user = findUser(ctx.store, ctx.app.id, target);
    if (user === undefined) return fail('Failed to set variable!');
    setUserVar(ctx.store, ctx.app.id, user.id, name, data, options);
    return ok('Successfully set variable!');
  });
}

/** `getvar`: the value in `response`; with `format=text` the value alone. */
function getvar(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'getvar', { required: ['user', 'var'] });
  const user = findUser(ctx.store, ctx.app.id, p.user);
  const row = user === undefined ? undefined : getUserVar(ctx.store, user.id, p.var);
  if (row === undefined) return failWithStatus(404, 'Variable not found for user');
  const answer = ok('Successfully retrieved variable', { response: row.data });
  return wantsText(params) ? { ...answer, text: row.data } : answer;
}

function deluservar(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'deluservar', { required: ['user', 'var'] });
  const user = findUser(ctx.store, ctx.app.id, p.user);
  const done = user !== undefined && deleteUserVar(ctx.store, user.id, p.var);
  return either(done, 'Successfully deleted variable', 'Failed to delete variable');
}

function massUserVarDelete(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'massUserVarDelete', { required: ['name'] });
  const deleted = deleteUserVarsByName(ctx.store, ctx.app.id, p.name);
  return either(deleted > 0, 'Successfully deleted user variables with that name!', 'Failed to delete user variables with that name!');
}

export const userVarHandlers: HandlerTable = { fetchalluservars, setvar, getvar, deluservar, massUserVarDelete };
