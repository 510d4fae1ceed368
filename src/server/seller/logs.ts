/** Client logs (docs/protocol/seller-api.md §3.7): what clients sent with the client API's `log`. */
import { deleteAllLogs, listLogs } from '../domain/logs.js';
import type { HandlerContext, HandlerTable, Reply } from '../dispatch/types.js';
import { either, listReply } from './answers.js';

/** `logapp` is the app's name: E puts the app secret there, which a list must not leak. */
function fetchalllogs(ctx: HandlerContext): Reply {
  const rows = listLogs(ctx.store, ctx.app.id).map((log) => ({
    id: String(log.id),
    logdate: String(log.logdate),
    logdata: log.logdata,
    credential: log.credential,
    pcuser: log.pcuser,
    logapp: ctx.app.name,
  }));
  return listReply(ctx, 'Successfully retrieved logs', rows);
}

function dellogs(ctx: HandlerContext): Reply {
  return either(deleteAllLogs(ctx.store, ctx.app.id) > 0, 'Successfully deleted all logs!', 'Failed to delete all logs!');
}

export const logHandlers: HandlerTable = { fetchalllogs, dellogs };
