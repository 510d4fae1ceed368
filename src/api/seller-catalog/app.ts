/**
 * `kactl app`: the application's details, settings, stats, pause state and program hashes
 * (docs/protocol/seller-api.md §3.1).
 */
import type { ParamSpec, SellerOp } from './types.js';
import { col, orNull } from './columns.js';
import { PRODUCT_UNITS, shopProductFlag, shopProductSetting, type ShopName } from './shop-products.js';

/** A custom client-API message set through updatesettings (`--msg-<flag>`). */
function message(wire: string, flag: string, when: string): ParamSpec {
  return { wire, flag: `msg-${flag}`, type: 'string', required: false, description: `Message a client sees when ${when}` };
}

const SANDBOX_ONLY = '(sandbox only; the real service sets this on its dashboard)';

function sandboxFlag(wire: string, flag: string, type: 'booltext' | 'integer' | 'string', description: string, extra: Partial<ParamSpec> = {}): ParamSpec {
  return { wire, flag, type, required: false, description: `${description} ${SANDBOX_ONLY}`, ...extra };
}

function sandboxMessage(wire: string, flag: string, when: string): ParamSpec {
  return sandboxFlag(wire, `msg-${flag}`, 'string', `Message a client sees when ${when}`);
}

/** One product id per balance unit for a shop: each shop keeps its own (`--sellix-day-product` …). */
function shopProductFlags(shop: ShopName, what: string): ParamSpec[] {
  return PRODUCT_UNITS.map((unit) => sandboxFlag(shopProductSetting(shop, unit), shopProductFlag(shop, unit), 'string', `${what} whose sale adds ${unit} keys to a reseller balance`));
}

/**
 * Settings the real `updatesettings` does not take (the dashboard sets them) but the sandbox
 * does, so a tester can switch on what protected programs meet: the hash check, the token
 * system, HWID and username rules, the VPN block, leaked passwords, forced encryption, every
 * remaining message, and the shop hook's secrets and product ids. A real server ignores them.
 */
const SANDBOX_SETTINGS_PARAMS: readonly ParamSpec[] = [
  sandboxFlag('hashcheck', 'hash-check', 'booltext', 'Whether init must send a known program hash (true or false)'),
  sandboxFlag('tokensystem', 'token-system', 'booltext', 'Whether init must send a token file (true or false)'),
  sandboxFlag('addtoken', 'add-token', 'string', 'Register a token (32 hex characters) a program may send at init'),
  sandboxFlag('bantoken', 'ban-token', 'string', 'Ban a registered token: init with it is refused with the ban reason'),
  sandboxFlag('banreason', 'ban-reason', 'string', 'Why the token of --ban-token is banned (shown to the program)'),
  sandboxFlag('unbantoken', 'unban-token', 'string', 'Lift the ban of a registered token'),
  sandboxFlag('deltoken', 'delete-token', 'string', 'Forget a registered token (init with it then gets the token-invalid message)'),
  sandboxFlag('forcehwid', 'force-hwid', 'booltext', 'Whether login and license require a HWID (true or false)'),
  sandboxFlag('minhwid', 'min-hwid-length', 'integer', 'Shortest HWID accepted at login and license'),
  sandboxFlag('minusernamelength', 'min-username-length', 'integer', 'Shortest username accepted at register'),
  sandboxFlag('vpnblock', 'vpn-block', 'booltext', 'Whether init refuses VPN addresses (true or false)'),
  sandboxFlag('vpnranges', 'vpn-ranges', 'string', 'Comma-separated CIDRs the sandbox treats as VPN addresses'),
  sandboxFlag('blockleakedpasswords', 'block-leaked-passwords', 'booltext', 'Whether register refuses well-known breached passwords (true or false)'),
  sandboxFlag('forceencryption', 'force-encryption', 'booltext', 'Whether 1.2 init must send an enckey (true or false)'),
  sandboxFlag('webdownload', 'web-download-url', 'string', 'Download link shown on the customer panel'),
  sandboxFlag('cooldown', 'reset-cooldown-seconds', 'integer', 'Seconds a user waits between HWID resets on the customer panel', { unit: 'seconds' }),
  sandboxFlag('shoppysecret', 'shoppy-secret', 'string', 'Shoppy webhook secret', { secret: true }),
  sandboxFlag('sellappsecret', 'sellapp-secret', 'string', 'SellApp webhook secret', { secret: true }),
  ...shopProductFlags('sellix', 'Sellix product id'),
  ...shopProductFlags('shoppy', 'Shoppy product id'),
  ...shopProductFlags('sellapp', 'SellApp listing slug'),
  sandboxMessage('pausedsub', 'paused-sub', "the user's subscription is paused"),
  sandboxMessage('vpnblocked', 'vpn-blocked', 'init comes from a VPN address'),
  sandboxMessage('keybanned', 'key-banned', 'a license is banned ({reason} is replaced)'),
  sandboxMessage('userbanned', 'user-banned', 'a user is banned ({reason} is replaced)'),
  sandboxMessage('sessionunauthed', 'session-unauthed', 'the session is not logged in'),
  sandboxMessage('hashcheckfail', 'hash-check-fail', 'the program hash is not allowed'),
  sandboxMessage('loggedInMsg', 'logged-in', 'login succeeds'),
  sandboxMessage('pausedApp', 'paused-app', 'the application is paused'),
  sandboxMessage('unTooShort', 'username-too-short', 'a username is too short'),
  sandboxMessage('pwLeaked', 'password-leaked', 'a password is a known breached one'),
  sandboxMessage('chatHitDelay', 'chat-delay', 'a user chats faster than the channel allows'),
  sandboxMessage('tokeninvalid', 'token-invalid', 'the token file is not known'),
];

/**
 * Parameters of updatesettings. Every one is optional: only non-empty values are written.
 * `keypaused`, `keyexpired` and the `*product` ids are documented (D23/AD) but ignored by E,
 * so no flag offers them: it would promise an effect the server does not have.
 */
const SETTINGS_PARAMS: readonly ParamSpec[] = [
  { wire: 'enabled', flag: 'enabled', type: 'booltext', required: false, description: 'Whether the application accepts clients (true or false)' },
  { wire: 'hwidcheck', flag: 'hwid-lock', type: 'booltext', required: false, description: 'Whether users are locked to their HWID (true or false)' },
  // `--version` would read as kactl's own version flag; the profile setting is also appVersion.
  { wire: 'ver', flag: 'app-version', type: 'string', required: false, description: 'Version clients must report' },
  { wire: 'download', flag: 'download-url', type: 'string', required: false, description: 'Auto-update download link given to outdated clients' },
  { wire: 'webhook', flag: 'log-webhook', type: 'string', required: false, description: 'Discord webhook URL that receives client logs' },
  { wire: 'resellerstore', flag: 'reseller-store', type: 'string', required: false, description: 'Link to the custom reseller store' },
  message('appdisabled', 'app-disabled', 'the application is disabled'),
  message('usernametaken', 'username-taken', 'a username is already taken'),
  message('keynotfound', 'key-not-found', 'a license does not exist'),
  message('keyused', 'key-used', 'a license is already used'),
  message('nosublevel', 'no-sub-level', 'no subscription matches the license level'),
  message('usernamenotfound', 'username-not-found', 'a username does not exist'),
  message('passmismatch', 'password-mismatch', 'a password is wrong'),
  message('hwidmismatch', 'hwid-mismatch', 'the HWID does not match'),
  message('noactivesubs', 'no-active-subs', 'the user has no active subscription'),
  message('hwidblacked', 'hwid-blacklisted', 'the HWID is blacklisted'),
  { wire: 'sellixsecret', flag: 'sellix-secret', type: 'string', required: false, secret: true, description: 'Sellix webhook secret' },
  ...SANDBOX_SETTINGS_PARAMS,
];

export const APP_OPS: readonly SellerOp[] = [
  {
    type: 'appdetails',
    group: 'app',
    command: ['details'],
    summary: "Show the application's name, owner id, secret and version",
    params: [],
    // The secret is shown on purpose: it is what a client profile needs for 1.2 signatures.
    response: { kind: 'object', key: 'appdetails', fields: [col('name', 'NAME'), col('ownerid', 'OWNER ID', 'id'), col('version', 'VERSION'), col('secret', 'SECRET', 'secret')] },
    effect: 'read',
    example: 'kactl app details',
    source: 'E',
  },
  {
    type: 'getsettings',
    group: 'app',
    command: ['settings'],
    summary: "Show the application's current settings and custom messages",
    params: [],
    response: {
      kind: 'flat',
      noMessage: true,
      // `sellixsecret` is left out of the default view; --json still carries it. The only
      // answer with JSON booleans; links not set are null.
      fields: [
        { ...col('enabled', 'ENABLED', 'boolean'), wire: 'boolean' }, { ...col('hwid-lock', 'HWID LOCK', 'boolean'), wire: 'boolean' }, col('version', 'VERSION'),
        orNull(col('download', 'DOWNLOAD URL')), orNull(col('webdownload', 'WEB DOWNLOAD URL')), orNull(col('webhook', 'WEBHOOK')),
        orNull(col('resellerstore', 'RESELLER STORE')), col('cooldown', 'HWID RESET COOLDOWN', 'duration'),
        col('disabledmsg', 'DISABLED MESSAGE'), col('usernametakenmsg', 'USERNAME TAKEN MESSAGE'),
        col('licenseinvalidmsg', 'LICENSE INVALID MESSAGE'), col('keytakenmsg', 'KEY TAKEN MESSAGE'),
        col('nosubmsg', 'NO SUBSCRIPTION MESSAGE'), col('userinvalidmsg', 'USER INVALID MESSAGE'),
        col('passinvalidmsg', 'PASSWORD INVALID MESSAGE'), col('hwidmismatchmsg', 'HWID MISMATCH MESSAGE'),
        col('noactivesubmsg', 'NO ACTIVE SUBSCRIPTION MESSAGE'), col('blackedmsg', 'BLACKLISTED MESSAGE'),
      ],
    },
    effect: 'read',
    textFormat: true,
    example: 'kactl app settings',
    source: 'E',
  },
  {
    type: 'updatesettings',
    group: 'app',
    command: ['set'],
    summary: 'Change application settings; only the flags given are written',
    params: SETTINGS_PARAMS,
    response: { kind: 'message' },
    effect: 'write',
    textFormat: true,
    example: 'kactl app set --hwid-lock false --app-version 1.2 --download-url https://example.com/app-1.2.zip',
    source: 'E',
  },
  {
    type: 'stats',
    group: 'app',
    command: ['stats'],
    summary: 'Show license, account and content counts',
    params: [],
    response: {
      kind: 'flat',
      noMessage: true,
      fields: [
        col('totalkeys', 'KEYS', 'number'), col('unused', 'UNUSED KEYS', 'number'), col('used', 'USED KEYS', 'number'), col('paused', 'PAUSED KEYS', 'number'), col('banned', 'BANNED KEYS', 'number'), col('webhooks', 'WEBHOOKS', 'number'), col('files', 'FILES', 'number'), col('vars', 'VARIABLES', 'number'), col('resellers', 'RESELLERS', 'number'), col('managers', 'MANAGERS', 'number'), col('totalaccs', 'USERS', 'number'),
      ],
    },
    effect: 'read',
    example: 'kactl app stats',
    source: 'E',
  },
  {
    type: 'pauseapp',
    group: 'app',
    command: ['pause'],
    summary: "Pause the application, freezing every active user's remaining time",
    params: [],
    response: { kind: 'message' },
    // Reversible with unpause and loses nothing, so no bulk confirmation.
    effect: 'write',
    textFormat: true,
    example: 'kactl app pause',
    source: 'E',
  },
  {
    type: 'unpauseapp',
    group: 'app',
    command: ['unpause'],
    summary: 'Unpause the application, restarting the frozen subscriptions',
    params: [],
    response: { kind: 'message' },
    effect: 'write',
    textFormat: true,
    example: 'kactl app unpause',
    source: 'E',
  },
  {
    type: 'addhash',
    group: 'app',
    command: ['hash', 'add'],
    summary: "Allow another build of the program by adding its MD5 hash",
    params: [{ wire: 'hash', flag: 'md5', type: 'string', required: true, description: 'MD5 hash of the program file' }],
    response: { kind: 'message' },
    effect: 'write',
    textFormat: true,
    example: 'kactl app hash add --md5 5d41402abc4b2a76b9719d911017c592',
    source: 'E',
  },
  {
    type: 'resethash',
    group: 'app',
    command: ['hash', 'reset'],
    summary: 'Forget every stored program hash',
    params: [],
    response: { kind: 'message' },
    // One field, but clients fail the hash check until hashes are added again: ask first.
    // No operation lists the stored hashes, so there is nothing to back up.
    effect: 'delete-one',
    textFormat: true,
    example: 'kactl app hash reset',
    source: 'E',
  },
  {
    type: 'setseller',
    group: 'app',
    command: ['verify-key'],
    summary: 'Check that the seller key is accepted (changes nothing)',
    params: [],
    response: { kind: 'message' },
    effect: 'read',
    textFormat: true,
    example: 'kactl app verify-key',
    source: 'E',
  },
];
