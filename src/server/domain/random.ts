/** Random identifiers and secrets, all from the CSPRNG (node:crypto). */
import { randomBytes, randomInt } from 'node:crypto';

export const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const DIGITS = '0123456789';

/** `length` characters drawn uniformly from `alphabet`. */
export function randomString(length: number, alphabet: string = ALNUM): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet.charAt(randomInt(alphabet.length));
  return out;
}

/** `bytes` random bytes as lower-case hex (2 × bytes characters). */
export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}
