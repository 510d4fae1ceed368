/**
 * Ed25519 (RFC 8032 §5.1.6) over a message read in chunks, for bodies too large to hold whole.
 * node:crypto's `sign(null, …)` needs the message as one buffer; the algorithm itself only hashes
 * it (twice, with SHA-512), so here the two hash passes stream and the single point
 * multiplication is done with BigInt. Ed25519 is deterministic: the result is byte-for-byte
 * what `sign(null, message, key)` gives (test/server/hardening/file-download-memory.test.ts checks it).
 */
import { createHash, type KeyObject } from 'node:crypto';

const P = 2n ** 255n - 19n;
const L = 2n ** 252n + 27742317777372353535851937790883648493n;
const D = mod(-121665n * inverse(121666n));
const BASE: Point = {
  x: 15112221349535400772501151409588531511454012693041857206046113283949847762202n,
  y: 46316835694926478169428394003475163141307993866256225615783033603165251855960n,
  z: 1n,
  t: mod(15112221349535400772501151409588531511454012693041857206046113283949847762202n * 46316835694926478169428394003475163141307993866256225615783033603165251855960n),
};

/** Extended twisted Edwards coordinates: x = X/Z, y = Y/Z, x·y = T/Z. */
interface Point {
  readonly x: bigint;
  readonly y: bigint;
  readonly z: bigint;
  readonly t: bigint;
}

/** Produces the message's chunks; called once per hash pass, so it must restart each time. */
export type ChunkSource = () => Iterable<Buffer>;

/** Hex signature of the concatenated chunks, equal to node's `sign(null, message, privateKey)`. */
export function ed25519SignStream(privateKey: KeyObject, message: ChunkSource): string {
  const jwk = privateKey.export({ format: 'jwk' });
  if (jwk.d === undefined || jwk.x === undefined) throw new Error('not an Ed25519 private key');
  const publicKey = Buffer.from(jwk.x, 'base64url');
  const h = createHash('sha512').update(Buffer.from(jwk.d, 'base64url')).digest();
  const scalarBytes = Buffer.from(h.subarray(0, 32));
  scalarBytes[0] = (scalarBytes[0] ?? 0) & 248;
  scalarBytes[31] = ((scalarBytes[31] ?? 0) & 127) | 64;
  const a = littleEndian(scalarBytes);

  const r = mod(littleEndian(hashOf([h.subarray(32)], message)), L);
  const encodedR = encodePoint(multiply(BASE, r));
  const k = mod(littleEndian(hashOf([encodedR, publicKey], message)), L);
  const s = mod(r + k * a, L);
  return Buffer.concat([encodedR, toLittleEndian32(s)]).toString('hex');
}

function hashOf(prefix: readonly Buffer[], message: ChunkSource): Buffer {
  const hash = createHash('sha512');
  for (const part of prefix) hash.update(part);
  for (const chunk of message()) hash.update(chunk);
  return hash.digest();
}

function mod(value: bigint, m: bigint = P): bigint {
  const r = value % m;
  return r < 0n ? r + m : r;
}

function power(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  let b = mod(base);
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = mod(result * b);
    b = mod(b * b);
    e >>= 1n;
  }
  return result;
}

function inverse(value: bigint): bigint {
  return power(value, P - 2n);
}

/** RFC 8032 §5.1.4 addition (complete, so it also doubles). */
function add(p: Point, q: Point): Point {
  const a = mod((p.y - p.x) * (q.y - q.x));
  const b = mod((p.y + p.x) * (q.y + q.x));
  const c = mod(2n * p.t * q.t * D);
  const d = mod(2n * p.z * q.z);
  const e = b - a;
  const f = d - c;
  const g = d + c;
  const hh = b + a;
  return { x: mod(e * f), y: mod(g * hh), z: mod(f * g), t: mod(e * hh) };
}

function multiply(point: Point, scalar: bigint): Point {
  let result: Point = { x: 0n, y: 1n, z: 1n, t: 0n };
  let addend = point;
  let s = scalar;
  while (s > 0n) {
    if (s & 1n) result = add(result, addend);
    addend = add(addend, addend);
    s >>= 1n;
  }
  return result;
}

function encodePoint(point: Point): Buffer {
  const zInverse = inverse(point.z);
  const x = mod(point.x * zInverse);
  const y = mod(point.y * zInverse);
  const bytes = toLittleEndian32(y);
  bytes[31] = (bytes[31] ?? 0) | (Number(x & 1n) << 7);
  return bytes;
}

function littleEndian(bytes: Buffer): bigint {
  return BigInt(`0x${Buffer.from(bytes).reverse().toString('hex') || '0'}`);
}

function toLittleEndian32(value: bigint): Buffer {
  return Buffer.from(value.toString(16).padStart(64, '0'), 'hex').reverse();
}
