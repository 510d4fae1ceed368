/**
 * `/api/seller/`: the global checks of docs/protocol/seller-api.md §1.3 in the real server's order, then
 * dispatch on `type`. Answers are PHP-style JSON `{"success",<fields>}` (no nonce, no
 * signature); with `format=text` a message-only answer is just its text, as the real server's
 * generic helpers print it. The key-length, rate-limit and duplicate-type refusals are always JSON.
 *
 * Which operations honour `format=text` is the catalog's `textFormat`: the lists, `appdetails`,
 * `stats`, `info`, `userdata`, `getkey`, `fetchfile`, `getbalance`... print JSON in E whatever
 * the format, failures included. (E's `activate` prints its failures as text; the sandbox keeps
 * that one operation all-JSON, as the catalog describes it.)
 */
import { findSellerOp } from '../../api/seller-catalog/index.js';
import { ownerRole } from '../domain/accounts.js';
import { because, fail, failWithStatus } from '../dispatch/reply.js';
import { resolveSellerApp, sellerKeyFormatError } from '../dispatch/seller-auth.js';
import type { HandlerTable, Reply } from '../dispatch/types.js';
import { JSON_CONTENT_TYPE, TEXT_CONTENT_TYPE, replyStatus, type EncodedResponse } from './encoded-response.js';
import type { AppRow } from '../domain/rows.js';
import { replyDecision, requestUser } from './decision.js';
import type { Answer, Decision } from './exchange.js';
import { countRawParam } from './form-decode.js';
import { createHandlerContext, runHandler, type HandlerContextDeps, type RequestBasics } from './handler-context.js';
import { jsonBytes } from './json-encode.js';
import { genuineRateLimited } from './rate-limited.js';
import { andThen, type MaybePromise } from './maybe-async.js';
import { rateReason, type FixedWindowLimiter, type RateRefusal } from './rate-limiter.js';
import type { RequestInput } from './request-input.js';

export const SELLER_MESSAGES = {
  rateLimited: 'Seller key used too frequently! Try again in 1 minute. Keep seller key private, use webhook function. Also, store data after fetching first time.',
  duplicateType: 'You have "type" defined more than 1 time. Remove 1 of the types and keep only 1',
  noType: 'Type not specified',
  appBanned: 'This application has been banned from KeyAuth.cc for violating terms',
  notSeller: 'Not authorized to use SellerAPI, please upgrade',
  unknownType: "Type doesn't exist",
  /** Sandbox-only: too many wrong seller keys from one client IP. */
  keyGuessing: 'Too many wrong seller keys from your address. Try again in 1 minute.',
} as const;

/** What the seller API is served with. */
export interface SellerEndpointDeps extends HandlerContextDeps {
  /** `type` → handler (seller/index.ts). */
  readonly handlers: HandlerTable;
  /** Requests per seller key; consulted only with rate limits on. */
  readonly keyLimiter: FixedWindowLimiter;
  /** Wrong seller keys per client IP; consulted only with rate limits on. */
  readonly wrongKeyLimiter: FixedWindowLimiter;
}

/** The answer; a promise only when the handler awaits something (see maybe-async.ts). */
export function serveSeller(deps: SellerEndpointDeps, input: RequestInput, basics: RequestBasics): MaybePromise<Answer> {
  const { params } = input;
  const type = params.get('type');
  const textFormat = params.get('format') === 'text';
  // The app, once the seller key named one: the record's user is looked up in it.
  const known: { app?: AppRow } = {};
  const decide = (reply: Reply) => (): Decision => replyDecision(reply, known.app === undefined ? undefined : requestUser(deps.store, known.app.id, undefined, params));
  const encode = (reply: Reply, allowText: boolean): Answer => ({
    response: encodeSellerReply(reply, allowText && textFormat, deps.options.failureStatus),
    type,
    decision: decide(reply),
  });
  // The hosted service answers a rate limit 200 with its own body; the spec-strict mode 429.
  const limited = (message: string, refusal: RateRefusal, what: string): Answer => {
    const reply = because({ ...fail(message), status: 429, headers: { 'retry-after': String(refusal.retryAfterSeconds) } }, rateReason(refusal, what));
    return deps.options.failureStatus === 200 ? { response: genuineRateLimited(message), type, decision: decide(reply) } : encode(reply, false);
  };

  const sellerKey = params.get('sellerkey');
  const malformed = sellerKeyFormatError(sellerKey);
  if (malformed) return encode(malformed, false);
  if (deps.options.rateLimit && sellerKey !== undefined) {
    const decision = deps.keyLimiter.hit(sellerKey);
    if (!decision.allowed) return limited(SELLER_MESSAGES.rateLimited, decision, 'requests with this seller key');
  }
  if (countRawParam(input.rawQuery, 'type') > 1) return encode(because(fail(SELLER_MESSAGES.duplicateType), 'type was sent more than once'), false);
  if (type === undefined) return encode(because(fail(SELLER_MESSAGES.noType), 'no type was sent'), true);
  // Wrong keys are counted per client IP (the per-key window above restarts with every guess);
  // past the limit every key from that IP is refused, the right one included, until the window ends.
  const guessing = deps.options.rateLimit ? deps.wrongKeyLimiter.peek(basics.ip) : { allowed: true as const };
  if (!guessing.allowed) return limited(SELLER_MESSAGES.keyGuessing, guessing, `wrong seller keys from ${basics.ip}`);
  const resolved = resolveSellerApp(deps.store, sellerKey);
  if ('reply' in resolved) {
    if (deps.options.rateLimit) deps.wrongKeyLimiter.hit(basics.ip);
    return encode(resolved.reply, true);
  }
  const { app } = resolved;
  known.app = app;
  if (app.banned) return encode(because(failWithStatus(403, SELLER_MESSAGES.appBanned), 'the app is banned'), true);
  const role = ownerRole(deps.store, app);
  if (role !== 'seller') return encode(because(failWithStatus(403, SELLER_MESSAGES.notSeller), `the app's owner account is ${role}, not seller`), true);
  const handler = Object.hasOwn(deps.handlers, type) ? deps.handlers[type] : undefined;
  if (handler === undefined) return encode(because(fail(SELLER_MESSAGES.unknownType), `the seller API has no type ${type}`), true);
  const ctx = createHandlerContext(deps, 'seller', type, app, basics);
  return andThen(runHandler(handler, ctx, params, deps.log), (reply) => encode(reply, findSellerOp(type)?.textFormat === true));
}

export function encodeSellerReply(reply: Reply, textFormat: boolean, failureStatus: number): EncodedResponse {
  const status = replyStatus(reply, failureStatus);
  const messageOnly = Object.keys(reply.fields).length === 1 && typeof reply.fields['message'] === 'string';
  const text = reply.text ?? (textFormat && messageOnly ? (reply.fields['message'] as string) : undefined);
  if (text !== undefined) {
    return { status, headers: { 'content-type': TEXT_CONTENT_TYPE, ...reply.headers }, body: Buffer.from(text, 'utf8') };
  }
  const body = jsonBytes({ success: reply.success, ...reply.fields }, reply.unescapedSlashes !== true);
  return { status, headers: { 'content-type': JSON_CONTENT_TYPE, ...reply.headers }, body };
}
