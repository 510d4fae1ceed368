/**
 * Making license key text from a mask (docs/protocol/seller-api.md §3.6, `add`): every `*` becomes a random
 * character of the chosen set, everything else is kept.
 */
import { randomString } from './random.js';

export const DEFAULT_MASK = '******-******-******-******-******-******';
/** The old default, where `X` meant "random"; it is read as the star form. */
const LEGACY_DEFAULT_MASK = 'XXXXXX-XXXXXX-XXXXXX-XXXXXX-XXXXXX-XXXXXX';

/** `character` parameter: 1 mixed case + digits (default), 2 upper case + digits, 3 lower case + digits. */
export type KeyCharacterSet = 1 | 2 | 3;

const CHARACTER_SETS: Record<KeyCharacterSet, string> = {
  1: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  2: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  3: 'abcdefghijklmnopqrstuvwxyz0123456789',
};

/** `1`, `2`, `3` as sent on the wire; anything else is the default set 1. */
export function parseCharacterSet(value: string | undefined): KeyCharacterSet {
  return value === '2' ? 2 : value === '3' ? 3 : 1;
}

export function normalizeMask(mask: string | undefined): string {
  if (mask === undefined || mask === '') return DEFAULT_MASK;
  return mask === LEGACY_DEFAULT_MASK ? DEFAULT_MASK : mask;
}

/** A mask without `*` is a fixed, custom key (allowed only for one key at a time). */
export function isFixedMask(mask: string): boolean {
  return !mask.includes('*');
}

/** One key from `mask`. */
export function keyFromMask(mask: string, characters: KeyCharacterSet = 1): string {
  const alphabet = CHARACTER_SETS[characters];
  let out = '';
  for (const ch of mask) out += ch === '*' ? randomString(1, alphabet) : ch;
  return out;
}

/** How many different keys the mask can make (for "the mask is too small" checks). */
export function maskCapacity(mask: string, characters: KeyCharacterSet = 1): number {
  const stars = [...mask].filter((ch) => ch === '*').length;
  return CHARACTER_SETS[characters].length ** stars;
}
