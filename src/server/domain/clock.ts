/**
 * The sandbox's domain clock: real time plus an offset that testers move
 * (`POST /sandbox/clock`, `kactl sandbox advance 16m`, `kactl sandbox clock --reset`) to watch
 * sessions, subscriptions, magic links, email codes, mutes and chat delays run out without
 * waiting.
 *
 * Only the domain's "now" moves. Two things stay on real time: signature timestamps (clients
 * check them against their own clocks) and TOTP codes (they come from a real authenticator app,
 * which knows nothing of the sandbox's offset): see `realNow` below.
 *
 * The offset may be moved either way, and may put the domain behind real time. Everything is
 * stamped in the domain's timeline and compared with its "now" when read, so moving back
 * revives what only looked expired (a session, subscription, link or code whose expiry is
 * later than the new time is live again); what was deleted (sessions purged by a later `init`)
 * or spent (a used link or email code) stays so.
 *
 * The offset lives in the store's `meta` table, so a restart on the same data file keeps it
 * (what was written under it stays consistent); `offset=0` goes back to real time.
 */
import { getMeta, setMeta } from '../store/identity.js';
import { perStore } from '../store/per-store.js';
import type { Store } from '../store/store.js';

const OFFSET_KEY = 'clockOffsetSeconds';

/**
 * The committed offset of each open store, so a request does not SELECT it (every answer's
 * `x-sandbox-now` and every handler's `ctx.now` need it). One process owns a store file (the
 * sandbox registry refuses a second server on it) and every change goes through
 * `setClockOffset`, which drops the entry. It is filled only outside a transaction, so a
 * rolled-back change can never be remembered.
 */
const committedOffset = perStore((): { value: number | undefined } => ({ value: undefined }));

/** The largest offset either way: 100 years, far past any license duration. */
export const MAX_CLOCK_OFFSET = 100 * 366 * 86_400;

/** Seconds the domain clock runs ahead of real time (negative: behind; 0 on a new store). */
export function getClockOffset(store: Store): number {
  const cached = committedOffset(store).value;
  if (cached !== undefined) return cached;
  const stored = Number(getMeta(store, OFFSET_KEY) ?? '0');
  const offset = Number.isSafeInteger(stored) && Math.abs(stored) <= MAX_CLOCK_OFFSET ? stored : 0;
  if (!store.db.inTransaction) committedOffset(store).value = offset;
  return offset;
}

/** Whether `offset` is a whole number of seconds the clock can be set to. */
export function isValidOffset(offset: number): boolean {
  return Number.isSafeInteger(offset) && Math.abs(offset) <= MAX_CLOCK_OFFSET;
}

/** Sets the offset (0 = real time). Returns it. */
export function setClockOffset(store: Store, offset: number): number {
  if (!isValidOffset(offset)) throw new RangeError(`The clock offset must be a whole number of seconds from -${MAX_CLOCK_OFFSET} to ${MAX_CLOCK_OFFSET}`);
  committedOffset(store).value = undefined;
  setMeta(store, OFFSET_KEY, String(offset));
  return offset;
}

/**
 * Moves the domain clock by `seconds` (a whole number; negative moves it back). Returns the new
 * offset. Throws RangeError when the result would leave ±MAX_CLOCK_OFFSET.
 */
export function advanceClock(store: Store, seconds: number): number {
  if (!Number.isSafeInteger(seconds)) throw new RangeError('Clock advance must be a whole number of seconds');
  return store.tx(() => setClockOffset(store, getClockOffset(store) + seconds));
}

/** The domain's Unix seconds for the real time `realMs` (milliseconds since the epoch). */
export function domainNow(store: Store, realMs: number): number {
  return Math.floor(realMs / 1000) + getClockOffset(store);
}

/**
 * The real Unix seconds behind the domain time `now` (a handler's `ctx.now`). TOTP codes are
 * checked against this: an authenticator app shows the code of real time.
 */
export function realNow(store: Store, now: number): number {
  return now - getClockOffset(store);
}
