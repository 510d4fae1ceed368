/**
 * `add`'s `keys` parameter, a sandbox extension listed in `getsettings` (seller/app.ts; see
 * docs/protocol/seller-api.md §3.6, "Sandbox extension: several given keys"): up to
 * MAX_KEYS_PER_CALL fixed keys in one call, one a line, so a restore puts back a hundred keys
 * in one call instead of a hundred.
 *
 * Each line is read as a single-key `mask` is (trimmed, tags stripped: sanitize.ts), from the
 * value as sent, so one key's `<` cannot swallow the next line. Blank lines are skipped. A
 * line that would be a mask rather than a key (a `*`, or the old default mask) is refused, as
 * is a key named twice: the list is made whole or not at all.
 */
import { isFixedMask, normalizeMask } from '../domain/license-keys.js';
import type { Params } from '../dispatch/params.js';
import { sanitize } from '../dispatch/sanitize.js';
import { MAX_KEYS_PER_CALL, TOO_MANY_PER_CALL_MESSAGE } from './key-quota.js';

export type GivenKeys = { ok: true; keys: string[] } | { ok: false; message: string };

/** The keys of `keys`, or why the call is refused; undefined when the call has no `keys`. */
export function givenKeys(params: Params, amount: number | undefined): GivenKeys | undefined {
  const raw = params.raw('keys');
  if (raw === undefined) return undefined;
  if (params.has('mask')) return { ok: false, message: 'Invalid parameter: give mask or keys, not both' };
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const line of raw.split(/\r?\n/)) {
    const key = sanitize(line);
    if (key === undefined) continue;
    if (!isFixedMask(normalizeMask(key))) return { ok: false, message: `Invalid parameter: keys holds ${JSON.stringify(key)}, a mask (its * are random characters), not a key` };
    if (seen.has(key)) return { ok: false, message: `Invalid parameter: keys names ${key} more than once` };
    seen.add(key);
    keys.push(key);
  }
  if (keys.length === 0) return { ok: false, message: 'Invalid parameter: keys holds no keys' };
  if (keys.length > MAX_KEYS_PER_CALL) return { ok: false, message: TOO_MANY_PER_CALL_MESSAGE };
  if (amount !== undefined && amount !== keys.length) return { ok: false, message: `Invalid parameter: amount must be left out with keys, or be their number (${keys.length})` };
  return { ok: true, keys };
}
