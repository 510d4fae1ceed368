/**
 * The application settings a state file's `app:` section holds: each by the flag name of
 * `kactl app set`, where getsettings shows it (E's fields at the top level, the sandbox-only
 * ones under `sandbox`), and its kind in the file. Shop secrets are left out on purpose: they
 * cannot be read back (getsettings shows them as set or not) and never come out of `export`.
 */
import { PRODUCT_UNITS, SHOP_NAMES, shopProductFlag, shopProductSetting } from '../api/seller-catalog/shop-products.js';

export type SettingKind = 'flag' | 'count' | 'text';

export interface AppSetting {
  /** The `kactl app set` flag name, which is the state file's key. */
  name: string;
  /** The getsettings field that shows the value. */
  field: string;
  /** True when the field is under getsettings' `sandbox` object (sandbox-only settings). */
  sandbox: boolean;
  kind: SettingKind;
}

function top(name: string, field: string, kind: SettingKind = 'text'): AppSetting {
  return { name, field, sandbox: false, kind };
}

function sandboxOnly(name: string, field: string, kind: SettingKind = 'text'): AppSetting {
  return { name, field, sandbox: true, kind };
}

export const APP_SETTINGS: readonly AppSetting[] = [
  top('enabled', 'enabled', 'flag'), top('hwid-lock', 'hwid-lock', 'flag'), top('app-version', 'version'), top('download-url', 'download'),
  top('web-download-url', 'webdownload'), top('log-webhook', 'webhook'), top('reseller-store', 'resellerstore'),
  top('reset-cooldown-seconds', 'cooldown', 'count'),
  top('msg-app-disabled', 'disabledmsg'), top('msg-username-taken', 'usernametakenmsg'), top('msg-key-not-found', 'licenseinvalidmsg'),
  top('msg-key-used', 'keytakenmsg'), top('msg-no-sub-level', 'nosubmsg'), top('msg-username-not-found', 'userinvalidmsg'),
  top('msg-password-mismatch', 'passinvalidmsg'), top('msg-hwid-mismatch', 'hwidmismatchmsg'), top('msg-no-active-subs', 'noactivesubmsg'),
  top('msg-hwid-blacklisted', 'blackedmsg'),
  sandboxOnly('hash-check', 'hashcheck', 'flag'), sandboxOnly('token-system', 'tokensystem', 'flag'), sandboxOnly('force-hwid', 'forcehwid', 'flag'),
  sandboxOnly('min-hwid-length', 'minhwid', 'count'), sandboxOnly('min-username-length', 'minusernamelength', 'count'),
  sandboxOnly('vpn-block', 'vpnblock', 'flag'), sandboxOnly('vpn-ranges', 'vpnranges'),
  sandboxOnly('block-leaked-passwords', 'blockleakedpasswords', 'flag'), sandboxOnly('force-encryption', 'forceencryption', 'flag'),
  ...SHOP_NAMES.flatMap((shop) => PRODUCT_UNITS.map((unit) => sandboxOnly(shopProductFlag(shop, unit), shopProductSetting(shop, unit)))),
  sandboxOnly('msg-paused-sub', 'pausedsub'), sandboxOnly('msg-vpn-blocked', 'vpnblocked'), sandboxOnly('msg-key-banned', 'keybanned'),
  sandboxOnly('msg-user-banned', 'userbanned'), sandboxOnly('msg-session-unauthed', 'sessionunauthed'), sandboxOnly('msg-hash-check-fail', 'hashcheckfail'),
  sandboxOnly('msg-logged-in', 'loggedInMsg'), sandboxOnly('msg-paused-app', 'pausedApp'), sandboxOnly('msg-username-too-short', 'unTooShort'),
  sandboxOnly('msg-password-leaked', 'pwLeaked'), sandboxOnly('msg-chat-delay', 'chatHitDelay'), sandboxOnly('msg-token-invalid', 'tokeninvalid'),
];

export const APP_SETTING_NAMES: readonly string[] = APP_SETTINGS.map((s) => s.name);

export function appSetting(name: string): AppSetting | undefined {
  return APP_SETTINGS.find((s) => s.name === name);
}
