/**
 * Integrity checks of client-API answers (docs/protocol/client-api.md §2).
 *
 * - 1.3: `x-signature-ed25519` = hex Ed25519 signature over the ASCII `x-signature-timestamp`
 *   followed directly by the exact body bytes, made with the server's private key; we verify
 *   with the profile's public key and refuse timestamps outside a window, which is what stops
 *   an old answer from being replayed.
 * - 1.2: `signature` = hex HMAC-SHA256 of the exact body bytes, keyed by the app secret for
 *   `init` and by `<enckey>-<secret>` for everything after.
 *
 * - Replays, both versions: a signature proves who made an answer, not that it answers this
 *   request, so a recorded genuine answer sent again (within the 1.3 window, or at any time for
 *   1.2, which has no timestamp) would pass. Every answer that carries a `nonce` (all successes
 *   but a few) is unique by construction, so the client remembers the signatures of such answers
 *   it accepted (the last ANSWER_MEMORY_SIZE, in a file per profile) and refuses one it has seen before
 *   (`checkNotReplayed`). Answers without a nonce (failures) are not remembered: two genuine
 *   equal failures within one second are byte-identical, and a replayed failure can only make
 *   the program refuse, which it would do anyway.
 *
 * Every failure is a SignatureError (code `SIGNATURE`) whose message says which check failed,
 * and whose `reason` says it for programs.
 */
import type { KeyObject } from 'node:crypto';
import { nodeCrypto } from '../util/node-crypto.js';
import { SignatureError, UsageError } from './errors.js';

/** The sentence for a public key that is not 64 hex characters (the CLI adds where to find one). */
export const PUBLIC_KEY_FORMAT = 'The public key must be 64 hex characters (a raw 32-byte Ed25519 key).';

/** DER prefix that turns a raw 32-byte Ed25519 public key into an SPKI structure Node can import. */
export const ED25519_SPKI_PREFIX = '302a300506032b6570032100';
/** Default accepted distance between the answer's timestamp and our clock, in seconds. */
export const DEFAULT_SIGNATURE_WINDOW_SEC = 60;
/** 1.3 header names (undici gives header names in lower case). */
export const ED25519_SIGNATURE_HEADER = 'x-signature-ed25519';
export const ED25519_TIMESTAMP_HEADER = 'x-signature-timestamp';
/** 1.2 header name. */
export const HMAC_SIGNATURE_HEADER = 'signature';
/** What a 1.2 server puts in `signature` when the session was opened without an enckey. */
export const NO_ENCKEY_SIGNATURE = 'No encryption key supplied';

type Headers = Readonly<Record<string, string | undefined>>;

/**
 * Imports a raw Ed25519 public key given as 64 hex characters.
 * A malformed key is a configuration mistake, so it is a UsageError, not a SignatureError.
 */
export function ed25519PublicKey(hex: string): KeyObject {
  const clean = hex.trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(clean)) throw new UsageError(PUBLIC_KEY_FORMAT);
  return nodeCrypto().createPublicKey({ key: Buffer.from(ED25519_SPKI_PREFIX + clean, 'hex'), format: 'der', type: 'spki' });
}

export interface Ed25519Check {
  headers: Headers;
  /** The exact body bytes as received. */
  body: Buffer;
  /** Raw hex public key, or one already imported. */
  publicKey: string | KeyObject;
  /** Our clock, ms since the epoch. */
  nowMs: number;
  /** Largest accepted |now − timestamp|, in seconds. */
  windowSec?: number;
}

/** Verifies a 1.3 answer; returns the signed timestamp (Unix seconds) or throws SignatureError. */
export function verifyEd25519(check: Ed25519Check): number {
  const signatureText = check.headers[ED25519_SIGNATURE_HEADER]?.trim() ?? '';
  const timestampText = check.headers[ED25519_TIMESTAMP_HEADER]?.trim() ?? '';
  if (signatureText === '' || timestampText === '') {
    const missing = [signatureText === '' ? ED25519_SIGNATURE_HEADER : '', timestampText === '' ? ED25519_TIMESTAMP_HEADER : '']
      .filter(Boolean)
      .join(' and ');
    throw new SignatureError(`The answer is not signed: the ${missing} header${missing.includes(' and ') ? 's are' : ' is'} missing.`, { reason: 'unsigned', scheme: 'ed25519' });
  }
  if (!/^\d{1,15}$/.test(timestampText)) {
    throw new SignatureError(`The answer's ${ED25519_TIMESTAMP_HEADER} is not a number of seconds: "${timestampText.slice(0, 40)}".`, { reason: 'bad-timestamp', scheme: 'ed25519' });
  }
  const timestamp = Number(timestampText);
  const windowSec = check.windowSec ?? DEFAULT_SIGNATURE_WINDOW_SEC;
  const skew = check.nowMs / 1000 - timestamp;
  if (Math.abs(skew) > windowSec) {
    const distance = Math.round(Math.abs(skew));
    const where = skew > 0 ? `${distance} s old` : `${distance} s in the future`;
    throw new SignatureError(`The answer's timestamp is ${where}; kactl accepts at most ${windowSec} s.`, { reason: 'stale', scheme: 'ed25519' });
  }
  const key = typeof check.publicKey === 'string' ? ed25519PublicKey(check.publicKey) : check.publicKey;
  const signatureHex = signatureText.toLowerCase().replace(/^0x/, '');
  const signature = /^[0-9a-f]{128}$/.test(signatureHex) ? Buffer.from(signatureHex, 'hex') : undefined;
  const message = Buffer.concat([Buffer.from(timestampText, 'ascii'), check.body]);
  let valid: boolean;
  try {
    valid = signature !== undefined && nodeCrypto().verify(null, message, key, signature);
  } catch {
    // A malformed signature makes Node throw rather than return false; it is the same failure.
    valid = false;
  }
  if (!valid) {
    throw new SignatureError('The answer\'s Ed25519 signature does not match its body.', { reason: 'mismatch', scheme: 'ed25519' });
  }
  return timestamp;
}

/** Answers remembered per profile for the replay check: far more than one minute of 1.3 calls. */
export const ANSWER_MEMORY_SIZE = 128;
/** Hex characters of a signature kept to know it again (128 bits). */
const REMEMBERED_HEX = 32;

/** Where the signatures of accepted answers are kept (a file per profile, in the CLI: src/config/answer-memory.ts). */
export interface AnswerMemory {
  has(id: string): boolean;
  remember(id: string): void;
}

/** An AnswerMemory held in memory, the last ANSWER_MEMORY_SIZE: one client object's, for programs (src/api/file-answer-memory.ts keeps one in a file). */
export function memoryAnswerMemory(size = ANSWER_MEMORY_SIZE): AnswerMemory {
  const seen = new Set<string>();
  return {
    has: (id) => seen.has(id),
    remember: (id) => {
      seen.add(id);
      // A Set iterates in insertion order: the first is the oldest.
      for (const oldest of seen) {
        if (seen.size <= size) break;
        seen.delete(oldest);
      }
    },
  };
}

/**
 * The replay check: refuses an answer whose signature was accepted before, and remembers this
 * one when it carries a nonce (see the top of this file). Call it with an answer whose signature
 * is otherwise valid, so a forged one is never remembered.
 */
export function checkNotReplayed(memory: AnswerMemory, signature: string | undefined, body: Readonly<Record<string, unknown>>): void {
  const hex = signature?.trim().toLowerCase() ?? '';
  if (!/^[0-9a-f]{64,}$/.test(hex) || typeof body.nonce !== 'string') return;
  const id = hex.slice(0, REMEMBERED_HEX);
  if (memory.has(id)) {
    throw new SignatureError('The answer is a replay: an answer with this exact signature was accepted before.', {
      reason: 'replay',
      hints: ['Something between this client and the server sent a recorded answer again instead of a fresh one.'],
    });
  }
  memory.remember(id);
}

/** Lower-case hex HMAC-SHA256 of `body` keyed by `key` (1.2 signatures). */
export function hmacSha256Hex(key: string, body: Buffer | string): string {
  return nodeCrypto().createHmac('sha256', key).update(body).digest('hex');
}

/**
 * The 1.2 HMAC key for an answer: the app secret for `init`, `<enckey>-<secret>` for any other
 * type (the server stores that string on the session at init).
 */
export function hmacKeyFor(type: string, secret: string, enckey: string | undefined): string {
  return type === 'init' || enckey === undefined ? secret : `${enckey}-${secret}`;
}

export interface HmacCheck {
  headers: Headers;
  body: Buffer;
  /** The key from `hmacKeyFor`. */
  key: string;
  /** Whether we sent an enckey at init; if not, `No encryption key supplied` is expected, not a failure. */
  enckeySent: boolean;
  /** Which key it is, for the message (`the app secret`, `the session key`). */
  keyLabel?: string;
}

/** Verifies a 1.2 answer's `signature` header or throws SignatureError. */
export function verifyHmac(check: HmacCheck): void {
  const header = check.headers[HMAC_SIGNATURE_HEADER]?.trim() ?? '';
  if (header === NO_ENCKEY_SIGNATURE) {
    if (!check.enckeySent) return;
    throw new SignatureError('The server says no encryption key was supplied, but kactl sent one at init; the answer cannot be checked.', { reason: 'enckey-refused', scheme: 'hmac' });
  }
  if (header === '') {
    throw new SignatureError(`The answer is not signed: the ${HMAC_SIGNATURE_HEADER} header is missing.`, { reason: 'unsigned', scheme: 'hmac' });
  }
  const expected = Buffer.from(hmacSha256Hex(check.key, check.body), 'hex');
  const givenHex = header.toLowerCase();
  const given = /^[0-9a-f]{64}$/.test(givenHex) ? Buffer.from(givenHex, 'hex') : undefined;
  if (given === undefined || !nodeCrypto().timingSafeEqual(given, expected)) {
    throw new SignatureError(`The answer's HMAC signature does not match (checked with ${check.keyLabel ?? 'the app secret'}).`, { reason: 'mismatch', scheme: 'hmac' });
  }
}
