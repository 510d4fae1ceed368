/**
 * Serialising and signing client API replies (docs/protocol/client-api.md §2).
 *
 * 1.3: `{"success",…,"code",<fields>,"nonce"?,"ownerid"}` in the order of the observed hosted
 * body: `code` right after `success` (68 on success; 0 on failure, our choice, since the hosted
 * failure value is unknown and clients only need a number), the handler's fields, a UUID v4
 * `nonce` when the reply wants one, then `ownerid` = the request's ownerid. Pure-ASCII JSON.
 * Every answer, text bodies and errors included, gets `x-signature-timestamp` and
 * `x-signature-ed25519` = Ed25519(timestamp ‖ body).
 *
 * 1.2: `{"success",<fields>,"nonce"?}` as PHP json_encode (`\/`), nonce 32 alphanumerics;
 * `signature` = HMAC-SHA256(body) keyed by the app secret for `init` and `enckey-secret` after
 * (the literal `No encryption key supplied` when the session has none; no header where the
 * source sends none).
 */
import { createHmac, createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import { randomString } from '../domain/random.js';
import type { ApiVersion, AppRow, SessionRow } from '../domain/rows.js';
import type { Reply } from '../dispatch/types.js';
import { JSON_CONTENT_TYPE, replyStatus, type EncodedResponse } from './encoded-response.js';
import { asciiJson, phpJson } from './json-encode.js';
import { ed25519SignBytes, ed25519Signature, NO_ENCRYPTION_KEY } from './signing.js';
import { hexFieldOf, streamedJsonBody, type StreamedBody } from './streamed-body.js';

/** `code` of a successful 1.3 answer (the official C++ SDK exits unless it is 68). */
export const CODE_SUCCESS = 68;
/** `code` of a failed 1.3 answer. */
export const CODE_FAILURE = 0;

export interface ClientEncodeContext {
  readonly version: ApiVersion;
  /** The request's `ownerid`, echoed by 1.3 (null when it sent none). */
  readonly ownerid: string | null;
  /** The app addressed, once known. */
  readonly app: AppRow | undefined;
  /** The request's session, once known (1.2 HMAC key). */
  readonly session: SessionRow | undefined;
  /** The request is an `init` (1.2 signs it with the app secret). */
  readonly isInit: boolean;
  readonly failureStatus: number;
  readonly privateKey: KeyObject;
  /** Milliseconds since the epoch, for the signature timestamp. */
  readonly nowMs: number;
}

export function encodeClientReply(reply: Reply, ctx: ClientEncodeContext): EncodedResponse {
  const status = replyStatus(reply, ctx.failureStatus);
  const withNonce = reply.nonce ?? reply.success;
  const hexField = reply.text === undefined ? hexFieldOf(reply.fields) : undefined;
  if (ctx.version === '1.3') {
    const timestamp = String(Math.floor(ctx.nowMs / 1000));
    let body: Buffer | StreamedBody;
    let signature: string;
    if (hexField === undefined) {
      // The signed bytes (timestamp ‖ body) made at once, the body a view of them.
      const signed = Buffer.from(timestamp + (reply.text ?? encode13(reply, reply.fields, withNonce, ctx.ownerid)), 'utf8');
      body = signed.subarray(timestamp.length);
      signature = ed25519SignBytes(ctx.privateKey, signed);
    } else {
      body = streamedJsonBody(reply.fields, hexField, (fields) => encode13(reply, fields, withNonce, ctx.ownerid));
      signature = ed25519Signature(ctx.privateKey, timestamp, body);
    }
    return {
      status,
      headers: { 'content-type': JSON_CONTENT_TYPE, 'x-signature-timestamp': timestamp, 'x-signature-ed25519': signature, ...reply.headers },
      body,
    };
  }
  const body =
    hexField === undefined
      ? Buffer.from(reply.text ?? encode12(reply, reply.fields, withNonce), 'utf8')
      : streamedJsonBody(reply.fields, hexField, (fields) => encode12(reply, fields, withNonce));
  const signature = reply.unsigned === true ? undefined : hmacHeader(ctx, reply.success, body);
  const headers: Record<string, string> = { 'content-type': JSON_CONTENT_TYPE };
  if (signature !== undefined) headers['signature'] = signature;
  return { status, headers: reply.headers === undefined ? headers : Object.assign(headers, reply.headers), body };
}

/** A 1.3 body: `success`, `code`, the fields, a fresh `nonce` when wanted, `ownerid`. */
function encode13(reply: Reply, fields: Readonly<Record<string, unknown>>, withNonce: boolean, ownerid: string | null): string {
  const answer: Record<string, unknown> = { success: reply.success, code: reply.success ? CODE_SUCCESS : CODE_FAILURE };
  Object.assign(answer, fields);
  if (withNonce) answer['nonce'] = randomUUID();
  answer['ownerid'] = ownerid;
  return asciiJson(answer);
}

/** A 1.2 body: `success`, the fields, a fresh `nonce` when wanted, as PHP writes it. */
function encode12(reply: Reply, fields: Readonly<Record<string, unknown>>, withNonce: boolean): string {
  const answer: Record<string, unknown> = { success: reply.success };
  Object.assign(answer, fields);
  if (withNonce) answer['nonce'] = randomString(32);
  return phpJson(answer, { escapeSlashes: reply.unescapedSlashes !== true });
}

function hmacHeader(ctx: ClientEncodeContext, success: boolean, body: Buffer | StreamedBody): string | undefined {
  const { app, session } = ctx;
  if (app === undefined) return undefined;
  if (ctx.isInit) {
    // The source signs init failures with the secret, and a successful init without enckey
    // with the literal text (the client has no key to check it with).
    return success && session !== undefined && session.enckey === null ? NO_ENCRYPTION_KEY : hmacOf(app.secret, body);
  }
  if (session === undefined) return undefined;
  return session.enckey === null ? NO_ENCRYPTION_KEY : hmacOf(`${session.enckey}-${app.secret}`, body);
}

/**
 * The HMAC keys of recent answers, imported once: a session signs every answer with the same
 * `enckey-secret`, and importing the key text again for each answer was a share of its cost.
 * Bounded: emptied when full (a key made again costs one import).
 */
const hmacKeys = new Map<string, KeyObject>();
const MAX_HMAC_KEYS = 1024;

function hmacKey(text: string): KeyObject {
  let key = hmacKeys.get(text);
  if (key === undefined) {
    if (hmacKeys.size >= MAX_HMAC_KEYS) hmacKeys.clear();
    key = createSecretKey(Buffer.from(text, 'utf8'));
    hmacKeys.set(text, key);
  }
  return key;
}

/** HMAC-SHA256 hex of a whole or a streamed body (HMAC takes the bytes in pieces). */
function hmacOf(keyText: string, body: Buffer | StreamedBody): string {
  const hmac = createHmac('sha256', hmacKey(keyText));
  if (Buffer.isBuffer(body)) return hmac.update(body).digest('hex');
  for (const chunk of body.chunks()) hmac.update(chunk);
  return hmac.digest('hex');
}
