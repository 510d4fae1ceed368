/** Building the HandlerContext of one request, and running a handler with the 500 safety net. */
import { domainNow } from '../domain/clock.js';
import { addOutboxMessage } from '../domain/outbox.js';
import type { AppRow } from '../domain/rows.js';
import type { Params } from '../dispatch/params.js';
import { fail } from '../dispatch/reply.js';
import type { ApiKind, Handler, HandlerContext, Reply, RequestInfo } from '../dispatch/types.js';
import { MESSAGES } from './input-error.js';
import { isPromise, type MaybePromise } from './maybe-async.js';
import type { ServerDeps } from './server-deps.js';
import { originFor } from './site-names.js';

/** What every handler's context is made from (a part of ServerDeps). */
export type HandlerContextDeps = Pick<ServerDeps, 'store' | 'clock' | 'baseUrl' | 'panelUrl' | 'options' | 'log'> & Partial<Pick<ServerDeps, 'site'>>;

export interface RequestBasics {
  readonly ip: string;
  readonly request: RequestInfo;
  readonly signal: AbortSignal;
}

export function createHandlerContext(deps: HandlerContextDeps, api: ApiKind, type: string, app: AppRow, basics: RequestBasics): HandlerContext {
  // The domain clock (real time + the admin clock's offset); signatures keep using deps.clock.
  const now = domainNow(deps.store, deps.clock());
  return {
    api,
    type,
    store: deps.store,
    app,
    now,
    ip: basics.ip,
    baseUrl: deps.baseUrl(),
    // `--panel-url`, else the name and port the client used (keyauth.win for keyauth-js over --tls).
    panelUrl: deps.panelUrl?.() ?? (deps.site ? originFor(basics.request.headers.host, deps.site(), deps.baseUrl()) : deps.baseUrl()),
    options: deps.options,
    request: basics.request,
    // A getter: the signal is made only for a handler that reads it (see server.ts).
    get signal() {
      return basics.signal;
    },
    outbox: { send: (message) => addOutboxMessage(deps.store, { ...message, appId: app.id }, now) },
    log: deps.log,
    session: undefined,
  };
}

/**
 * Runs a handler. An exception becomes a 500 with the spec's error shape and nothing of the
 * error in the body (no stack trace, no SQL); the log gets the details. A synchronous handler's
 * reply comes back as is, not as a promise (see maybe-async.ts).
 */
export function runHandler(handler: Handler, ctx: HandlerContext, params: Params, log: (line: string) => void): MaybePromise<Reply> {
  try {
    const reply = handler(ctx, params);
    return isPromise(reply) ? reply.catch((err: unknown) => handlerFailed(ctx, log, err)) : reply;
  } catch (err) {
    return handlerFailed(ctx, log, err);
  }
}

function handlerFailed(ctx: HandlerContext, log: (line: string) => void, err: unknown): Reply {
  log(`handler ${ctx.api} ${ctx.type} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  return { ...fail(MESSAGES.internal), status: 500, unsigned: true };
}
