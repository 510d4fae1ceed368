/**
 * The app-configurable client messages (docs/protocol/client-api.md §5.4) and how they are read.
 * New apps get every default as a row; a key missing from an older store falls back to the
 * default, so adding a key later needs no migration.
 */
import type { Store } from '../store/store.js';

export const DEFAULT_APP_MESSAGES = {
  appdisabled: 'This application is disabled',
  usernametaken: 'Username already taken, choose a different one',
  keynotfound: 'Invalid license key',
  keyused: 'License key has already been used',
  nosublevel: 'There is no subscription created for your key level. Contact application developer.',
  usernamenotfound: 'Invalid username',
  passmismatch: 'Password does not match.',
  hwidmismatch: "HWID doesn't match. Ask for a HWID reset",
  noactivesubs: 'No active subscription(s) found',
  hwidblacked: "You've been blacklisted from our application",
  pausedsub: "Your subscription is paused and can't be used right now",
  vpnblocked: 'VPNs are blocked on this application',
  keybanned: 'Your license is banned',
  userbanned: 'The user is banned',
  sessionunauthed: 'Session is not validated',
  hashcheckfail: "This program hash does not match, make sure you're using latest version",
  loggedInMsg: 'Logged in!',
  pausedApp: 'Application is currently paused, please wait for the developer to say otherwise.',
  unTooShort: 'Username too short, try longer one.',
  pwLeaked: 'This password has been leaked in a data breach (not from us), please use a different one.',
  chatHitDelay: "Chat slower, you've hit the delay limit",
  tokeninvalid: 'Token Invalid',
} as const;

export type AppMessageKey = keyof typeof DEFAULT_APP_MESSAGES;

export const APP_MESSAGE_KEYS = Object.keys(DEFAULT_APP_MESSAGES) as AppMessageKey[];

export function isAppMessageKey(key: string): key is AppMessageKey {
  return Object.hasOwn(DEFAULT_APP_MESSAGES, key);
}

/**
 * The app's text for `key`. `{reason}` inside it is replaced by `reason` (keybanned,
 * userbanned), as the real server does.
 */
export function appMessage(store: Store, appId: number, key: AppMessageKey, reason?: string | null): string {
  const row = store.get<{ text: string }>('SELECT text FROM app_messages WHERE appId = ? AND key = ?', appId, key);
  const text = row?.text ?? DEFAULT_APP_MESSAGES[key];
  return reason === undefined ? text : text.split('{reason}').join(reason ?? '');
}

/** Every message of the app, defaults filled in, in §5.4 order. */
export function appMessages(store: Store, appId: number): Record<AppMessageKey, string> {
  const rows = store.all<{ key: string; text: string }>('SELECT key, text FROM app_messages WHERE appId = ?', appId);
  const out = { ...DEFAULT_APP_MESSAGES } as Record<AppMessageKey, string>;
  for (const row of rows) if (isAppMessageKey(row.key)) out[row.key] = row.text;
  return out;
}

/** Sets (or replaces) one message of the app. */
export function setAppMessage(store: Store, appId: number, key: AppMessageKey, text: string): void {
  store.run('INSERT INTO app_messages (appId, key, text) VALUES (?, ?, ?) ON CONFLICT (appId, key) DO UPDATE SET text = excluded.text', appId, key, text);
}

/** Writes every default message for a new app. */
export function seedAppMessages(store: Store, appId: number): void {
  for (const key of APP_MESSAGE_KEYS) setAppMessage(store, appId, key, DEFAULT_APP_MESSAGES[key]);
}
