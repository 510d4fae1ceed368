/**
 * The sandbox's domain clock: real time plus an offset that testers move forward
 * (`POST /sandbox/clock`, `kactl sandbox advance 16m`) to watch sessions, subscriptions, magic
 * links, email codes, mutes and chat delays run out without waiting.
 *
 * Only the domain's "now" moves. Signature timestamps stay real time: clients check them
 * against their own clocks.
 *
 * The offset lives in the store's `meta` table, so a restart on the same data file keeps it.
 * Everything written under an advanced clock (session expiries, subscription expiries, link
 * expiries) is stamped in that timeline; dropping the offset on restart would move time
 * backwards and bring expired links, sessions and licenses back to life.
 */
import { getMeta, setMeta } from '../store/identity.js';
import type { Store } from '../store/store.js';

const OFFSET_KEY = 'clockOffsetSeconds';

/** The largest single move accepted: 100 years, far past any license duration. */
export const MAX_CLOCK_ADVANCE = 100 * 366 * 86_400;

/** Seconds the domain clock runs ahead of real time (0 on a new store). */
export function getClockOffset(store: Store): number {
  const stored = Number(getMeta(store, OFFSET_KEY) ?? '0');
  return Number.isSafeInteger(stored) && stored > 0 ? stored : 0;
}

/**
 * Moves the domain clock forward by `seconds` (a whole number, 0 or more; time never goes
 * back, so nothing that expired can come back). Returns the new offset.
 */
export function advanceClock(store: Store, seconds: number): number {
  if (!Number.isSafeInteger(seconds) || seconds < 0 || seconds > MAX_CLOCK_ADVANCE) {
    throw new RangeError(`Clock advance must be a whole number of seconds from 0 to ${MAX_CLOCK_ADVANCE}`);
  }
  return store.tx(() => {
    const offset = getClockOffset(store) + seconds;
    setMeta(store, OFFSET_KEY, String(offset));
    return offset;
  });
}

/** The domain's Unix seconds for the real time `realMs` (milliseconds since the epoch). */
export function domainNow(store: Store, realMs: number): number {
  return Math.floor(realMs / 1000) + getClockOffset(store);
}
