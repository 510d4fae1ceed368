/**
 * License keys: generation (unique per app), lookup, use, bans, deletion, notes and durations.
 * The ≤ 100-per-call and mask rules of the seller API are the seller layer's checks.
 */
import type { Store } from '../store/store.js';
import { banUser, unbanUser } from './bans.js';
import { isFixedMask, keyFromMask, maskCapacity, normalizeMask, type KeyCharacterSet } from './license-keys.js';
import { failure, success, type Outcome } from './outcome.js';
import type { LicenseRow, LicenseStatus } from './rows.js';
import { deleteSessionsOf } from './sessions.js';
import { deleteSubsOfKey } from './user-subs.js';
import { deleteUser, findUser } from './users.js';

export interface NewLicenses {
  /** Layout; `*` = random character. Default `******-******-******-******-******-******`. */
  readonly mask?: string | undefined;
  readonly amount?: number | undefined;
  readonly level?: string | undefined;
  readonly character?: KeyCharacterSet | undefined;
  readonly note?: string | null | undefined;
  /** Stored as `genby`; the seller API's default is `SellerAPI`. */
  readonly genby?: string | undefined;
  /** Duration granted on use, in seconds. */
  readonly expires: number;
}

export type GenerateFailure = 'exists' | 'exhausted' | 'duration';

/**
 * Longest duration a key may grant: 100,000 days (about 274 years), past any "lifetime" a seller
 * means, and far short of what a date can hold, so a subscription made from it still shows
 * (`expiry=1e300` once stored 8.64e304 seconds and broke that user's panel page).
 */
export const MAX_KEY_DAYS = 100_000;
export const KEY_DURATION_MESSAGE = `Key duration must be at most ${MAX_KEY_DAYS} days`;

/** How many random draws a single key may take before the mask is deemed used up. */
const MAX_DRAWS_PER_KEY = 50;

/** Thrown inside the transaction so that nothing of a half-made batch is kept. */
class MaskExhaustedError extends Error {}

/**
 * Creates `amount` new unused keys (default 1) in one transaction, each unique within the app.
 * Fails with `exists` when a fixed key (no `*`) is taken, `exhausted` when the mask cannot
 * make that many new keys (nothing is kept then), `duration` past MAX_KEY_DAYS (the seller
 * layer refuses durations of zero or less itself).
 */
export function generateLicenses(store: Store, appId: number, input: NewLicenses, now: number): Outcome<string[], GenerateFailure> {
  const mask = normalizeMask(input.mask);
  const amount = input.amount ?? 1;
  const character = input.character ?? 1;
  const exhausted = failure('exhausted', 'The mask cannot make that many different keys');
  const expires = Math.round(input.expires);
  if (!Number.isFinite(expires) || expires > MAX_KEY_DAYS * 86_400) return failure('duration', KEY_DURATION_MESSAGE);
  if (amount > maskCapacity(mask, character)) return exhausted;
  try {
    return store.tx(() => {
      if (isFixedMask(mask) && findLicense(store, appId, mask) !== undefined) return failure('exists', 'License key already exists');
      const keys: string[] = [];
      for (let i = 0; i < amount; i++) {
        const key = drawFreshKey(store, appId, mask, character);
        if (key === undefined) throw new MaskExhaustedError();
        insertLicense(store, appId, key, input, expires, now);
        keys.push(key);
      }
      return success(keys);
    });
  } catch (err) {
    if (err instanceof MaskExhaustedError) return exhausted;
    throw err;
  }
}

function insertLicense(store: Store, appId: number, key: string, input: KeySettings, expires: number, now: number): void {
  store.run(
    "INSERT INTO licenses (appId, key, note, expires, status, level, genby, gendate) VALUES (?, ?, ?, ?, 'Not Used', ?, ?, ?)",
    appId, key, input.note ?? null, expires, input.level ?? '1', input.genby ?? 'SellerAPI', now,
  );
}

/** What every key of one `add` shares: level, note, creator and duration. */
export type KeySettings = Omit<NewLicenses, 'mask' | 'amount' | 'character'>;

/**
 * Creates the given keys, unused, in one transaction: all of them or none. Fails with `exists`
 * naming the first key the app already has, `duration` past MAX_KEY_DAYS. The caller has
 * checked the keys themselves (not empty, no `*`, no key twice).
 */
export function insertLicenses(store: Store, appId: number, keys: readonly string[], input: KeySettings, now: number): Outcome<string[], 'exists' | 'duration'> {
  const expires = Math.round(input.expires);
  if (!Number.isFinite(expires) || expires > MAX_KEY_DAYS * 86_400) return failure('duration', KEY_DURATION_MESSAGE);
  return store.tx(() => {
    const taken = keys.find((key) => findLicense(store, appId, key) !== undefined);
    if (taken !== undefined) return failure('exists', `License key ${taken} already exists`);
    for (const key of keys) insertLicense(store, appId, key, input, expires, now);
    return success([...keys]);
  });
}

function drawFreshKey(store: Store, appId: number, mask: string, character: KeyCharacterSet): string | undefined {
  for (let draw = 0; draw < MAX_DRAWS_PER_KEY; draw++) {
    const key = keyFromMask(mask, character);
    if (findLicense(store, appId, key) === undefined) return key;
    if (isFixedMask(mask)) return undefined;
  }
  return undefined;
}

export function findLicense(store: Store, appId: number, key: string): LicenseRow | undefined {
  return store.get<LicenseRow>('SELECT * FROM licenses WHERE appId = ? AND key = ?', appId, key);
}

/** The license a user redeemed last (seller `getkey`). */
export function findLicenseUsedBy(store: Store, appId: number, username: string): LicenseRow | undefined {
  return store.get<LicenseRow>('SELECT * FROM licenses WHERE appId = ? AND usedby = ? ORDER BY usedon DESC, id DESC LIMIT 1', appId, username);
}

export function listLicenses(store: Store, appId: number): LicenseRow[] {
  return store.all<LicenseRow>('SELECT * FROM licenses WHERE appId = ? ORDER BY id', appId);
}

/** Counts by status (seller `stats`). */
export function licenseCounts(store: Store, appId: number): Record<LicenseStatus, number> {
  const counts: Record<LicenseStatus, number> = { 'Not Used': 0, Used: 0, Banned: 0, Paused: 0 };
  for (const row of store.all<{ status: LicenseStatus; n: number }>('SELECT status, COUNT(*) AS n FROM licenses WHERE appId = ? GROUP BY status', appId)) {
    counts[row.status] = row.n;
  }
  return counts;
}

/** Marks a license used by `username` now. */
export function markLicenseUsed(store: Store, licenseId: number, username: string, now: number): void {
  store.run("UPDATE licenses SET status = 'Used', usedon = ?, usedby = ? WHERE id = ?", now, username, licenseId);
}

/**
 * Bans a license (status `Banned`, reason kept). With `userToo` the user who redeemed it is
 * banned as well (their stored HWID and IP blacklisted, loopback excepted). Returns false when
 * the key does not exist.
 */
export function banLicense(store: Store, appId: number, key: string, reason: string | null, options: { userToo?: boolean } = {}): boolean {
  return store.tx(() => {
    const license = findLicense(store, appId, key);
    if (license === undefined) return false;
    store.run("UPDATE licenses SET status = 'Banned', banned = ? WHERE id = ?", reason ?? 'No reason specified', license.id);
    // The key can no longer log in: sessions opened with it, or by the user made from it, end now.
    deleteSessionsOf(store, appId, license.key);
    if (license.usedby !== null) deleteSessionsOf(store, appId, license.usedby);
    if (options.userToo === true && license.usedby !== null) {
      const user = findUser(store, appId, license.usedby);
      if (user !== undefined) banUser(store, appId, user.username, reason ?? 'No reason specified', { hwid: user.hwid, ip: user.ip });
    }
    return true;
  });
}

/**
 * Lifts a license ban: back to `Used` when someone redeemed it (and that user is unbanned too),
 * else `Not Used`. Returns false when the key does not exist.
 */
export function unbanLicense(store: Store, appId: number, key: string): boolean {
  return store.tx(() => {
    const license = findLicense(store, appId, key);
    if (license === undefined) return false;
    const status: LicenseStatus = license.usedby !== null ? 'Used' : 'Not Used';
    store.run('UPDATE licenses SET status = ?, banned = NULL WHERE id = ?', status, license.id);
    if (license.usedby !== null) unbanUser(store, appId, license.usedby);
    return true;
  });
}

/**
 * Deletes a license and the user subscriptions it created; with `userToo` also the user who
 * redeemed it. Returns false when the key does not exist.
 */
export function deleteLicense(store: Store, appId: number, key: string, options: { userToo?: boolean } = {}): boolean {
  return store.tx(() => {
    const license = findLicense(store, appId, key);
    if (license === undefined) return false;
    deleteSubsOfKey(store, appId, key);
    if (options.userToo === true && license.usedby !== null) deleteUser(store, appId, license.usedby);
    store.run('DELETE FROM licenses WHERE id = ?', license.id);
    return true;
  });
}

/** Deletes every license of the app. Returns how many. */
export function deleteAllLicenses(store: Store, appId: number): number {
  return store.run('DELETE FROM licenses WHERE appId = ?', appId).changes;
}

/** Deletes the used licenses. Returns how many. */
export function deleteUsedLicenses(store: Store, appId: number): number {
  return store.run("DELETE FROM licenses WHERE appId = ? AND status = 'Used'", appId).changes;
}

/** Deletes the unused licenses. Returns how many. */
export function deleteUnusedLicenses(store: Store, appId: number): number {
  return store.run("DELETE FROM licenses WHERE appId = ? AND status = 'Not Used'", appId).changes;
}

/** Adds `seconds` to the duration of every unused license. Returns how many. */
export function addTimeToUnusedLicenses(store: Store, appId: number, seconds: number): number {
  return store.run("UPDATE licenses SET expires = expires + ? WHERE appId = ? AND status = 'Not Used'", Math.round(seconds), appId).changes;
}

export function setLicenseNote(store: Store, appId: number, key: string, note: string | null): boolean {
  return store.run('UPDATE licenses SET note = ? WHERE appId = ? AND key = ?', note, appId, key).changes > 0;
}

/** Sets the duration (seconds) a license grants. */
export function setLicenseDuration(store: Store, appId: number, key: string, seconds: number): boolean {
  return store.run('UPDATE licenses SET expires = ? WHERE appId = ? AND key = ?', Math.round(seconds), appId, key).changes > 0;
}
