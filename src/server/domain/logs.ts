/** Client `log` lines kept for the seller. */
import type { Store } from '../store/store.js';
import type { LogRow } from './rows.js';

export const LOG_MESSAGE_MAX = 275;
export const LOG_PCUSER_MAX = 32;
/** Accounts with role `tester` keep at most this many log rows (docs/protocol/client-api.md §4.18). */
export const TESTER_LOG_CAP = 20;

export interface NewLog {
  readonly logdata: string;
  readonly credential: string | null;
  readonly pcuser: string | null;
}

/**
 * Stores a log line. When the app's owner has role `tester` and the cap is reached the line is
 * dropped. Returns whether it was stored.
 */
export function addLog(store: Store, appId: number, input: NewLog, now: number): boolean {
  return store.tx(() => {
    const role = store.get<{ role: string }>('SELECT a.role FROM apps p JOIN accounts a ON a.username = p.owner AND a.appId IS NULL WHERE p.id = ?', appId)?.role;
    if (role === 'tester' && countLogs(store, appId) >= TESTER_LOG_CAP) return false;
    store.run('INSERT INTO logs (appId, logdate, logdata, credential, pcuser) VALUES (?, ?, ?, ?, ?)', appId, now, input.logdata, input.credential, input.pcuser);
    return true;
  });
}

export function countLogs(store: Store, appId: number): number {
  return store.get<{ n: number }>('SELECT COUNT(*) AS n FROM logs WHERE appId = ?', appId)?.n ?? 0;
}

export function listLogs(store: Store, appId: number): LogRow[] {
  return store.all<LogRow>('SELECT * FROM logs WHERE appId = ? ORDER BY id', appId);
}

export function deleteAllLogs(store: Store, appId: number): number {
  return store.run('DELETE FROM logs WHERE appId = ?', appId).changes;
}
