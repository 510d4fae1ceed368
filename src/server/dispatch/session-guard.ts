/**
 * Session requirements of client operations (docs/protocol/client-api.md §3). Wrap a handler:
 *
 *   logout: withSession((ctx, params) => …)           // any live session
 *   getvar: withValidatedSession((ctx, params) => …)   // a logged-in session
 *
 * Inside, `ctx.session` is the live session (typed as present).
 */
import { appMessage } from '../domain/messages.js';
import { SESSION_NOT_FOUND_MESSAGE } from '../domain/login.js';
import type { SessionRow } from '../domain/rows.js';
import { findLiveSession, whySessionMissing } from '../domain/sessions.js';
import { shownSession } from '../domain/shown.js';
import type { Params } from './params.js';
import { because, fail } from './reply.js';
import type { Handler, HandlerContext, Reply } from './types.js';

export { SESSION_NOT_FOUND_MESSAGE };

export type SessionContext = HandlerContext & { session: SessionRow };
export type SessionHandler = (ctx: SessionContext, params: Params) => Reply | Promise<Reply>;

/** The answer to a missing, unknown or expired `sessionid` (unsigned in 1.2, as the source). */
export function sessionNotFound(reason?: string): Reply {
  return because({ ...fail(SESSION_NOT_FOUND_MESSAGE), unsigned: true }, reason);
}

/**
 * The app's `sessionunauthed` answer, for a live session that is not logged in, or whose user
 * is gone (`reason` says so; by default: not logged in).
 */
export function sessionUnauthed(ctx: HandlerContext, reason?: string): Reply {
  const session = ctx.session;
  const why = reason ?? (session === undefined ? 'no session' : session.validated ? `the user of session ${shownSession(session.id)} is gone` : `session ${shownSession(session.id)} is not logged in`);
  return because(fail(appMessage(ctx.store, ctx.app.id, 'sessionunauthed')), why);
}

/** Loads the live session named by `sessionid` into `ctx.session`; undefined when there is none. */
export function loadSession(ctx: HandlerContext, params: Params): SessionRow | undefined {
  const id = params.get('sessionid');
  const session = id === undefined ? undefined : findLiveSession(ctx.store, ctx.app.id, id, ctx.now);
  if (session !== undefined) ctx.session = session;
  return session;
}

/** Runs `handler` only with a live session; otherwise answers `Session not found…`. */
export function withSession(handler: SessionHandler): Handler {
  return (ctx, params) => {
    const session = loadSession(ctx, params);
    if (session === undefined) return sessionNotFound(whySessionMissing(ctx.store, ctx.app.id, params.get('sessionid'), ctx.now));
    return handler(ctx as SessionContext, params);
  };
}

/** Runs `handler` only with a validated (logged-in) session; otherwise the app's `sessionunauthed`. */
export function withValidatedSession(handler: SessionHandler): Handler {
  return withSession((ctx, params) => (ctx.session.validated ? handler(ctx, params) : sessionUnauthed(ctx)));
}
