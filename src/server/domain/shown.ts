/**
 * How values appear in the reasons the rules give (domain/outcome.ts `Because`), which the
 * request inspector records: secrets masked by the one masking rule (src/api/redact.ts, with a
 * short prefix so two sessions can be told apart), HWIDs cut to what tells two of them apart,
 * durations in words, and a note when the sandbox clock is moved.
 */
import { maskValue } from '../../api/redact.js';
import { tableMemo } from '../store/table-memo.js';
import type { Store } from '../store/store.js';
import { getClockOffset } from './clock.js';

/** A secret sent under `name` (sessionid, key, token…) as the records show it: `7a…`, `ab12…`, `***`. */
export function shownSecret(name: string, value: string): string {
  return maskValue(name, value, { shortPrefix: true });
}

export function shownSession(id: string): string {
  return shownSecret('sessionid', id);
}

/** A license key: `ABCD…` (keys are secrets). */
export function shownKey(key: string): string {
  return shownSecret('key', key);
}

/** Shown HWIDs keep at least this many characters, and one past where two of them differ. */
const HWID_PREFIX = 4;
/** Shorter HWIDs are shown whole. */
const HWID_WHOLE = 8;

/**
 * Two HWIDs (or any two identifiers that are not secrets) cut just past the first character
 * where they differ, so `S-1-5-21-1111…` and `S-1-5-21-2222…` do not both read `S-1-…`.
 */
export function shownPair(a: string, b: string): [string, string] {
  let same = 0;
  while (same < a.length && same < b.length && a[same] === b[same]) same += 1;
  const keep = Math.max(HWID_PREFIX, same + 1);
  const cut = (value: string): string => (value.length <= Math.max(HWID_WHOLE, keep) ? value : `${value.slice(0, keep)}…`);
  return [cut(a), cut(b)];
}

/** One HWID, shortened. */
export function shownHwid(hwid: string): string {
  return hwid.length <= HWID_WHOLE ? hwid : `${hwid.slice(0, HWID_PREFIX)}…`;
}

/**
 * A username as a reason shows it. A `license` user is named after its key, so such a name is a
 * secret: `license user ABCD…`.
 */
export function shownUser(store: Store, appId: number, username: string): string {
  return isLicenseName(store, appId, username) ? `license user ${shownKey(username)}` : username;
}

/**
 * Whether `name` is a license key of the app (a `license` user's name is its key). Every client
 * request with a user asks, for its record: the answers are kept until the licenses table is
 * written (store/table-memo.ts).
 */
export function isLicenseName(store: Store, appId: number, name: string): boolean {
  const kept = licenseNames(store);
  const key = `${appId}\u0000${name}`;
  let answer = kept?.get(key);
  if (answer === undefined) {
    answer = licenseNamed(store, appId, name);
    kept?.set(key, answer);
  }
  return answer;
}

const licenseNames = tableMemo<boolean>('licenses', 10_000);

function licenseNamed(store: Store, appId: number, name: string): boolean {
  return store.get<{ one: number }>('SELECT 1 AS one FROM licenses WHERE appId = ? AND key = ?', appId, name) !== undefined;
}

/** `45 s`, `3 min`, `5 h`, `7 days`: rounded down to the largest unit. */
export function shownDuration(seconds: number): string {
  const s = Math.abs(Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h`;
  const days = Math.floor(s / 86_400);
  return `${days} day${days === 1 ? '' : 's'}`;
}

/** ` (sandbox clock is 7 days ahead)` when the admin clock is moved, else nothing. */
export function clockNote(store: Store): string {
  const offset = getClockOffset(store);
  if (offset === 0) return '';
  return ` (sandbox clock is ${shownDuration(offset)} ${offset > 0 ? 'ahead' : 'behind'})`;
}
