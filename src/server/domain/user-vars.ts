/**
 * Per-user variables. Writes are upserts keyed (user, name). A read-only variable can be
 * written by the seller only; the client `setvar` is refused.
 */
import type { Store } from '../store/store.js';
import type { UserVarRow } from './rows.js';

/** Longest name and value the real server stores. */
export const USER_VAR_NAME_MAX = 99;
export const USER_VAR_DATA_MAX = 500;

export function getUserVar(store: Store, userId: number, name: string): UserVarRow | undefined {
  return store.get<UserVarRow>('SELECT * FROM user_vars WHERE userId = ? AND name = ?', userId, name);
}

/** One user's variables, oldest first. */
export function listUserVars(store: Store, userId: number): UserVarRow[] {
  return store.all<UserVarRow>('SELECT * FROM user_vars WHERE userId = ? ORDER BY id', userId);
}

/** Every user variable of the app with its owner's name (seller `fetchalluservars`). */
export function listAppUserVars(store: Store, appId: number): { name: string; data: string; user: string; readOnly: number }[] {
  return store.all('SELECT v.name, v.data, u.username AS user, v.readOnly FROM user_vars v JOIN users u ON u.id = v.userId WHERE v.appId = ? ORDER BY v.id', appId);
}

export interface SetUserVarOptions {
  /** Mark the variable read-only for clients (seller only). Absent: keep the current flag (new: 0). */
  readonly readOnly?: boolean;
  /** Refuse to overwrite a read-only variable (client `setvar`). */
  readonly respectReadOnly?: boolean;
}

/** Writes a variable. `readonly` when `respectReadOnly` and the variable is read-only. */
export function setUserVar(store: Store, appId: number, userId: number, name: string, data: string, options: SetUserVarOptions = {}): 'set' | 'readonly' {
  return store.tx(() => {
    const existing = getUserVar(store, userId, name);
    if (existing !== undefined && existing.readOnly && options.respectReadOnly === true) return 'readonly';
    const readOnly = options.readOnly === undefined ? (existing?.readOnly ?? 0) : options.readOnly ? 1 : 0;
    store.run(
      'INSERT INTO user_vars (appId, userId, name, data, readOnly) VALUES (?, ?, ?, ?, ?) ON CONFLICT (userId, name) DO UPDATE SET data = excluded.data, readOnly = excluded.readOnly',
      appId, userId, name, data, readOnly,
    );
    return 'set';
  });
}

export function deleteUserVar(store: Store, userId: number, name: string): boolean {
  return store.run('DELETE FROM user_vars WHERE userId = ? AND name = ?', userId, name).changes > 0;
}

/** Deletes the variable `name` from every user of the app. Returns how many. */
export function deleteUserVarsByName(store: Store, appId: number, name: string): number {
  return store.run('DELETE FROM user_vars WHERE appId = ? AND name = ?', appId, name).changes;
}
