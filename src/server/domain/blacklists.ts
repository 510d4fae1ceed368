/**
 * Blacklists (HWIDs and IPs refused by the app) and whitelists (IPs exempt from the VPN block).
 * Matching is exact, as the real server's `hwid = ? OR ip = ?`.
 */
import type { Store } from '../store/store.js';
import type { BlacklistRow, BlacklistType } from './rows.js';
import { shownHwid } from './shown.js';

/** Whether the HWID or the IP is on the app's blacklist. Absent values never match. */
export function isBlacklisted(store: Store, appId: number, who: { hwid?: string | null | undefined; ip?: string | null | undefined }): boolean {
  const hwid = who.hwid ?? null;
  const ip = who.ip ?? null;
  if (hwid === null && ip === null) return false;
  const row = store.get<{ one: number }>(
    "SELECT 1 AS one FROM blacklists WHERE appId = ? AND ((type = 'hwid' AND hwid = ?) OR (type = 'ip' AND ip = ?)) LIMIT 1",
    appId, hwid, ip,
  );
  return row !== undefined;
}

/** Which of the HWID and the IP is blacklisted, in plain words; undefined when neither is. */
export function whyBlacklisted(store: Store, appId: number, who: { hwid?: string | null | undefined; ip?: string | null | undefined }): string | undefined {
  if (!isBlacklisted(store, appId, who)) return undefined;
  const hwidListed = who.hwid != null && isBlacklisted(store, appId, { hwid: who.hwid });
  return hwidListed ? `HWID ${shownHwid(who.hwid!)} is blacklisted` : `IP ${who.ip ?? '?'} is blacklisted`;
}

export const BLACKLIST_TYPES: readonly BlacklistType[] = ['ip', 'hwid', 'region', 'country', 'asn'];

export function isBlacklistType(value: string): value is BlacklistType {
  return (BLACKLIST_TYPES as readonly string[]).includes(value);
}

/** The type names a column below; refuse anything else before it reaches SQL text. */
function checkType(type: BlacklistType): void {
  if (!isBlacklistType(type)) throw new Error(`Unknown blacklist type: ${String(type)}`);
}

/** Adds one blacklist entry unless the same one exists. Returns whether a row was added. */
export function addBlacklist(store: Store, appId: number, type: BlacklistType, value: string): boolean {
  checkType(type);
  return store.tx(() => {
    const exists = store.get<{ one: number }>(`SELECT 1 AS one FROM blacklists WHERE appId = ? AND type = ? AND ${type} = ?`, appId, type, value);
    if (exists !== undefined) return false;
    store.run(`INSERT INTO blacklists (appId, type, ${type}) VALUES (?, ?, ?)`, appId, type, value);
    return true;
  });
}

/** Removes the entries of that type and value. Returns how many were removed. */
export function deleteBlacklist(store: Store, appId: number, type: BlacklistType, value: string): number {
  checkType(type);
  return store.run(`DELETE FROM blacklists WHERE appId = ? AND type = ? AND ${type} = ?`, appId, type, value).changes;
}

export function deleteAllBlacklists(store: Store, appId: number): number {
  return store.run('DELETE FROM blacklists WHERE appId = ?', appId).changes;
}

export function listBlacklists(store: Store, appId: number): BlacklistRow[] {
  return store.all<BlacklistRow>('SELECT * FROM blacklists WHERE appId = ? ORDER BY id', appId);
}

export function isWhitelisted(store: Store, appId: number, ip: string): boolean {
  return store.get<{ one: number }>('SELECT 1 AS one FROM whitelists WHERE appId = ? AND ip = ?', appId, ip) !== undefined;
}

/** Adds an IP to the whitelist. Returns false when it was there already. */
export function addWhitelist(store: Store, appId: number, ip: string): boolean {
  return store.run('INSERT OR IGNORE INTO whitelists (appId, ip) VALUES (?, ?)', appId, ip).changes > 0;
}

export function deleteWhitelist(store: Store, appId: number, ip: string): boolean {
  return store.run('DELETE FROM whitelists WHERE appId = ? AND ip = ?', appId, ip).changes > 0;
}

export function deleteAllWhitelists(store: Store, appId: number): number {
  return store.run('DELETE FROM whitelists WHERE appId = ?', appId).changes;
}
