/** Random identifiers and secrets, all from the CSPRNG (node:crypto). */
import { randomBytes, randomFillSync } from 'node:crypto';

export const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const DIGITS = '0123456789';

/**
 * Random bytes drawn from the CSPRNG a pool at a time: a 1.2 answer's nonce is 32 characters,
 * and a `randomInt` call for each (an own rejection loop and cache lookup a character) was a
 * few microseconds of every answer. Each byte is used once.
 */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;

function randomByte(): number {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  return pool[poolAt++]!;
}

/**
 * `length` characters drawn uniformly from `alphabet`: a byte below the largest multiple of the
 * alphabet's size under 256 picks `byte % size`, a byte above it is drawn again (no bias).
 */
export function randomString(length: number, alphabet: string = ALNUM): string {
  const size = alphabet.length;
  if (size < 1 || size > 256) throw new RangeError(`randomString needs 1 to 256 characters to draw from, not ${size}`);
  const limit = 256 - (256 % size);
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < limit) out += alphabet.charAt(byte % size);
  }
  return out;
}

/** `bytes` random bytes as lower-case hex (2 × bytes characters). */
export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}
