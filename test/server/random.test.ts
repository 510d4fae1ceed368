/**
 * Random identifiers (src/server/domain/random.ts): drawn a byte at a time from a pool the
 * CSPRNG fills, each character uniform over its alphabet (bytes that would favour the first
 * characters are drawn again).
 */
import { describe, expect, it } from 'vitest';
import { ALNUM, DIGITS, randomString } from '../../src/server/domain/random.js';

describe('randomString', () => {
  it('gives the length asked for, from the alphabet only', () => {
    for (const length of [0, 1, 10, 32, 5000]) {
      const drawn = randomString(length);
      expect(drawn).toHaveLength(length);
      expect(drawn).toMatch(/^[A-Za-z0-9]*$/);
    }
    expect(randomString(6, DIGITS)).toMatch(/^\d{6}$/);
    expect(randomString(8, 'x')).toBe('xxxxxxxx');
  });

  it('draws every character of the alphabet about equally often (no modulo bias)', () => {
    // 62 characters: a plain `byte % 62` would give the first 8 a third more often (5 bytes map to them, 4 to the rest).
    const counts = new Map<string, number>();
    const drawn = randomString(62 * 4000);
    for (const ch of drawn) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(ALNUM.length);
    for (const count of counts.values()) expect(count).toBeGreaterThan(3400);
    for (const count of counts.values()) expect(count).toBeLessThan(4600);
  });

  it('never repeats itself across pool refills', () => {
    const seen = new Set(Array.from({ length: 2000 }, () => randomString(32)));
    expect(seen.size).toBe(2000);
  });

  it('refuses an alphabet a byte cannot draw from', () => {
    expect(() => randomString(4, '')).toThrow(RangeError);
    expect(() => randomString(4, 'a'.repeat(257))).toThrow(RangeError);
  });
});
