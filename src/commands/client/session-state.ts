/**
 * The client session as the client commands use it: what `whoami` shows, what `init` checks
 * before opening another, and what a login marks as validated. The store and its "one server,
 * app and owner id" rule are src/config/client-session.ts (reached through the Context); the
 * protocol library stores and clears the id itself.
 */
import type { Context } from '../../context.js';
import type { StoredSession } from '../../config/types.js';
import type { SessionView } from '../../config/client-session.js';

export async function readSession(ctx: Context): Promise<SessionView> {
  return (await ctx.clientSession()).read();
}

/** Adds `fields` to the stored session of this server and app (if it is still there). */
export async function updateSession(ctx: Context, fields: Partial<StoredSession>): Promise<void> {
  (await ctx.clientSession()).update(fields);
}

/** Forgets the stored session (after logout, or a rename that ended it). */
export async function forgetSession(ctx: Context): Promise<void> {
  (await ctx.clientSession()).forget();
}

/** After a login of any kind: the session now belongs to `user`. */
export async function markLoggedIn(ctx: Context, body: Record<string, unknown>, fallbackUser: string | undefined): Promise<void> {
  const info = body.info;
  const named = typeof info === 'object' && info !== null ? (info as { username?: unknown }).username : undefined;
  const user = typeof named === 'string' && named !== '' ? named : fallbackUser;
  await updateSession(ctx, { validated: true, ...(user === undefined ? {} : { user }) });
}
