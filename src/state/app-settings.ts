/**
 * The application settings a state file's `app:` section holds: each by the flag name of
 * `kactl app set`, where getsettings shows it (E's fields at the top level, the sandbox-only
 * ones under `sandbox`), and its kind in the file. Shop secrets are left out on purpose: they
 * cannot be read back (getsettings shows them as set or not) and never come out of `export`.
 * A client message knows the text every new app starts with (the sandbox's, which are the
 * hosted service's: src/server/domain/messages.ts), so `export` writes only the ones a seller
 * changed.
 */
import { PRODUCT_UNITS, SHOP_NAMES, shopProductFlag, shopProductSetting } from '../api/seller-catalog/shop-products.js';
import { DEFAULT_APP_MESSAGES, type AppMessageKey } from '../server/domain/messages.js';

export type SettingKind = 'flag' | 'count' | 'text';

export interface AppSetting {
  /** The `kactl app set` flag name, which is the state file's key. */
  name: string;
  /** The getsettings field that shows the value. */
  field: string;
  /** True when the field is under getsettings' `sandbox` object (sandbox-only settings). */
  sandbox: boolean;
  kind: SettingKind;
  /** A client message's text in a new app. */
  defaultText?: string;
}

function top(name: string, field: string, kind: SettingKind = 'text'): AppSetting {
  return { name, field, sandbox: false, kind };
}

function sandboxOnly(name: string, field: string, kind: SettingKind = 'text'): AppSetting {
  return { name, field, sandbox: true, kind };
}

/** A client message: `key` names its default (the sandbox-only ones are listed under their key). */
function message(name: string, field: string, key: AppMessageKey, sandbox = false): AppSetting {
  return { name, field, sandbox, kind: 'text', defaultText: DEFAULT_APP_MESSAGES[key] };
}

export const APP_SETTINGS: readonly AppSetting[] = [
  top('enabled', 'enabled', 'flag'), top('hwid-lock', 'hwid-lock', 'flag'), top('app-version', 'version'), top('download-url', 'download'),
  top('web-download-url', 'webdownload'), top('log-webhook', 'webhook'), top('reseller-store', 'resellerstore'),
  top('reset-cooldown-seconds', 'cooldown', 'count'),
  message('msg-app-disabled', 'disabledmsg', 'appdisabled'), message('msg-username-taken', 'usernametakenmsg', 'usernametaken'),
  message('msg-key-not-found', 'licenseinvalidmsg', 'keynotfound'), message('msg-key-used', 'keytakenmsg', 'keyused'),
  message('msg-no-sub-level', 'nosubmsg', 'nosublevel'), message('msg-username-not-found', 'userinvalidmsg', 'usernamenotfound'),
  message('msg-password-mismatch', 'passinvalidmsg', 'passmismatch'), message('msg-hwid-mismatch', 'hwidmismatchmsg', 'hwidmismatch'),
  message('msg-no-active-subs', 'noactivesubmsg', 'noactivesubs'), message('msg-hwid-blacklisted', 'blackedmsg', 'hwidblacked'),
  sandboxOnly('hash-check', 'hashcheck', 'flag'), sandboxOnly('token-system', 'tokensystem', 'flag'), sandboxOnly('force-hwid', 'forcehwid', 'flag'),
  sandboxOnly('min-hwid-length', 'minhwid', 'count'), sandboxOnly('min-username-length', 'minusernamelength', 'count'),
  sandboxOnly('vpn-block', 'vpnblock', 'flag'), sandboxOnly('vpn-ranges', 'vpnranges'),
  sandboxOnly('block-leaked-passwords', 'blockleakedpasswords', 'flag'), sandboxOnly('force-encryption', 'forceencryption', 'flag'),
  ...SHOP_NAMES.flatMap((shop) => PRODUCT_UNITS.map((unit) => sandboxOnly(shopProductFlag(shop, unit), shopProductSetting(shop, unit)))),
  ...([
    ['msg-paused-sub', 'pausedsub'], ['msg-vpn-blocked', 'vpnblocked'], ['msg-key-banned', 'keybanned'], ['msg-user-banned', 'userbanned'],
    ['msg-session-unauthed', 'sessionunauthed'], ['msg-hash-check-fail', 'hashcheckfail'], ['msg-logged-in', 'loggedInMsg'], ['msg-paused-app', 'pausedApp'],
    ['msg-username-too-short', 'unTooShort'], ['msg-password-leaked', 'pwLeaked'], ['msg-chat-delay', 'chatHitDelay'], ['msg-token-invalid', 'tokeninvalid'],
  ] as const).map(([name, key]) => message(name, key, key, true)),
];

export const APP_SETTING_NAMES: readonly string[] = APP_SETTINGS.map((s) => s.name);

export function appSetting(name: string): AppSetting | undefined {
  return APP_SETTINGS.find((s) => s.name === name);
}
