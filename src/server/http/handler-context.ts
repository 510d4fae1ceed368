/** Building the HandlerContext of one request, and running a handler with the 500 safety net. */
import { domainNow } from '../domain/clock.js';
import { addOutboxMessage } from '../domain/outbox.js';
import type { AppRow, SessionRow } from '../domain/rows.js';
import type { Params } from '../dispatch/params.js';
import { fail } from '../dispatch/reply.js';
import type { ApiKind, Handler, HandlerContext, OutboxSender, Reply, RequestInfo } from '../dispatch/types.js';
import type { Store } from '../store/store.js';
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
  return new RequestContext(deps, api, type, app, basics, domainNow(deps.store, deps.clock()));
}

/**
 * A request's context: one object, its fields set once, with what few handlers use (the base
 * URLs, the signal, the outbox) made only when read, by getters shared by every request rather
 * than closures made for each.
 */
class RequestContext implements HandlerContext {
  readonly store: Store;
  readonly ip: string;
  readonly options: HandlerContextDeps['options'];
  readonly request: RequestInfo;
  readonly log: (line: string) => void;
  session: SessionRow | undefined = undefined;

  constructor(
    private readonly deps: HandlerContextDeps,
    readonly api: ApiKind,
    readonly type: string,
    readonly app: AppRow,
    private readonly basics: RequestBasics,
    readonly now: number,
  ) {
    this.store = deps.store;
    this.ip = basics.ip;
    this.options = deps.options;
    this.request = basics.request;
    this.log = deps.log;
  }

  get baseUrl(): string {
    return this.deps.baseUrl();
  }

  /** `--panel-url`, else the name and port the client used (keyauth.win for keyauth-js over --tls). */
  get panelUrl(): string {
    const { deps } = this;
    return deps.panelUrl?.() ?? (deps.site ? originFor(this.request.headers.host, deps.site(), deps.baseUrl()) : deps.baseUrl());
  }

  /** Made only for a handler that reads it (see server.ts). */
  get signal(): AbortSignal {
    return this.basics.signal;
  }

  get outbox(): OutboxSender {
    return { send: (message) => addOutboxMessage(this.store, { ...message, appId: this.app.id }, this.now) };
  }
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
