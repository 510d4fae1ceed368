/** The user a validated session is logged in as. */
import type { UserRow } from '../domain/rows.js';
import { findUser } from '../domain/users.js';
import type { SessionContext } from '../dispatch/session-guard.js';

/**
 * The session's user, or undefined when there is none (deleting or renaming a user ends or
 * re-points their sessions, so this is only a safety net; callers answer `sessionunauthed`).
 */
export function sessionUser(ctx: SessionContext): UserRow | undefined {
  const credential = ctx.session.credential;
  return ctx.session.validated && credential !== null ? findUser(ctx.store, ctx.app.id, credential) : undefined;
}
