/**
 * `add` (docs/protocol/seller-api.md §3.6): create license keys. Durations are days (fractions allowed),
 * stored as seconds. At most 100 keys a call and 5000 per app per 24 hours; a mask without `*`
 * is one custom key; `format=text` answers the keys alone, CRLF between them. `keys` (a sandbox
 * extension, given-keys.ts) names up to 100 keys to make as they are, in one transaction.
 *
 * Several keys answer 200 here: E sends 302 (with no Location), which some HTTP clients chase
 * or treat as an error; docs/design.md's status policy is 200 for every success.
 */
import { generateLicenses, insertLicenses } from '../domain/licenses.js';
import { debitReseller, findAppReseller } from '../domain/reseller-balance.js';
import { isFixedMask, normalizeMask, parseCharacterSet } from '../domain/license-keys.js';
import type { Params } from '../dispatch/params.js';
import { fail, ok } from '../dispatch/reply.js';
import type { HandlerContext, Reply } from '../dispatch/types.js';
import { dailyQuota, DAILY_QUOTA_MESSAGE, MAX_KEYS_PER_CALL, TOO_MANY_PER_CALL_MESSAGE } from './key-quota.js';
import { daysToSeconds, wantsText } from './params.js';
import { checkedParams } from './checked-params.js';
import { givenKeys } from './given-keys.js';

/**
 * The quantity a shop's JSON webhook body carries (Sellix `data.quantity`, Shoppy
 * `data.order.quantity`, Sell.app `data.Quantity`); it overrides `amount`, as in E.
 */
export function shopQuantity(body: string | undefined): number | undefined {
  if (body === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const data = (parsed as { data?: unknown } | null)?.data;
  if (typeof data !== 'object' || data === null) return undefined;
  const record = data as { quantity?: unknown; order?: { quantity?: unknown } | null; Quantity?: unknown };
  for (const candidate of [record.quantity, record.order?.quantity, record.Quantity]) {
    // Digits only as text: Number() would also read "0x10", "1e2" or " 5 ".
    const n = typeof candidate === 'string' && /^\d+$/.test(candidate) ? Number(candidate) : candidate;
    if (typeof n === 'number' && Number.isInteger(n)) return n;
  }
  return undefined;
}

/** Thrown to roll a reseller's debit back when the keys could not be made. */
class RefusedGeneration extends Error {}

export function addLicenses(ctx: HandlerContext, params: Params): Reply {
  const p = checkedParams(params, 'add', { required: ['expiry'], optional: ['amount', 'mask', 'level', 'character', 'note', 'owner'], numbers: ['expiry', 'amount'] });
  const given = givenKeys(params, p.amount);
  if (given !== undefined && !given.ok) return fail(given.message);
  const amount = given?.keys.length ?? shopQuantity(ctx.request.body) ?? p.amount ?? 1;
  if (amount > MAX_KEYS_PER_CALL) return fail(TOO_MANY_PER_CALL_MESSAGE);
  if (amount < 1) return fail('Invalid parameter: amount must be from 1 to 100');
  const mask = normalizeMask(p.mask);
  if (given === undefined && isFixedMask(mask) && amount > 1) return fail("Can't do custom key with amount greater than one");

  const quota = dailyQuota(ctx.store, ctx.app.id, amount, ctx.now);
  if (!quota.allowed) {
    // 429 in both status modes: this is the real server's status, and kactl reads it as a quota
    // (not retried), not as a rate limit.
    return { ...fail(DAILY_QUOTA_MESSAGE), status: 429, headers: { 'retry-after': String(quota.retryAfter) } };
  }

  const owner = p.owner;
  const expires = daysToSeconds(p.expiry);
  const settings = { level: p.level ?? '1', note: p.note ?? null, genby: owner ?? 'SellerAPI', expires };
  // Keys made for a reseller account are paid from its balance for that duration, in the same
  // transaction, so a spent balance makes nothing.
  const reseller = owner === undefined ? undefined : findAppReseller(ctx.store, ctx.app, owner);
  const make = (): { ok: true; value: string[] } | { ok: false; message: string } => ctx.store.tx(() => {
    if (reseller !== undefined) {
      const debit = debitReseller(ctx.store, ctx.app.id, reseller.username, expires, amount);
      if (!debit.ok) return { ok: false as const, message: debit.message };
    }
    const result = given !== undefined
      ? insertLicenses(ctx.store, ctx.app.id, given.keys, settings, ctx.now)
      : generateLicenses(ctx.store, ctx.app.id, { ...settings, mask, amount, character: parseCharacterSet(p.character) }, ctx.now);
    // A refused generation must not keep the debit.
    if (!result.ok && reseller !== undefined) throw new RefusedGeneration(result.message);
    return result;
  });
  let made: ReturnType<typeof make>;
  try {
    made = make();
  } catch (error) {
    if (!(error instanceof RefusedGeneration)) throw error;
    made = { ok: false, message: error.message };
  }
  if (!made.ok) return fail(made.message);

  const keys = made.value;
  if (wantsText(params)) return { ...ok('Licenses successfully generated', { keys }), text: keys.join('\r\n') };
  const [first] = keys;
  return keys.length === 1 && first !== undefined ? ok('License Successfully Generated', { key: first }) : ok('Licenses successfully generated', { keys });
}
