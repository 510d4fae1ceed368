/** Client sessions (docs/protocol/seller-api.md §3.8): list, end one, end all. */
import { deleteAllSessions, deleteSession, listLiveSessions } from '../domain/sessions.js';
import type { Params } from '../dispatch/params.js';
import type { HandlerContext, HandlerTable, Reply } from '../dispatch/types.js';
import { either, listReply } from './answers.js';
import { checkedParams } from './checked-params.js';

/** Live sessions; `credential` is null until the session logs in, `validated` is "0"/"1". */
function fetchallsessions(ctx: HandlerContext): Reply {
  const rows = listLiveSessions(ctx.store, ctx.app.id, ctx.now).map((s) => ({
    id: s.id,
    credential: s.credential,
    expiry: String(s.expiry),
    validated: String(s.validated),
    ip: s.ip,
  }));
  return listReply(ctx, 'Successfully retrieved sessions', rows);
}

function kill(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'kill', { required: ['sessid'] });
  return either(deleteSession(ctx.store, ctx.app.id, p.sessid), 'Successfully killed session!', 'Failed to kill session!');
}

function killall(ctx: HandlerContext): Reply {
  return either(deleteAllSessions(ctx.store, ctx.app.id) > 0, 'Successfully killed all sessions!', 'Failed to kill all sessions!');
}

export const sessionHandlers: HandlerTable = { fetchallsessions, kill, killall };
