/**
 * The subscriptions users hold. Active means `expiry > now` and not paused. Pausing stores the
 * remaining seconds in `expiry` and sets `paused`; unpausing adds `now` back (docs/protocol/client-api.md §6).
 */
import type { Store } from '../store/store.js';
import type { UserSubRow } from './rows.js';
import { subscriptionsAtLevel } from './subscriptions.js';

/** Which user subscriptions a bulk change touches: always one app, optionally one user / name. */
export interface SubFilter {
  readonly appId: number;
  readonly userId?: number;
  readonly subscription?: string;
}

function where(filter: SubFilter): { sql: string; args: (string | number)[] } {
  let sql = 'appId = ?';
  const args: (string | number)[] = [filter.appId];
  if (filter.userId !== undefined) {
    sql += ' AND userId = ?';
    args.push(filter.userId);
  }
  if (filter.subscription !== undefined) {
    sql += ' AND subscription = ?';
    args.push(filter.subscription);
  }
  return { sql, args };
}

/** Every subscription row of the user, paused and expired included, in grant order. */
export function listUserSubs(store: Store, userId: number): UserSubRow[] {
  return store.all<UserSubRow>('SELECT * FROM user_subs WHERE userId = ? ORDER BY id', userId);
}

/** The user's active subscriptions, in grant order. */
export function activeUserSubs(store: Store, userId: number, now: number): UserSubRow[] {
  return store.all<UserSubRow>('SELECT * FROM user_subs WHERE userId = ? AND paused = 0 AND expiry > ? ORDER BY id', userId, now);
}

export function hasPausedSubs(store: Store, userId: number): boolean {
  return store.get<{ one: number }>('SELECT 1 AS one FROM user_subs WHERE userId = ? AND paused = 1 LIMIT 1', userId) !== undefined;
}

/** When the user's last subscription ended (Unix seconds), or undefined when they never had one. */
export function lastSubExpiry(store: Store, userId: number): number | undefined {
  return store.get<{ last: number | null }>('SELECT MAX(expiry) AS last FROM user_subs WHERE userId = ?', userId)?.last ?? undefined;
}

export interface NewUserSub {
  readonly appId: number;
  readonly userId: number;
  readonly subscription: string;
  readonly expiry: number;
  readonly key?: string | null;
}

export function insertUserSub(store: Store, sub: NewUserSub): void {
  store.run('INSERT INTO user_subs (appId, userId, subscription, expiry, paused, key) VALUES (?, ?, ?, ?, 0, ?)', sub.appId, sub.userId, sub.subscription, sub.expiry, sub.key ?? null);
}

/**
 * Register / license / seller `activate`: one subscription for **each** definition at `level`,
 * expiring `now + duration`, tagged with `key`. Returns how many were granted (0 = no
 * definition at that level; the caller should have refused with `nosublevel`).
 */
export function grantSubsForLevel(store: Store, appId: number, userId: number, level: string, duration: number, key: string | null, now: number): number {
  const defs = subscriptionsAtLevel(store, appId, level);
  for (const def of defs) insertUserSub(store, { appId, userId, subscription: def.name, expiry: now + duration, key });
  return defs.length;
}

/**
 * Adds `seconds` to the user's active subscription named `subscription`, or grants it anew
 * expiring `now + seconds` when they hold no active one (client `upgrade`, seller `extend` /
 * `assignkey`). `key` is recorded only on a new row.
 */
export function extendOrGrantSub(store: Store, appId: number, userId: number, subscription: string, seconds: number, now: number, key: string | null = null): 'extended' | 'granted' {
  const extended = store.run(
    'UPDATE user_subs SET expiry = expiry + ? WHERE id = (SELECT id FROM user_subs WHERE userId = ? AND subscription = ? AND paused = 0 AND expiry > ? ORDER BY id LIMIT 1)',
    seconds, userId, subscription, now,
  );
  if (extended.changes > 0) return 'extended';
  insertUserSub(store, { appId, userId, subscription, expiry: now + seconds, key });
  return 'granted';
}

/** The upgrade rule (docs/protocol/client-api.md §4.6): the **first** definition at `level`, extended if active. */
export function upgradeSubForLevel(store: Store, appId: number, userId: number, level: string, duration: number, now: number): 'extended' | 'granted' | 'nosublevel' {
  const first = subscriptionsAtLevel(store, appId, level)[0];
  if (first === undefined) return 'nosublevel';
  return extendOrGrantSub(store, appId, userId, first.name, duration, now);
}

/** Freezes the active subscriptions matched by `filter`. Returns how many. */
export function freezeSubs(store: Store, filter: SubFilter, now: number): number {
  const { sql, args } = where(filter);
  return store.run(`UPDATE user_subs SET expiry = expiry - ?, paused = 1 WHERE ${sql} AND paused = 0 AND expiry > ?`, now, ...args, now).changes;
}

/** Thaws the paused subscriptions matched by `filter`. Returns how many. */
export function thawSubs(store: Store, filter: SubFilter, now: number): number {
  const { sql, args } = where(filter);
  return store.run(`UPDATE user_subs SET expiry = expiry + ?, paused = 0 WHERE ${sql} AND paused = 1`, now, ...args).changes;
}

/** Takes `seconds` off the active subscriptions matched by `filter`. Returns how many. */
export function subtractFromSubs(store: Store, filter: SubFilter, seconds: number, now: number): number {
  const { sql, args } = where(filter);
  return store.run(`UPDATE user_subs SET expiry = expiry - ? WHERE ${sql} AND paused = 0 AND expiry > ?`, seconds, ...args, now).changes;
}

/** Deletes the user's subscriptions named `subscription`. Returns how many. */
export function deleteUserSub(store: Store, userId: number, subscription: string): number {
  return store.run('DELETE FROM user_subs WHERE userId = ? AND subscription = ?', userId, subscription).changes;
}

/** Deletes the subscriptions a license created (seller `del`). Returns how many. */
export function deleteSubsOfKey(store: Store, appId: number, key: string): number {
  return store.run('DELETE FROM user_subs WHERE appId = ? AND key = ?', appId, key).changes;
}

/** Active subscriptions named `subscription` across the app (seller `countsubs`). */
export function countActiveSubs(store: Store, appId: number, subscription: string, now: number): number {
  return store.get<{ n: number }>('SELECT COUNT(*) AS n FROM user_subs WHERE appId = ? AND subscription = ? AND paused = 0 AND expiry > ?', appId, subscription, now)?.n ?? 0;
}
