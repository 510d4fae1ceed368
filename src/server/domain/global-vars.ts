/** Global ("app") variables: read by the client `var`, managed by the seller API. */
import type { Store } from '../store/store.js';
import type { GlobalVarRow } from './rows.js';

/** Longest variable name and value the real server stores. */
export const GLOBAL_VAR_NAME_MAX = 49;
export const GLOBAL_VAR_DATA_MAX = 1000;

export function findGlobalVar(store: Store, appId: number, varid: string): GlobalVarRow | undefined {
  return store.get<GlobalVarRow>('SELECT * FROM vars WHERE appId = ? AND varid = ?', appId, varid);
}

export function listGlobalVars(store: Store, appId: number): GlobalVarRow[] {
  return store.all<GlobalVarRow>('SELECT * FROM vars WHERE appId = ? ORDER BY id', appId);
}

/**
 * Creates a variable; `authed` = only validated sessions may read it. Returns false when the
 * name exists. Length limits are the caller's checks (their messages differ per API).
 */
export function createGlobalVar(store: Store, appId: number, varid: string, data: string, authed: boolean): boolean {
  return store.run('INSERT OR IGNORE INTO vars (appId, varid, msg, authed) VALUES (?, ?, ?, ?)', appId, varid, data, authed ? 1 : 0).changes > 0;
}

/** Changes a variable's value. Returns false when there is no such variable. */
export function setGlobalVar(store: Store, appId: number, varid: string, data: string): boolean {
  return store.run('UPDATE vars SET msg = ? WHERE appId = ? AND varid = ?', data, appId, varid).changes > 0;
}

export function deleteGlobalVar(store: Store, appId: number, varid: string): boolean {
  return store.run('DELETE FROM vars WHERE appId = ? AND varid = ?', appId, varid).changes > 0;
}

export function deleteAllGlobalVars(store: Store, appId: number): number {
  return store.run('DELETE FROM vars WHERE appId = ?', appId).changes;
}
