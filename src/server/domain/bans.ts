/**
 * Banning users. A ban sets the user's ban reason and blacklists an HWID and an IP, as the real
 * service does, except a loopback IP: every sandbox client shares loopback, so blacklisting it
 * would lock every client out (docs/design.md, "Bans and loopback").
 */
import type { Store } from '../store/store.js';
import { addBlacklist, deleteBlacklist } from './blacklists.js';
import { isLoopbackIp } from './ip.js';
import { endPanelSignInsOf } from './panel-sign-ins.js';
import type { UserRow } from './rows.js';
import { findUser } from './users.js';

export interface BanTargets {
  /** HWID to blacklist: the client `ban` sends one; the seller `banuser` uses the stored one. */
  readonly hwid?: string | null | undefined;
  /** IP to blacklist: the caller's for the client `ban`, the stored one for `banuser`. */
  readonly ip?: string | null | undefined;
}

/**
 * Bans `username` with `reason` and blacklists `targets`; the user's customer panel sign-ins end
 * (their client sessions are the caller's choice: the client `ban` keeps its own, as the real
 * service). Returns the user, or undefined if unknown.
 */
export function banUser(store: Store, appId: number, username: string, reason: string, targets: BanTargets): UserRow | undefined {
  return store.tx(() => {
    const user = findUser(store, appId, username);
    if (user === undefined) return undefined;
    store.run('UPDATE users SET banned = ? WHERE id = ?', reason, user.id);
    // Signed out of the customer panel for good: an unban must not bring the old sign-in back.
    endPanelSignInsOf(store, appId, user.id);
    if (targets.hwid) addBlacklist(store, appId, 'hwid', targets.hwid);
    if (targets.ip && !isLoopbackIp(targets.ip)) addBlacklist(store, appId, 'ip', targets.ip);
    return { ...user, banned: reason };
  });
}

/**
 * Lifts a ban: clears the reason and removes the blacklist entries of the user's stored HWID
 * and IP (seller `unbanuser`). Returns the user, or undefined if unknown.
 */
export function unbanUser(store: Store, appId: number, username: string): UserRow | undefined {
  return store.tx(() => {
    const user = findUser(store, appId, username);
    if (user === undefined) return undefined;
    store.run('UPDATE users SET banned = NULL WHERE id = ?', user.id);
    if (user.hwid) deleteBlacklist(store, appId, 'hwid', user.hwid);
    if (user.ip) deleteBlacklist(store, appId, 'ip', user.ip);
    return { ...user, banned: null };
  });
}
