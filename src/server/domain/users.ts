/**
 * End users of an app: creation, lookup (by name, by email hash), account fields, rename with
 * cascade, HWID changes, deletion. Bans live in bans.ts; the login rules in login.ts.
 */
import { createHash } from 'node:crypto';
import type { Store } from '../store/store.js';
import { failure, success, type Outcome } from './outcome.js';
import type { UserRow } from './rows.js';
import { endAppPanelSignIns } from './panel-sign-ins.js';
import { deleteSessionsOf } from './sessions.js';

/** How the real service stores an email: SHA-1 hex of the lower-cased address, never the address. */
export function hashEmail(email: string): string {
  return createHash('sha1').update(email.toLowerCase()).digest('hex');
}

/**
 * The web-loader login token of a user (docs/protocol/client-api.md §4.29), 32 hex characters like the real
 * one; null while the user has no password. It changes whenever the password does.
 *
 * The real server uses MD5 of the hash's last five characters: about 30 bits, so it can be
 * guessed, and the seller API's `userdata` hands it out. Here it is SHA-256 over the whole
 * stored hash (random salt included), cut to 128 bits: no guessable input, and nothing of the
 * hash can be recovered from it.
 */
export function webLoaderToken(user: Pick<UserRow, 'passwordHash'>): string | null {
  if (user.passwordHash === null) return null;
  return createHash('sha256').update(`kactl web-loader token\0${user.passwordHash}`).digest('hex').slice(0, 32);
}

export function findUser(store: Store, appId: number, username: string): UserRow | undefined {
  return store.get<UserRow>('SELECT * FROM users WHERE appId = ? AND username = ?', appId, username);
}

export function getUserById(store: Store, userId: number): UserRow | undefined {
  return store.get<UserRow>('SELECT * FROM users WHERE id = ?', userId);
}

/** The user whose stored email hash matches `email` (hashed here). First created wins. */
export function findUserByEmail(store: Store, appId: number, email: string): UserRow | undefined {
  return store.get<UserRow>('SELECT * FROM users WHERE appId = ? AND emailHash = ? ORDER BY id LIMIT 1', appId, hashEmail(email));
}

/** The app's users, oldest first; `limit` caps the list (the seller API caps at 520). */
export function listUsers(store: Store, appId: number, limit = -1): UserRow[] {
  return store.all<UserRow>('SELECT * FROM users WHERE appId = ? ORDER BY id LIMIT ?', appId, limit);
}

export interface NewUser {
  readonly username: string;
  /** From passwords.ts `hashPassword`; null = no password, so no password login (login.ts). */
  readonly passwordHash: string | null;
  /** Plain address; stored only as its hash. */
  readonly email?: string | null | undefined;
  readonly hwid?: string | null | undefined;
  readonly ip?: string | null | undefined;
  /** Who created the user: the key's creator, `SellerAPI`, ... */
  readonly owner?: string | null | undefined;
  /** Set lastlogin = now too (client register: the user is logged in at once). */
  readonly loggedIn?: boolean;
}

/**
 * Inserts a user. The caller has checked that the name is free, inside the same transaction;
 * a clash still fails safely on the UNIQUE (appId, username) constraint.
 */
export function createUser(store: Store, appId: number, input: NewUser, now: number): UserRow {
  const { lastInsertRowid } = store.run(
    'INSERT INTO users (appId, username, emailHash, passwordHash, hwid, ip, owner, createdate, lastlogin) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    appId, input.username, input.email ? hashEmail(input.email) : null, input.passwordHash, input.hwid ?? null,
    input.ip ?? null, input.owner ?? null, now, input.loggedIn === true ? now : null,
  );
  const user = getUserById(store, lastInsertRowid);
  if (user === undefined) throw new Error('User vanished right after its insert');
  return user;
}

/** Sets the password hash (null: no password login until one is set). */
export function setUserPassword(store: Store, userId: number, passwordHash: string | null): void {
  store.run('UPDATE users SET passwordHash = ? WHERE id = ?', passwordHash, userId);
}

/** Sets the email (stored as its hash) or clears it. */
export function setUserEmail(store: Store, userId: number, email: string | null): void {
  store.run('UPDATE users SET emailHash = ? WHERE id = ?', email ? hashEmail(email) : null, userId);
}

/** Clears the HWID: the next login stores a new one (HWID reset). */
/**
 * Clears the user's HWID; false when there was none. The writes below count rows *changed*, as
 * MySQL's affected_rows does on the genuine server (SQLite counts rows matched), so a write that
 * changes nothing can be answered as the failure the genuine server gives it.
 */
export function resetUserHwid(store: Store, userId: number): boolean {
  return store.run('UPDATE users SET hwid = NULL WHERE id = ? AND hwid IS NOT NULL', userId).changes > 0;
}

/** Clears every user's HWID. Returns how many users had one. */
export function resetAllHwids(store: Store, appId: number): number {
  return store.run('UPDATE users SET hwid = NULL WHERE appId = ? AND hwid IS NOT NULL', appId).changes;
}

/** Appends another allowed HWID (the lock is a substring test, so concatenation allows both). */
export function addUserHwid(store: Store, userId: number, hwid: string): void {
  store.run("UPDATE users SET hwid = COALESCE(hwid, '') || ? WHERE id = ?", hwid, userId);
}

/** Sets the user's HWID-reset cooldown in seconds; false when it already was that. */
export function setUserCooldown(store: Store, userId: number, seconds: number): boolean {
  return store.run('UPDATE users SET cooldown = ? WHERE id = ? AND cooldown IS NOT ?', seconds, userId, seconds).changes > 0;
}

export type RenameFailure = 'notfound' | 'taken';

/**
 * Renames a user and everything that refers to them by name: chat authorship, mutes, license
 * `usedby`, session credentials, pending password resets. Subscriptions and variables follow by id.
 */
export function renameUser(store: Store, appId: number, from: string, to: string): Outcome<UserRow, RenameFailure> {
  return store.tx(() => {
    const user = findUser(store, appId, from);
    if (user === undefined) return failure('notfound', 'User not found');
    if (from === to) return success(user);
    if (findUser(store, appId, to) !== undefined) return failure('taken', 'Username already used!');
    store.run('UPDATE users SET username = ? WHERE id = ?', to, user.id);
    store.run('UPDATE chat_messages SET author = ? WHERE appId = ? AND author = ?', to, appId, from);
    store.run('UPDATE chat_mutes SET user = ? WHERE appId = ? AND user = ?', to, appId, from);
    store.run('UPDATE licenses SET usedby = ? WHERE appId = ? AND usedby = ?', to, appId, from);
    store.run('UPDATE sessions SET credential = ? WHERE appId = ? AND credential = ?', to, appId, from);
    store.run('UPDATE password_resets SET username = ? WHERE appId = ? AND username = ?', to, appId, from);
    return success({ ...user, username: to });
  });
}

/**
 * Deletes a user with their subscriptions and variables (foreign keys cascade) and ends the
 * sessions logged in as them, so no session keeps acting for a user who is gone.
 */
export function deleteUser(store: Store, appId: number, username: string): boolean {
  return store.tx(() => {
    if (findUser(store, appId, username) === undefined) return false;
    // Sessions first: ending the panel sign-ins needs the user's row.
    deleteSessionsOf(store, appId, username);
    return store.run('DELETE FROM users WHERE appId = ? AND username = ?', appId, username).changes > 0;
  });
}

/** Deletes every user of the app (and their sessions). Returns how many there were. */
export function deleteAllUsers(store: Store, appId: number): number {
  return store.tx(() => {
    const count = store.run('DELETE FROM users WHERE appId = ?', appId).changes;
    store.run('DELETE FROM sessions WHERE appId = ? AND credential IS NOT NULL', appId);
    endAppPanelSignIns(store, appId);
    return count;
  });
}

/** Deletes users without any unexpired, unpaused subscription. Returns their names. */
export function deleteExpiredUsers(store: Store, appId: number, now: number): string[] {
  return store.tx(() => {
    const names = store
      .all<{ username: string }>(
        'SELECT username FROM users u WHERE appId = ? AND NOT EXISTS (SELECT 1 FROM user_subs s WHERE s.userId = u.id AND (s.paused = 1 OR s.expiry > ?))',
        appId, now,
      )
      .map((row) => row.username);
    for (const name of names) deleteUser(store, appId, name);
    return names;
  });
}
