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
import { because, fail, ok } from '../dispatch/reply.js';
import { shownSecret, shownSession } from '../domain/shown.js';
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
  const { store, app } = ctx;
  const msg = (key: Parameters<typeof appMessage>[2]): string => appMessage(store, app.id, key);
  const enckey = params.get('enckey');
  if (enckey !== undefined && enckey.length > MAX_ENCKEY_LENGTH) {
    return because(fail('The paramater "enckey" is too long. Must be 35 characters or less.'), `the enckey is ${enckey.length} characters; at most ${MAX_ENCKEY_LENGTH}`);
  }
  if (app.forceEncryption && enckey === undefined) return because(fail('No encryption key supplied, encryption is forced.'), 'no enckey was sent and the app forces encryption');
  if (app.vpnblock && isInVpnRanges(ctx.ip, app.vpnranges) && !isWhitelisted(store, app.id, normalizeIp(ctx.ip))) {
    return because(fail(msg('vpnblocked')), `IP ${ctx.ip} is in the app's VPN ranges (${app.vpnranges ?? ''}) and not whitelisted`);
  }
  if (!app.enabled) return because(fail(msg('appdisabled')), 'the app is disabled');
  if (app.paused) return because(fail(msg('pausedApp')), 'the app is paused');

  // The token and hash checks read what the new session must agree with: one transaction holds
  // them and the session. Without them init reads nothing first, and the session's INSERT is
  // atomic alone (createSession), so no transaction is opened for the most common init.
  if (!app.tokensystem && !app.hashcheck) return initSession(ctx, params, enckey);
  return store.tx(() => initSession(ctx, params, enckey));
}

/** Steps 6 to the end of init: token, version, program hash, then the new session. */
function initSession(ctx: HandlerContext, params: Params, enckey: string | undefined): Reply {
  const { store, app, now } = ctx;
  if (app.tokensystem) {
    const refused = checkInitToken(ctx, params);
    if (refused) return refused;
  }
  const ver = params.get('ver');
  if (ver !== undefined && ver !== app.ver) {
    const download = app.download ? ' (the answer carries the download link)' : ' (the app has no download link to give)';
    return because({ ...fail('invalidver', { download: app.download ?? '' }), unescapedSlashes: true }, `app version is ${app.ver}, the client sent ${ver}${download}`);
  }
  if (app.hashcheck) {
    // The source lets a client that sends no hash through; we treat it as a mismatch.
    const hash = params.get('hash');
    if (hash === undefined) return because(fail(appMessage(store, app.id, 'hashcheckfail')), 'the app checks the program hash and no hash was sent');
    if (!checkProgramHash(store, app.id, hash)) return because(fail(appMessage(store, app.id, 'hashcheckfail')), `program hash ${hash.slice(0, 8)}… is not one the app knows`);
  }
  const session = createSession(store, app, { enckey, ip: ctx.ip, api: clientVersion(ctx) }, now);
  ctx.session = session;
  const versionNote = ver === undefined ? 'no version was sent, so none was checked' : `version ${ver} matches`;
  return because(ok('Initialized', {
    sessionid: session.id,
    appinfo: {
      numUsers: APPINFO_NOT_AVAILABLE,
      numOnlineUsers: APPINFO_NOT_AVAILABLE,
      numKeys: APPINFO_NOT_AVAILABLE,
      version: app.ver,
      customerPanelLink: customerPanelLink(app, ctx.panelUrl),
    },
    newSession: true,
  }), `new session ${shownSession(session.id)} for ${app.sessionLength} s; ${versionNote}`);
}

/** Steps 6–11 of init: the token file a program ships with (`token`, `thash`). */
function checkInitToken(ctx: HandlerContext, params: Params): Reply | undefined {
  const token = params.get('token');
  if (token === undefined) return because(fail('Token Must Be Provided'), 'the app uses the token system and no token was sent');
  const thash = params.get('thash');
  if (thash === undefined) return because(fail('Hash Must Be Provided'), 'the app uses the token system and no thash was sent');
  const row = findToken(ctx.store, ctx.app.id, token);
  const shown = shownSecret('token', token);
  if (row === undefined) return because(fail(appMessage(ctx.store, ctx.app.id, 'tokeninvalid')), `token ${shown} is not one of the app's`);
  if (row.banned) return because(fail(`The Token Has Been Blacklisted For The Following Reason: ${row.reason} Contact Application Developer If This Is A Mistake`), `token ${shown} is banned`);
  if (row.hash === null) setTokenHash(ctx.store, row.id, thash);
  else if (row.hash !== thash) return because(fail('Token File Hashes Must Be The Same'), `token ${shown} is bound to another token file hash`);
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
