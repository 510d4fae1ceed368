/**
 * Password hashing with node:crypto scrypt. The hash records its own parameters
 * (`scrypt$N$r$p$salt$hash`, base64), so the cost can be raised later without breaking old rows.
 * Both functions are asynchronous (libuv thread pool): call them before a transaction, never
 * inside one.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const COST = 16384;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;
const SALT_BYTES = 16;

function derive(password: string, salt: Buffer, N: number, r: number, p: number, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, length, { N, r, p, maxmem: 256 * N * r }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** A new salted hash of `password`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, COST, BLOCK_SIZE, PARALLELISM, KEY_LENGTH);
  return ['scrypt', COST, BLOCK_SIZE, PARALLELISM, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Whether `password` matches `stored` (constant-time compare). A malformed hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  if (!isSaneParam(N, 2 ** 20) || !isSaneParam(r, 64) || !isSaneParam(p, 16)) return false;
  const salt = Buffer.from(parts[4] ?? '', 'base64');
  const expected = Buffer.from(parts[5] ?? '', 'base64');
  if (expected.length === 0) return false;
  const actual = await derive(password, salt, N, r, p, expected.length);
  return timingSafeEqual(actual, expected);
}

/** A hash of a random password with today's parameters, made once: what an unknown user is checked against. */
let dummyHash: Promise<string> | undefined;

/**
 * Whether `password` matches `stored`; with no stored hash (no such user, or a user without a
 * password) a dummy hash is checked all the same and the answer is false, so the time taken does
 * not tell whether the username exists.
 */
export async function verifyPasswordOrDummy(password: string, stored: string | null | undefined): Promise<boolean> {
  if (stored !== null && stored !== undefined) return verifyPassword(password, stored);
  dummyHash ??= hashPassword(randomBytes(16).toString('base64'));
  await verifyPassword(password, await dummyHash);
  return false;
}

function isSaneParam(value: number | undefined, max: number): value is number {
  return value !== undefined && Number.isInteger(value) && value > 0 && value <= max;
}
