/**
 * Client session operations: `init` (docs/protocol/client-api.md §4.1), `check` (§4.8), `logout` (§4.7).
 */
import { appMessage } from '../domain/messages.js';
import { isWhitelisted } from '../domain/blacklists.js';
import { normalizeIp } from '../domain/ip.js';
import { isInVpnRanges } from '../domain/vpn-ranges.js';
import { checkProgramHash, customerPanelLink } from '../domain/apps.js';
import { ownerRole } from '../domain/accounts.js';
import type { ApiVersion } from '../domain/rows.js';
import { createSession, deleteSession } from '../domain/sessions.js';
import { findToken, setTokenHash } from '../domain/tokens.js';
import type { Params } from '../dispatch/params.js';
import { fail, ok } from '../dispatch/reply.js';
import { sessionUnauthed, withSession } from '../dispatch/session-guard.js';
import type { HandlerContext, HandlerTable, Reply } from '../dispatch/types.js';

/** What `init` puts in the three counts; the real counts come from `fetchStats`. */
export const APPINFO_NOT_AVAILABLE = 'N/A - Use fetchStats() function in latest example';
export const MAX_ENCKEY_LENGTH = 35;

/**
 * Checks in the source's order: enckey length, forced encryption, VPN block, disabled, paused,
 * token system, version, program hash; then a new session. The real VPN check asks ip-api.com;
 * the sandbox instead treats the app's `vpnranges` CIDRs as VPN addresses (whitelisted IPs pass).
 */
function init(ctx: HandlerContext, params: Params): Reply {
  const { store, app, now } = ctx;
  const msg = (key: Parameters<typeof appMessage>[2]) => appMessage(store, app.id, key);
  const enckey = params.get('enckey');
  if (enckey !== undefined && enckey.length > MAX_ENCKEY_LENGTH) return fail('The paramater "enckey" is too long. Must be 35 characters or less.');
  if (app.forceEncryption && enckey === undefined) return fail('No encryption key supplied, encryption is forced.');
  if (app.vpnblock && isInVpnRanges(ctx.ip, app.vpnranges) && !isWhitelisted(store, app.id, normalizeIp(ctx.ip))) return fail(msg('vpnblocked'));
  if (!app.enabled) return fail(msg('appdisabled'));
  if (app.paused) return fail(msg('pausedApp'));

  return store.tx(() => {
    if (app.tokensystem) {
      const refused = checkInitToken(ctx, params);
      if (refused) return refused;
    }
    const ver = params.get('ver');
    if (ver !== undefined && ver !== app.ver) return { ...fail('invalidver', { download: app.download ?? '' }), unescapedSlashes: true };
    if (app.hashcheck) {
      // The source lets a client that sends no hash through; we treat it as a mismatch.
      const hash = params.get('hash');
      if (hash === undefined || !checkProgramHash(store, app.id, hash)) return fail(msg('hashcheckfail'));
    }
    const session = createSession(store, app, { enckey, ip: ctx.ip, api: clientVersion(ctx) }, now);
    ctx.session = session;
    return ok('Initialized', {
      sessionid: session.id,
      appinfo: {
        numUsers: APPINFO_NOT_AVAILABLE,
        numOnlineUsers: APPINFO_NOT_AVAILABLE,
        numKeys: APPINFO_NOT_AVAILABLE,
        version: app.ver,
        customerPanelLink: customerPanelLink(app, ctx.panelUrl),
      },
      newSession: true,
    });
  });
}

/** Steps 6–11 of init: the token file a program ships with (`token`, `thash`). */
function checkInitToken(ctx: HandlerContext, params: Params): Reply | undefined {
  const token = params.get('token');
  if (token === undefined) return fail('Token Must Be Provided');
  const thash = params.get('thash');
  if (thash === undefined) return fail('Hash Must Be Provided');
  const row = findToken(ctx.store, ctx.app.id, token);
  if (row === undefined) return fail(appMessage(ctx.store, ctx.app.id, 'tokeninvalid'));
  if (row.banned) return fail(`The Token Has Been Blacklisted For The Following Reason: ${row.reason} Contact Application Developer If This Is A Mistake`);
  if (row.hash === null) setTokenHash(ctx.store, row.id, thash);
  else if (row.hash !== thash) return fail('Token File Hashes Must Be The Same');
  return undefined;
}

function clientVersion(ctx: HandlerContext): ApiVersion {
  return ctx.api === '1.2' ? '1.2' : '1.3';
}

/**
 * `check`: whether the session is logged in. 1.3 adds `role` (the C++ SDKs read it): the owner
 * account's role when the URL carries `check_paid=1`, else `not_checked`. 1.2 answers as the source.
 */
const check = withSession((ctx, params) => {
  if (!ctx.session.validated) return sessionUnauthed(ctx);
  if (ctx.api === '1.2') return ok('Session is validated.');
  const role = params.get('check_paid') === '1' ? ownerRole(ctx.store, ctx.app) : 'not_checked';
  return ok('Session is validated.', { role });
});

/** `logout`: ends the session. */
const logout = withSession((ctx) => {
  deleteSession(ctx.store, ctx.app.id, ctx.session.id);
  return ok('Successfully logged out.');
});

export const sessionHandlers: HandlerTable = { init, check, logout };
