/**
 * Dashboard accounts: the seller who owns the sandbox's apps, and the reseller / manager
 * accounts a seller creates for one app (docs/protocol/seller-api.md §3.14).
 *
 * A team account belongs to one app, and its username and email are unique only within that
 * app (schema v3): were they unique across the store, "Username already taken!" would tell one
 * app's seller what another app holds. Seller accounts (no app) are unique among sellers.
 */
import type { Store } from '../store/store.js';
import type { AccountRow, AppRow } from './rows.js';
import { hashEmail } from './users.js';

/** Balance units in order: day|week|month|threemonth|sixmonth|lifetime|year. */
export const BALANCE_UNITS = ['day', 'week', 'month', 'threemonth', 'sixmonth', 'lifetime', 'year'] as const;
export type BalanceUnit = (typeof BALANCE_UNITS)[number];
export type Balance = Record<BalanceUnit, number>;

/** A seller's own account (one with no app). */
export function findSellerAccount(store: Store, username: string): AccountRow | undefined {
  return store.get<AccountRow>('SELECT * FROM accounts WHERE appId IS NULL AND username = ?', username);
}

/** The team account of that name in this app; another app's accounts are never seen. */
export function findAppAccount(store: Store, appId: number, username: string): AccountRow | undefined {
  return store.get<AccountRow>('SELECT * FROM accounts WHERE appId = ? AND username = ?', appId, username);
}

/** An account of the same scope (one app's team, or the sellers) with this email. */
function findAccountByEmail(store: Store, appId: number | null, email: string): AccountRow | undefined {
  return store.get<AccountRow>('SELECT * FROM accounts WHERE appId IS ? AND emailHash = ?', appId, hashEmail(email));
}

/** The role of the app's owner account (`seller` when the account row is missing). */
export function ownerRole(store: Store, app: AppRow): string {
  // Every seller request asks: read the one column, not the whole account row.
  return store.get<{ role: string }>('SELECT role FROM accounts WHERE appId IS NULL AND username = ?', app.owner)?.role ?? 'seller';
}

export interface NewAccount {
  readonly username: string;
  readonly role: string;
  readonly email?: string | null | undefined;
  /** From passwords.ts `hashPassword`. */
  readonly passwordHash?: string | null | undefined;
  readonly appId?: number | null | undefined;
  readonly owner?: string | null | undefined;
  readonly keylevels?: string | undefined;
  readonly perms?: number | undefined;
}

export type CreateAccountFailure = 'usernametaken' | 'emailtaken';

/** Creates an account; usernames and email hashes are unique within its app (or among sellers). */
export function createAccount(store: Store, input: NewAccount, now: number): AccountRow | CreateAccountFailure {
  const appId = input.appId ?? null;
  const find = (): AccountRow | undefined => (appId === null ? findSellerAccount(store, input.username) : findAppAccount(store, appId, input.username));
  return store.tx(() => {
    if (find() !== undefined) return 'usernametaken';
    if (input.email && findAccountByEmail(store, appId, input.email) !== undefined) return 'emailtaken';
    store.run(
      'INSERT INTO accounts (username, emailHash, passwordHash, role, appId, owner, keylevels, perms, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      input.username, input.email ? hashEmail(input.email) : null, input.passwordHash ?? null, input.role, appId,
      input.owner ?? null, input.keylevels ?? 'N/A', input.perms ?? 2047, now,
    );
    const row = find();
    if (row === undefined) throw new Error('Account vanished right after its insert');
    return row;
  });
}

/** The reseller / manager accounts of an app. */
export function listAppAccounts(store: Store, appId: number): AccountRow[] {
  return store.all<AccountRow>('SELECT * FROM accounts WHERE appId = ? ORDER BY id', appId);
}

export function deleteAppAccount(store: Store, appId: number, username: string): boolean {
  return store.run('DELETE FROM accounts WHERE appId = ? AND username = ?', appId, username).changes > 0;
}

export function parseBalance(text: string): Balance {
  const parts = text.split('|').map((part) => Number.parseInt(part, 10));
  const out = {} as Balance;
  BALANCE_UNITS.forEach((unit, i) => (out[unit] = Number.isFinite(parts[i]) ? (parts[i] ?? 0) : 0));
  return out;
}

export function formatBalance(balance: Balance): string {
  return BALANCE_UNITS.map((unit) => String(balance[unit])).join('|');
}

/** Adds to a team account's key balance. Returns the new balance, or undefined if the app has no such account. */
export function addBalance(store: Store, appId: number, username: string, add: Partial<Balance>): Balance | undefined {
  return store.tx(() => {
    const account = findAppAccount(store, appId, username);
    if (account === undefined) return undefined;
    const balance = parseBalance(account.balance);
    for (const unit of BALANCE_UNITS) balance[unit] += add[unit] ?? 0;
    store.run('UPDATE accounts SET balance = ? WHERE id = ?', formatBalance(balance), account.id);
    return balance;
  });
}
