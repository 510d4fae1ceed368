/**
 * Reseller key balances (docs/protocol/seller-api.md §3.14): a reseller may make keys only of a duration it
 * holds balance for, one unit per key. The real service's units, in seconds.
 */
import type { Store } from '../store/store.js';
import { findAppAccount, formatBalance, parseBalance, type BalanceUnit } from './accounts.js';
import type { AccountRow, AppRow } from './rows.js';

export const UNIT_SECONDS: Readonly<Record<BalanceUnit, number>> = {
  day: 86_400,
  week: 604_800,
  month: 2_592_000,
  threemonth: 7_862_000,
  sixmonth: 15_720_000,
  lifetime: 863_910_000,
  year: 31_536_000,
};

/** The balance unit of a key lasting `seconds` (within a day of the unit); undefined when none fits. */
export function unitForDuration(seconds: number): BalanceUnit | undefined {
  const units = Object.entries(UNIT_SECONDS) as [BalanceUnit, number][];
  return units.find(([, unit]) => Math.abs(unit - seconds) < 86_400)?.[0];
}

/** The app's reseller account called `username`, if there is one. */
export function findAppReseller(store: Store, app: AppRow, username: string): AccountRow | undefined {
  const account = findAppAccount(store, app.id, username);
  return account !== undefined && account.role === 'Reseller' ? account : undefined;
}

/**
 * The level of the keys a shop sale makes for this reseller: the lowest of its key levels
 * (`addAccount keylevels`, `|`- or comma-separated), or 1 when it names none (`N/A`).
 */
export function resellerKeyLevel(account: AccountRow): number {
  const levels = account.keylevels.split(/[|,]/).map((piece) => piece.trim()).filter((piece) => /^\d+$/.test(piece)).map(Number).filter((n) => n >= 1);
  return levels.length === 0 ? 1 : Math.min(...levels);
}

export type DebitResult = { ok: true } | { ok: false; message: string };

/**
 * Takes `amount` keys of the unit matching `seconds` from the reseller's balance, or refuses
 * without changing it. Run inside the transaction that makes the keys.
 */
export function debitReseller(store: Store, appId: number, username: string, seconds: number, amount: number): DebitResult {
  const unit = unitForDuration(seconds);
  if (unit === undefined) return { ok: false, message: 'Reseller keys must last a day, week, month, three months, six months, a year or a lifetime' };
  const account = findAppAccount(store, appId, username);
  if (account === undefined) return { ok: false, message: 'Reseller account not found' };
  const balance = parseBalance(account.balance);
  if (balance[unit] < amount) return { ok: false, message: `Reseller balance too low: ${username} has ${balance[unit]} ${unit} key(s) left, ${amount} asked` };
  balance[unit] -= amount;
  store.run('UPDATE accounts SET balance = ? WHERE id = ?', formatBalance(balance), account.id);
  return { ok: true };
}
