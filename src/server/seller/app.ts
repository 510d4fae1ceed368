/**
 * Application settings (docs/protocol/seller-api.md §3.1): details, settings, stats, pause, program hashes.
 */
import { listAppAccounts } from '../domain/accounts.js';
import { addAppHash, getApp, pauseApp, resetAppHash, unpauseApp, updateAppSettings, type AppSettings } from '../domain/apps.js';
import { listFiles } from '../domain/files.js';
import { deleteAllSessions } from '../domain/sessions.js';
import { listGlobalVars } from '../domain/global-vars.js';
import { licenseCounts } from '../domain/licenses.js';
import { appMessages, setAppMessage, type AppMessageKey } from '../domain/messages.js';
import { listWebhooks } from '../domain/webhooks.js';
import type { Params } from '../dispatch/params.js';
import { fail, ok, reply } from '../dispatch/reply.js';
import type { HandlerContext, HandlerTable, Reply } from '../dispatch/types.js';
import { parseBooleanWord } from './boolean-words.js';
import { wantsText } from './params.js';
import { applyTokenSettings, tokenList, tokenSettingProblem } from './app-tokens.js';
import { isValidCidr, splitRanges } from '../domain/vpn-ranges.js';
import { checkedParams } from './checked-params.js';
import { SHOP_PRODUCT_SETTINGS } from '../../api/seller-catalog/shop-products.js';
import { ADD_KEYS_EXTENSION } from '../../api/seller-catalog/licenses.js';
import { MAX_KEYS_PER_CALL } from './key-quota.js';

/**
 * The custom client messages as `getsettings` names them, and the `updatesettings` parameter
 * that writes each, in the page's order (also the order of the `format=text` lines).
 */
const MESSAGE_SETTINGS: readonly { readonly out: string; readonly param: string; readonly key: AppMessageKey }[] = [
  { out: 'disabledmsg', param: 'appdisabled', key: 'appdisabled' },
  { out: 'usernametakenmsg', param: 'usernametaken', key: 'usernametaken' },
  { out: 'licenseinvalidmsg', param: 'keynotfound', key: 'keynotfound' },
  { out: 'keytakenmsg', param: 'keyused', key: 'keyused' },
  { out: 'nosubmsg', param: 'nosublevel', key: 'nosublevel' },
  { out: 'userinvalidmsg', param: 'usernamenotfound', key: 'usernamenotfound' },
  { out: 'passinvalidmsg', param: 'passmismatch', key: 'passmismatch' },
  { out: 'hwidmismatchmsg', param: 'hwidmismatch', key: 'hwidmismatch' },
  { out: 'noactivesubmsg', param: 'noactivesubs', key: 'noactivesubs' },
  { out: 'blackedmsg', param: 'hwidblacked', key: 'hwidblacked' },
];

function appdetails(ctx: HandlerContext): Reply {
  const { name, ownerid, secret, ver } = ctx.app;
  // The secret is the real contract: a seller needs it for 1.2 signatures and client setup.
  return ok('Fetched Application Details Successfully', { appdetails: { name, ownerid, secret, version: ver } });
}

/**
 * `getsettings`. With `format=text`, one value a line in the page's order. E glues the line
 * after `hwid-lock` onto it when the lock is on (operator precedence); the sandbox writes every
 * newline, since a client splitting on lines would otherwise read shifted values. The JSON
 * answer also carries the same settings grouped as `functions` and `messages`, the shape the
 * official Telegram bot reads (docs/protocol/seller-api.md §1.6), so clients of either shape work.
 */
function getsettings(ctx: HandlerContext, params: Params): Reply {
  const app = ctx.app;
  const messages = appMessages(ctx.store, app.id);
  const fields: Record<string, unknown> = {
    message: 'Retrieved Settings Successfully',
    enabled: app.enabled === 1,
    'hwid-lock': app.hwidcheck === 1,
    version: app.ver,
    download: app.download,
    webdownload: app.webdownload,
    webhook: app.webhook,
    resellerstore: app.resellerstore,
  };
  for (const setting of MESSAGE_SETTINGS) fields[setting.out] = messages[setting.key];
  // The seller's own Sellix secret: returned to the holder of the seller key, as appdetails returns the app secret.
  fields['sellixsecret'] = app.sellixsecret;
  fields['cooldown'] = String(app.cooldown);
  if (!wantsText(params)) {
    return reply(true, { ...fields, functions: groupedFunctions(app, fields), messages: groupedMessages(fields, messages), sandbox: sandboxSettings(ctx, messages) });
  }
  const lines = Object.entries(fields)
    .filter(([name]) => name !== 'message')
    .map(([, value]) => (value === null || value === undefined ? '' : String(value as string | boolean)));
  return { ...reply(true, fields), text: lines.join('\n') };
}

/** `functions`: the app's switches and links, under the names the Telegram bot reads. */
function groupedFunctions(app: HandlerContext['app'], flat: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return {
    enabled: flat['enabled'],
    paused: app.paused === 1,
    'hwid-lock': flat['hwid-lock'],
    vpnblock: app.vpnblock === 1,
    // The sandbox records client IPs (sessions, logs) with no switch to turn that off.
    ipLogging: true,
    version: flat['version'],
    download: flat['download'],
    webdownload: flat['webdownload'],
    webhook: flat['webhook'],
    resellerstore: flat['resellerstore'],
    sellixsecret: flat['sellixsecret'],
    cooldown: flat['cooldown'],
    hash: app.hash,
  };
}

/** `messages`: every custom client message, E's under their `getsettings` names, the rest under their own. */
function groupedMessages(flat: Readonly<Record<string, unknown>>, messages: Record<AppMessageKey, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const setting of MESSAGE_SETTINGS) out[setting.out] = flat[setting.out];
  for (const key of SANDBOX_MESSAGES) out[key] = messages[key];
  return out;
}

/**
 * The settings only the sandbox lets a seller change, under one `sandbox` key after E's fields
 * (absent from `format=text`, whose lines are E's), and the extensions of the seller API it
 * takes (`extensions`). Shop secrets are shown as set or not.
 */
function sandboxSettings(ctx: HandlerContext, messages: Record<AppMessageKey, string>): Record<string, unknown> {
  const app = ctx.app;
  const out: Record<string, unknown> = {
    hashcheck: app.hashcheck === 1,
    tokensystem: app.tokensystem === 1,
    forcehwid: app.forceHwid === 1,
    minhwid: app.minHwid,
    minusernamelength: app.minUsernameLength,
    vpnblock: app.vpnblock === 1,
    vpnranges: app.vpnranges,
    blockleakedpasswords: app.blockLeakedPasswords === 1,
    forceencryption: app.forceEncryption === 1,
    paused: app.paused === 1,
    shoppysecret: app.shoppysecret !== null,
    sellappsecret: app.sellappsecret !== null,
  };
  for (const setting of SHOP_PRODUCT_SETTINGS) out[setting] = app[setting];
  for (const key of SANDBOX_MESSAGES) out[key] = messages[key];
  out['tokens'] = tokenList(ctx);
  // What this server takes beyond the seller API, by name: kactl uses an extension only where
  // it is listed here (docs/protocol/seller-api.md §1.7).
  out['extensions'] = { [ADD_KEYS_EXTENSION]: MAX_KEYS_PER_CALL };
  return out;
}

/** The sandbox-only flags of updatesettings (see the catalog) and their columns. */
const SANDBOX_FLAGS: readonly [wire: string, column: keyof AppSettings][] = [
  ['hashcheck', 'hashcheck'],
  ['tokensystem', 'tokensystem'],
  ['forcehwid', 'forceHwid'],
  ['vpnblock', 'vpnblock'],
  ['blockleakedpasswords', 'blockLeakedPasswords'],
  ['forceencryption', 'forceEncryption'],
];
const SANDBOX_NUMBERS: readonly [wire: string, column: keyof AppSettings][] = [
  ['minhwid', 'minHwid'],
  ['minusernamelength', 'minUsernameLength'],
  ['cooldown', 'cooldown'],
];
const TEXT_SETTINGS: readonly [wire: string, column: keyof AppSettings][] = [
  ['ver', 'ver'],
  ['download', 'download'],
  ['webhook', 'webhook'],
  ['resellerstore', 'resellerstore'],
  ['sellixsecret', 'sellixsecret'],
  // Sandbox only, like the two lists above.
  ['webdownload', 'webdownload'],
  ['shoppysecret', 'shoppysecret'],
  ['sellappsecret', 'sellappsecret'],
  ...SHOP_PRODUCT_SETTINGS.map((setting): [string, keyof AppSettings] => [setting, setting]),
];
/** Messages with no E `updatesettings` parameter; the sandbox takes them under their own key. */
const SANDBOX_MESSAGES: readonly AppMessageKey[] = [
  'pausedsub', 'vpnblocked', 'keybanned', 'userbanned', 'sessionunauthed', 'hashcheckfail', 'loggedInMsg', 'pausedApp',
  'unTooShort', 'pwLeaked', 'chatHitDelay', 'tokeninvalid',
];

/** Why a sandbox-only value is refused (the catalog already checked types); undefined when fine. */
function sandboxSettingProblem(params: Params): string | undefined {
  for (const [wire] of SANDBOX_NUMBERS) {
    const value = params.get(wire);
    if (value !== undefined && Number(value) < 0) return `Invalid parameter: ${wire} must not be negative`;
  }
  const ranges = params.get('vpnranges');
  if (ranges !== undefined && !splitRanges(ranges).every(isValidCidr)) return 'Invalid parameter: vpnranges must be comma-separated CIDRs such as 10.8.0.0/16';
  return undefined;
}

/**
 * `updatesettings`: a partial update; only the parameters given are written. Beside E's
 * parameters the sandbox takes the settings E leaves to its dashboard (see the catalog).
 */
function updatesettings(ctx: HandlerContext, params: Params): Reply {
  const problem = sandboxSettingProblem(params) ?? tokenSettingProblem(ctx, params);
  if (problem !== undefined) return fail(problem);
  const patch: Partial<AppSettings> = {};
  const fields = patch as Record<string, string | number | boolean>;
  for (const [wire, column] of [['enabled', 'enabled'], ['hwidcheck', 'hwidcheck'], ...SANDBOX_FLAGS] as const) {
    const value = params.get(wire);
    if (value !== undefined) fields[column] = parseBooleanWord(value) === true;
  }
  for (const [wire, column] of SANDBOX_NUMBERS) {
    const value = params.get(wire);
    if (value !== undefined) fields[column] = Number(value);
  }
  for (const [column, wire] of TEXT_SETTINGS.map(([w, c]) => [c, w] as const)) {
    const value = params.get(wire);
    if (value !== undefined) fields[column] = value;
  }
  const ranges = params.get('vpnranges');
  if (ranges !== undefined) patch.vpnranges = splitRanges(ranges).join(',');
  ctx.store.tx(() => {
    updateAppSettings(ctx.store, ctx.app.id, patch);
    for (const setting of MESSAGE_SETTINGS) {
      const value = params.get(setting.param);
      if (value !== undefined) setAppMessage(ctx.store, ctx.app.id, setting.key, value);
    }
    for (const key of SANDBOX_MESSAGES) {
      const value = params.get(key);
      if (value !== undefined) setAppMessage(ctx.store, ctx.app.id, key, value);
    }
    applyTokenSettings(ctx, params);
  });
  return ok('Settings Update Successful');
}

function stats(ctx: HandlerContext): Reply {
  const { store, app } = ctx;
  const keys = licenseCounts(store, app.id);
  const accounts = listAppAccounts(store, app.id);
  const resellers = accounts.filter((a) => a.role === 'Reseller').length;
  const managers = accounts.filter((a) => a.role === 'Manager').length;
  const total = keys['Not Used'] + keys.Used + keys.Paused + keys.Banned;
  // Counts as strings and no `message`, as E.
  return reply(true, {
    unused: String(keys['Not Used']),
    used: String(keys.Used),
    paused: String(keys.Paused),
    banned: String(keys.Banned),
    totalkeys: String(total),
    webhooks: String(listWebhooks(store, app.id).length),
    files: String(listFiles(store, app.id).length),
    vars: String(listGlobalVars(store, app.id).length),
    resellers: String(resellers),
    managers: String(managers),
    totalaccs: String(resellers + managers),
  });
}

/**
 * Pausing a paused app (or unpausing a running one) is refused with the page's failure
 * sentence: E would run it again and report success, but a second pause has nothing to freeze.
 */
function pauseapp(ctx: HandlerContext): Reply {
  const done = ctx.store.tx(() => {
    if (getApp(ctx.store, ctx.app.id).paused) return false;
    pauseApp(ctx.store, ctx.app.id, ctx.now);
    // A paused app refuses logins; its live sessions end with it rather than outlast the pause.
    deleteAllSessions(ctx.store, ctx.app.id);
    return true;
  });
  return done ? ok('Successfully paused application') : fail('Failed to pause application');
}

function unpauseapp(ctx: HandlerContext): Reply {
  const done = ctx.store.tx(() => {
    if (!getApp(ctx.store, ctx.app.id).paused) return false;
    unpauseApp(ctx.store, ctx.app.id, ctx.now);
    return true;
  });
  return done ? ok('Successfully unpaused application') : fail('Failed to unpause application');
}

function addhash(ctx: HandlerContext, params: Params): Reply {
  addAppHash(ctx.store, ctx.app.id, checkedParams(params, 'addhash', { required: ['hash'] }).hash);
  return ok('Successfully added hash!');
}

function resethash(ctx: HandlerContext): Reply {
  resetAppHash(ctx.store, ctx.app.id);
  return ok('Successfully reset hash!');
}

/** A no-op: the endpoint has already accepted the key. */
function setseller(): Reply {
  return ok('Seller Key Successfully Found');
}

export const appHandlers: HandlerTable = {
  appdetails,
  getsettings,
  updatesettings,
  stats,
  pauseapp,
  unpauseapp,
  addhash,
  resethash,
  setseller,
};
