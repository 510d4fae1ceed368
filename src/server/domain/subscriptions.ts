/**
 * Subscription definitions: a name and a level. A license grants the subscriptions whose level
 * equals its own; several names may share a level.
 */
import type { Store } from '../store/store.js';
import type { SubscriptionRow } from './rows.js';

export function listSubscriptions(store: Store, appId: number): SubscriptionRow[] {
  return store.all<SubscriptionRow>('SELECT * FROM subscriptions WHERE appId = ? ORDER BY id', appId);
}

export function findSubscription(store: Store, appId: number, name: string): SubscriptionRow | undefined {
  return store.get<SubscriptionRow>('SELECT * FROM subscriptions WHERE appId = ? AND name = ?', appId, name);
}

/** Every definition at `level`, oldest first; the first is the one `upgrade` uses. */
export function subscriptionsAtLevel(store: Store, appId: number, level: string): SubscriptionRow[] {
  return store.all<SubscriptionRow>('SELECT * FROM subscriptions WHERE appId = ? AND level = ? ORDER BY id', appId, level);
}

/** Creates a definition. Returns false when the name exists already. */
export function createSubscription(store: Store, appId: number, name: string, level: string): boolean {
  return store.run('INSERT OR IGNORE INTO subscriptions (appId, name, level) VALUES (?, ?, ?)', appId, name, level).changes > 0;
}

/** Changes a definition's level. Returns false when there is no such name. */
export function setSubscriptionLevel(store: Store, appId: number, name: string, level: string): boolean {
  return store.run('UPDATE subscriptions SET level = ? WHERE appId = ? AND name = ?', level, appId, name).changes > 0;
}

/** Deletes a definition; users keep the subscriptions they hold under that name. */
export function deleteSubscription(store: Store, appId: number, name: string): boolean {
  return store.run('DELETE FROM subscriptions WHERE appId = ? AND name = ?', appId, name).changes > 0;
}
