/** App figures a client may read: `fetchOnline` (docs/protocol/client-api.md §4.19) and `fetchStats` (§4.20). */
import { appCounts, customerPanelLink } from '../domain/apps.js';
import { onlineCredentials } from '../domain/sessions.js';
import { fail, ok } from '../dispatch/reply.js';
import { withSession } from '../dispatch/session-guard.js';
import type { HandlerTable } from '../dispatch/types.js';

export const STATS_MESSAGES = {
  online: 'Successfully fetched online users.',
  noneOnline: 'No online users found!',
  stats: 'Successfully fetched stats',
} as const;

/** Credentials longer than 10 characters keep the first 10; the rest become `*` (as the source). */
export function maskCredential(credential: string): string {
  return credential.length > 10 ? credential.slice(0, 10) + '*'.repeat(credential.length - 10) : credential;
}

/** Each user with a logged-in, unexpired session, once, masked. */
const fetchOnline = withSession((ctx) => {
  const users = onlineCredentials(ctx.store, ctx.app.id, ctx.now).map((credential) => ({ credential: maskCredential(credential) }));
  return users.length === 0 ? fail(STATS_MESSAGES.noneOnline) : ok(STATS_MESSAGES.online, { users });
});

/** The real counts `init` leaves out, as strings. */
const fetchStats = withSession((ctx) => {
  const counts = appCounts(ctx.store, ctx.app.id, ctx.now);
  return ok(STATS_MESSAGES.stats, {
    appinfo: {
      numUsers: String(counts.numUsers),
      numOnlineUsers: String(counts.numOnlineUsers),
      numKeys: String(counts.numKeys),
      version: ctx.app.ver,
      customerPanelLink: customerPanelLink(ctx.app, ctx.panelUrl),
    },
  });
});

export const statsHandlers: HandlerTable = { fetchOnline, fetchStats };
