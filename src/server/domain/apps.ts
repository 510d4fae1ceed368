/** Applications: creation with the real service's defaults, lookup, settings, pause, hashes, counts. */
import type { Store } from '../store/store.js';
import { tableMemo } from '../store/table-memo.js';
import { seedAppMessages } from './messages.js';
import type { AppRow } from './rows.js';
import { SHOP_PRODUCT_SETTINGS, type ShopProductSetting } from '../../api/seller-catalog/shop-products.js';
import { freezeSubs, thawSubs } from './user-subs.js';

export interface NewApp {
  readonly name: string;
  readonly ownerid: string;
  readonly secret: string;
  readonly sellerKey: string;
  /** Owner account username (panel link). */
  readonly owner: string;
  readonly version?: string;
}

/**
 * Settings a seller (or a test) may change. Flags take booleans; they are stored as 0/1.
 * Names are the store's column names.
 */
export interface AppSettings extends Record<ShopProductSetting, string | null> {
  enabled: boolean;
  hwidcheck: boolean;
  vpnblock: boolean;
  ver: string;
  download: string | null;
  webdownload: string | null;
  webhook: string | null;
  resellerstore: string | null;
  sellixsecret: string | null;
  hashcheck: boolean;
  sessionLength: number;
  forceEncryption: boolean;
  forceHwid: boolean;
  minHwid: number;
  minUsernameLength: number;
  blockLeakedPasswords: boolean;
  tokensystem: boolean;
  killOtherSessions: boolean;
  cooldown: number;
  banned: boolean;
  shoppysecret: string | null;
  sellappsecret: string | null;
  vpnranges: string;
}

const SETTING_COLUMNS: ReadonlySet<string> = new Set<keyof AppSettings>([
  'enabled', 'hwidcheck', 'vpnblock', 'ver', 'download', 'webdownload', 'webhook', 'resellerstore',
  'sellixsecret', 'hashcheck', 'sessionLength', 'forceEncryption', 'forceHwid', 'minHwid',
  'minUsernameLength', 'blockLeakedPasswords', 'tokensystem', 'killOtherSessions', 'cooldown', 'banned',
  'shoppysecret', 'sellappsecret', 'vpnranges',
  ...SHOP_PRODUCT_SETTINGS,
]);

/** The subscription every new app starts with (docs/protocol/seller-api.md §3.10, `adduser`). */
export const DEFAULT_SUBSCRIPTION = { name: 'default', level: '1' } as const;

/**
 * Creates an app with the real service's defaults for new apps (HWID lock on, forceHwid on,
 * minHwid 20, sessions of 21600 s, every default message) and its `default` subscription at
 * level 1. Run inside a transaction when it must be atomic with other writes.
 */
export function createApp(store: Store, input: NewApp, now: number): AppRow {
  return store.tx(() => {
    const { lastInsertRowid: id } = store.run(
      'INSERT INTO apps (name, ownerid, secret, sellerKey, owner, ver, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?)',
      input.name, input.ownerid, input.secret, input.sellerKey, input.owner, input.version ?? '1.0', now,
    );
    seedAppMessages(store, id);
    store.run('INSERT INTO subscriptions (appId, name, level) VALUES (?, ?, ?)', id, DEFAULT_SUBSCRIPTION.name, DEFAULT_SUBSCRIPTION.level);
    return getApp(store, id);
  });
}

/** The app with this id; throws when it does not exist (ids come from our own rows). */
export function getApp(store: Store, appId: number): AppRow {
  const app = store.get<AppRow>('SELECT * FROM apps WHERE id = ?', appId);
  if (app === undefined) throw new Error(`No application with id ${appId}`);
  return app;
}

/** The app a client addresses with `name` + `ownerid` (exact, case-sensitive). */
export function findAppByNameAndOwnerid(store: Store, name: string, ownerid: string): AppRow | undefined {
  // Every client API request starts here, and an app row is wide: keep the rows found until the
  // apps table is written (store/table-memo.ts). Misses are not kept.
  const kept = appsByNameAndOwnerid(store);
  const key = `${name}\u0000${ownerid}`;
  const found = kept?.get(key);
  if (found !== undefined) return found;
  const row = store.get<AppRow>('SELECT * FROM apps WHERE name = ? AND ownerid = ?', name, ownerid);
  if (row !== undefined) kept?.set(key, row);
  return row;
}

const appsByNameAndOwnerid = tableMemo<AppRow>('apps', 10_000);

/** The app a seller key belongs to. */
export function findAppBySellerKey(store: Store, sellerKey: string): AppRow | undefined {
  return store.get<AppRow>('SELECT * FROM apps WHERE sellerKey = ?', sellerKey);
}

/** The app whose secret this is (the reseller shop hook names its app so). */
export function findAppBySecret(store: Store, secret: string): AppRow | undefined {
  return secret === '' ? undefined : store.get<AppRow>('SELECT * FROM apps WHERE secret = ?', secret);
}

/** Every app, oldest first (the first one is the sandbox's seeded app). */
export function listApps(store: Store): AppRow[] {
  return store.all<AppRow>('SELECT * FROM apps ORDER BY id');
}

/** Writes the given settings; absent keys are left alone. Returns the updated row. */
export function updateAppSettings(store: Store, appId: number, patch: Partial<AppSettings>): AppRow {
  const entries = Object.entries(patch).filter(([column, value]) => value !== undefined && SETTING_COLUMNS.has(column));
  if (entries.length > 0) {
    const assignments = entries.map(([column]) => `${column} = ?`).join(', ');
    const values = entries.map(([, value]) => (typeof value === 'boolean' ? (value ? 1 : 0) : value));
    store.run(`UPDATE apps SET ${assignments} WHERE id = ?`, ...values, appId);
  }
  return getApp(store, appId);
}

/**
 * Pauses the app: flags it and freezes every active user subscription (seller `pauseapp`).
 * Returns the number of subscriptions frozen.
 */
export function pauseApp(store: Store, appId: number, now: number): number {
  return store.tx(() => {
    store.run('UPDATE apps SET paused = 1 WHERE id = ?', appId);
    return freezeSubs(store, { appId }, now);
  });
}

/** Unpauses the app and thaws its paused subscriptions. Returns the number thawed. */
export function unpauseApp(store: Store, appId: number, now: number): number {
  return store.tx(() => {
    store.run('UPDATE apps SET paused = 0 WHERE id = ?', appId);
    return thawSubs(store, { appId }, now);
  });
}

/** Appends a program hash to the allowed-hash string (no separator, as the real server). */
export function addAppHash(store: Store, appId: number, hash: string): void {
  store.run("UPDATE apps SET hash = COALESCE(hash, '') || ? WHERE id = ?", hash, appId);
}

/**
 * The init hash check (docs/protocol/client-api.md §2.1): passes when the stored hash string contains `hash`.
 * While nothing is stored, the first hash seen is stored and passes (first one wins, even
 * between simultaneous inits).
 */
export function checkProgramHash(store: Store, appId: number, hash: string): boolean {
  return store.tx(() => {
    const stored = store.get<{ hash: string | null }>('SELECT hash FROM apps WHERE id = ?', appId)?.hash ?? null;
    if (stored === null) {
      store.run('UPDATE apps SET hash = ? WHERE id = ?', hash, appId);
      return true;
    }
    return stored.includes(hash);
  });
}

/** Forgets every stored program hash (the next init's hash is stored again). */
export function resetAppHash(store: Store, appId: number): void {
  store.run('UPDATE apps SET hash = NULL WHERE id = ?', appId);
}

/**
 * The customer panel link of the app: `<panelBase>/panel/<owner>/<app name>/`. The sandbox has
 * no panel of its own; callers pass the sandbox's base URL so the link at least names this server.
 */
export function customerPanelLink(app: AppRow, panelBase: string): string {
  return `${panelBase.replace(/\/+$/, '')}/panel/${encodeURIComponent(app.owner)}/${encodeURIComponent(app.name)}/`;
}

export interface AppCounts {
  readonly numUsers: number;
  /** Validated, unexpired sessions. */
  readonly numOnlineUsers: number;
  readonly numKeys: number;
}

/** The counts of `fetchStats`. */
export function appCounts(store: Store, appId: number, now: number): AppCounts {
  const count = (sql: string, ...args: (string | number)[]): number => store.get<{ n: number }>(sql, ...args)?.n ?? 0;
  return {
    numUsers: count('SELECT COUNT(*) AS n FROM users WHERE appId = ?', appId),
    numOnlineUsers: count('SELECT COUNT(*) AS n FROM sessions WHERE appId = ? AND validated = 1 AND expiry > ?', appId, now),
    numKeys: count('SELECT COUNT(*) AS n FROM licenses WHERE appId = ?', appId),
  };
}
