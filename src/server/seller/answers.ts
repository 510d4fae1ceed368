/**
 * Reply shapes the seller handlers share: lists with the catalog's empty-list message, answers
 * that are just one of two sentences, and the string form the real server gives numbers in.
 */
import { findSellerOp } from '../../api/seller-catalog/index.js';
import { fail, failWithStatus, ok } from '../dispatch/reply.js';
import type { HandlerContext, Reply } from '../dispatch/types.js';
import type { EncodedJson } from '../http/json-encode.js';

/**
 * A list answer: `{"success":true,"message":…,"<key>":[…]}` under the catalog's key for the
 * type being served. No rows is a failure with the catalog's empty message (`No keys found`),
 * as the real server answers it: 406 in the hosted mode, 400 in the spec-strict one (docs/design.md).
 * `rows` may be a non-empty list already encoded (list-cache.ts).
 */
export function listReply(ctx: HandlerContext, message: string, rows: readonly object[] | EncodedJson): Reply {
  const response = findSellerOp(ctx.type)?.response;
  if (response?.kind !== 'list') throw new Error(`Seller type ${ctx.type} is not a list in the catalog`);
  if (Array.isArray(rows) && rows.length === 0) return failWithStatus(406, response.emptyMessage);
  return ok(message, { [response.key]: rows });
}

/** `ok(success)` when `done`, else `fail(failure)`: most writes answer one of two sentences. */
export function either(done: boolean, success: string, failure: string): Reply {
  return done ? ok(success) : fail(failure);
}

/** A lookup's two sentences; "not found" carries the hosted seller API's 406 (`verify`, `verifyuser`). */
export function found(present: boolean, success: string, notFound: string): Reply {
  return present ? ok(success) : failWithStatus(406, notFound);
}

/**
 * Numbers as the real server sends database values: as strings (`"1700000000"`), null kept.
 * Clients parse them; sending JSON numbers would break those that compare strings.
 */
export function str(value: number | string | null): string | null {
  return value === null ? null : String(value);
}
