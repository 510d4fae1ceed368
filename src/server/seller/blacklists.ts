/** Blacklists (docs/protocol/seller-api.md §3.2): HWIDs and IPs the client API refuses. */
import { addBlacklist, deleteAllBlacklists, deleteBlacklist, isBlacklistType, listBlacklists } from '../domain/blacklists.js';
import type { Params } from '../dispatch/params.js';
import { fail, ok } from '../dispatch/reply.js';
import type { HandlerContext, HandlerTable, Reply } from '../dispatch/types.js';
import { either, listReply } from './answers.js';
import { checkedParams } from './checked-params.js';

function fetchallblacks(ctx: HandlerContext): Reply {
  const rows = listBlacklists(ctx.store, ctx.app.id).map((row) => ({ hwid: row.hwid, ip: row.ip, type: row.type }));
  return listReply(ctx, 'Successfully retrieved blacklists', rows);
}

/**
 * `black`: one entry per non-empty value; success even with neither, as E. A loopback IP is
 * accepted here (unlike a ban's automatic blacklisting): a tester asked for it explicitly.
 */
function black(ctx: HandlerContext, params: Params): Reply {
  const { ip, hwid } = checkedParams(params, 'black', { optional: ['ip', 'hwid'] });
  ctx.store.tx(() => {
    if (ip !== undefined) addBlacklist(ctx.store, ctx.app.id, 'ip', ip);
    if (hwid !== undefined) addBlacklist(ctx.store, ctx.app.id, 'hwid', hwid);
  });
  return ok('Blacklist Addition Successful');
}

function delblack(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'delblack', { required: ['data', 'blacktype'] });
  const type = p.blacktype;
  if (!isBlacklistType(type)) return fail('Invalid blacklist type!');
  const deleted = deleteBlacklist(ctx.store, ctx.app.id, type, p.data);
  return either(deleted > 0, 'Successfully deleted blacklist!', 'Failed to delete blacklist!');
}

function delblacks(ctx: HandlerContext): Reply {
  return either(deleteAllBlacklists(ctx.store, ctx.app.id) > 0, 'Successfully deleted all blacklists!', 'Failed to delete all blacklists!');
}

export const blacklistHandlers: HandlerTable = { fetchallblacks, black, delblack, delblacks };
