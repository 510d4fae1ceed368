/**
 * The dashboard's seller actions (create licenses, ban and unban a user, reset a HWID, end a
 * session) run the seller API's own handler for that operation, in this process: the same
 * parameter checks, limits (the daily key quota), side effects (a ban ends the user's sessions)
 * and messages as `GET /api/seller/?type=…`, without an HTTP request to ourselves.
 */
import { Params } from '../dispatch/params.js';
import type { Reply } from '../dispatch/types.js';
import { createHandlerContext, runHandler } from '../http/handler-context.js';
import type { Notice } from './ui-sessions.js';
import type { ViewContext } from './view.js';

export interface SellerOpResult {
  readonly reply: Reply;
  readonly notice: Notice;
}

/** Runs seller operation `type` with `values` as its parameters; the notice is its answer's message. */
export async function runSellerOp(ctx: ViewContext, type: string, values: Readonly<Record<string, string | undefined>>): Promise<SellerOpResult> {
  const handler = Object.hasOwn(ctx.deps.sellerHandlers, type) ? ctx.deps.sellerHandlers[type] : undefined;
  if (handler === undefined) throw new Error(`the seller API has no operation ${type}`);
  const { page } = ctx;
  const handlerContext = createHandlerContext({ ...ctx.deps, store: page.store }, 'seller', type, ctx.app, {
    ip: page.ip,
    // What the handler may read of the request: none of the form's own fields (its token).
    request: { ...page.request, rawQuery: '', body: undefined },
    get signal() {
      return page.signal;
    },
  });
  const given = Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== undefined);
  const reply = await runHandler(handler, handlerContext, new Params(given), ctx.deps.log);
  const message = reply.fields['message'];
  return { reply, notice: { ok: reply.success, text: typeof message === 'string' ? message : reply.success ? 'Done.' : 'The sandbox refused it.' } };
}
