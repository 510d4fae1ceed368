/**
 * Global variables (docs/protocol/seller-api.md §3.5): app-wide values the client `var` reads. A variable's
 * name is its id (`varid` on `editvar`, `name` elsewhere); `authed` = only logged-in users may
 * read it.
 */
import { createGlobalVar, deleteAllGlobalVars, deleteGlobalVar, findGlobalVar, GLOBAL_VAR_NAME_MAX, listGlobalVars, setGlobalVar } from '../domain/global-vars.js';
import type { Params } from '../dispatch/params.js';
import { fail, ok } from '../dispatch/reply.js';
import type { HandlerContext, HandlerTable, Reply } from '../dispatch/types.js';
import { either, listReply } from './answers.js';
import { checkedParams } from './checked-params.js';

function fetchallvars(ctx: HandlerContext): Reply {
  const rows = listGlobalVars(ctx.store, ctx.app.id).map((v) => ({ varid: v.varid, msg: v.msg, authed: String(v.authed) }));
  return listReply(ctx, 'Successfully retrieved variables', rows);
}

/** `retrvvar`: the value is the `message`, with `authed` as `"true"`/`"false"` beside it. */
function retrvvar(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'retrvvar', { required: ['name'] });
  const row = findGlobalVar(ctx.store, ctx.app.id, p.name);
  if (row === undefined) return fail('Variable not found');
  return ok(row.msg, { authed: row.authed ? 'true' : 'false' });
}

function addvar(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'addvar', { required: ['name', 'data', 'authed'], flags: ['authed'] });
  const name = p.name;
  // The store's column size (E: varchar 49); the page gives no wording for it.
  if ([...name].length > GLOBAL_VAR_NAME_MAX) return fail(`Invalid parameter: name must be at most ${GLOBAL_VAR_NAME_MAX} characters`);
  const created = createGlobalVar(ctx.store, ctx.app.id, name, p.data, p.authed);
  return either(created, 'Successfully created variable!', 'Varialbe name already exists!');
}

/** `editvar`. E reports success even for a name that does not exist; the sandbox says it is missing. */
function editvar(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'editvar', { required: ['varid', 'data'] });
  const done = setGlobalVar(ctx.store, ctx.app.id, p.varid, p.data);
  return either(done, 'Variable Edit Successful', 'Variable not found');
}

function delvar(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'delvar', { required: ['name'] });
  return either(deleteGlobalVar(ctx.store, ctx.app.id, p.name), 'Successfully deleted variable!', 'Failed to delete variable!');
}

function delallvars(ctx: HandlerContext): Reply {
  return either(deleteAllGlobalVars(ctx.store, ctx.app.id) > 0, 'Successfully deleted all variables!', 'Failed to delete all variables!');
}

export const varHandlers: HandlerTable = { fetchallvars, retrvvar, addvar, editvar, delvar, delallvars };
