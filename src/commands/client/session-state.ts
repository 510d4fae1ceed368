/**
 * The client session as the profile keeps it: what `whoami` shows, what `init` checks before
 * opening another, and what a login marks as validated. The protocol library stores and
 * clears the id itself; this module only reads it and adds who logged in.
 */
import type { Context } from '../../context.js';
import type { StoredSession } from '../../config/types.js';
import { sessionOrigin } from '../../config/session-origin.js';

export interface SessionView {
  /** The profile sessions are kept in. */
  profile: string;
  /** The session for the configured server and app, if one is stored. */
  session: StoredSession | undefined;
  /** A session is stored, but for another server or app (the settings changed since). */
  elsewhere: boolean;
}

async function currentOrigin(ctx: Context): Promise<string | undefined> {
  const settings = await ctx.settings();
  const { baseUrl, appName, ownerid } = settings;
  if (!baseUrl.value || !appName.value || !ownerid.value) return undefined;
  return sessionOrigin(baseUrl.value, appName.value, ownerid.value);
}

export async function readSession(ctx: Context): Promise<SessionView> {
  const profile = await ctx.sessionProfileName();
  const stored = (await ctx.config()).profile(profile)?.session;
  if (stored === undefined) return { profile, session: undefined, elsewhere: false };
  const origin = await currentOrigin(ctx);
  if (origin !== undefined && stored.origin === origin) return { profile, session: stored, elsewhere: false };
  return { profile, session: undefined, elsewhere: true };
}

/** Adds `fields` to the stored session of this server and app (if it is still there). */
export async function updateSession(ctx: Context, fields: Partial<StoredSession>): Promise<void> {
  const origin = await currentOrigin(ctx);
  const profile = await ctx.sessionProfileName();
  const store = await ctx.config();
  store.update((config) => {
    const session = config.profiles[profile]?.session;
    if (session === undefined || session.origin !== origin) return;
    config.profiles[profile] = { ...config.profiles[profile], session: { ...session, ...fields } };
  });
}

/** Forgets the stored session (after logout, or a rename that ended it). */
export async function forgetSession(ctx: Context): Promise<void> {
  const origin = await currentOrigin(ctx);
  const profile = await ctx.sessionProfileName();
  const store = await ctx.config();
  store.update((config) => {
    const entry = config.profiles[profile];
    const session = entry?.session;
    // A session of another server or app is not the one that just ended.
    if (entry === undefined || session === undefined || session.origin !== origin) return;
    const { session: _ended, ...rest } = entry;
    config.profiles[profile] = rest;
  });
}

/** After a login of any kind: the session now belongs to `user`. */
export async function markLoggedIn(ctx: Context, body: Record<string, unknown>, fallbackUser: string | undefined): Promise<void> {
  const info = body.info;
  const named = typeof info === 'object' && info !== null ? (info as { username?: unknown }).username : undefined;
  const user = typeof named === 'string' && named !== '' ? named : fallbackUser;
  await updateSession(ctx, { validated: true, ...(user === undefined ? {} : { user }) });
}
