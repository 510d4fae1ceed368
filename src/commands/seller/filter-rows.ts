/**
 * Applies a list's filters (catalog `filters`, flags from list-filters.ts) to the rows the
 * server sent: the seller API filters nothing itself. Subscription filters read each user's
 * subscriptions (`usersub`, one paced call a row, said beforehand when it takes a while).
 */
import type { Context } from '../../context.js';
import { findColumn, findSellerOp } from '../../api/seller-catalog/index.js';
import type { FilterSpec, FilterTest, SellerOp } from '../../api/seller-catalog/index.js';
import { parseDuration } from '../../util/duration.js';
import { timeLeftText } from '../../io/progress.js';
import { responseOptions } from '../../api/seller-call-options.js';
import { parseMoment } from './list-filters.js';
import type { FilterValues } from './list-filters.js';

type Row = Record<string, unknown>;

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
}

const YES = new Set(['1', 'true', 'yes']);

/** A date cell (Unix seconds) in ms, or undefined when the row has none. */
function cellMs(value: unknown): number | undefined {
  const seconds = Number(text(value));
  return text(value) !== '' && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}

/** The wire name of the column a filter reads. */
function fieldKey(op: SellerOp, field: string): string {
  const columns = op.response.kind === 'list' ? op.response.columns : [];
  return findColumn(columns, field)?.key ?? field;
}

function passes(op: SellerOp, test: Exclude<FilterTest, { from: string }>, value: string | true, row: Row, nowMs: number): boolean {
  const cell = row[fieldKey(op, test.field)];
  switch (test.kind) {
    case 'equals': {
      if (test.values === undefined) return text(cell) === value;
      return text(cell).toLowerCase() === (test.values[value as string] ?? String(value)).toLowerCase();
    }
    case 'before':
    case 'after': {
      const at = cellMs(cell);
      const moment = parseMoment(value as string, nowMs)!;
      return at !== undefined && (test.kind === 'before' ? at < moment : at >= moment);
    }
    case 'set': return text(cell) !== '';
    case 'unset': return text(cell) === '';
    case 'yes': return YES.has(text(cell).toLowerCase());
    case 'no': return !YES.has(text(cell).toLowerCase());
  }
}

/** A user's subscriptions as `from` lists them (`usersub`), running ones only. */
async function subscriptionsOf(ctx: Context, from: SellerOp, row: Row, nowMs: number): Promise<Row[]> {
  const param = from.params.find((p) => p.positional)!;
  const body = await (await ctx.sellerApi()).call(from.type, { [param.wire]: text(row.username) }, { effect: 'read', ...responseOptions(from) });
  const key = from.response.kind === 'list' ? from.response.key : 'subs';
  const subs = Array.isArray(body[key]) ? (body[key] as unknown[]) : [];
  return subs.filter((s): s is Row => s !== null && typeof s === 'object').filter((s) => !YES.has(text(s.paused)) && (cellMs(s.expiry) ?? 0) > nowMs);
}

/** Before a call per row on a paced profile: how many and how long, so a long wait is expected. */
async function sayCalls(ctx: Context, rows: number): Promise<void> {
  const api = await ctx.sellerApi();
  const ms = api.estimateMs(rows, 100);
  if (ms >= 2000) ctx.output.note(`Reading the subscriptions of ${rows} users to filter them: ${rows} calls, ${timeLeftText(ms)}.`);
}

/** The rows (by index) that pass every filter given; undefined when none was given. */
export async function keptRows(ctx: Context, op: SellerOp, rows: readonly Row[], given: FilterValues | undefined): Promise<boolean[] | undefined> {
  const filters = (op.filters ?? []).filter((f) => given?.[f.flag] !== undefined);
  if (filters.length === 0) return undefined;
  const nowMs = ctx.serverNow();
  const plain = filters.filter((f): f is FilterSpec & { test: Exclude<FilterTest, { from: string }> } => !('from' in f.test));
  const keep = rows.map((row) => plain.every((f) => passes(op, f.test, given![f.flag]!, row, nowMs)));
  const bySubscription = filters.filter((f) => 'from' in f.test);
  if (bySubscription.length === 0) return keep;
  const from = findSellerOp((bySubscription[0]!.test as { from: string }).from)!;
  const name = bySubscription.find((f) => f.test.kind === 'subscription');
  const within = bySubscription.find((f) => f.test.kind === 'expiring-within');
  await sayCalls(ctx, keep.filter(Boolean).length);
  for (const [index, row] of rows.entries()) {
    if (!keep[index]) continue;
    let subs = await subscriptionsOf(ctx, from, row, nowMs);
    if (name) subs = subs.filter((s) => text(s.subscription) === given![name.flag]);
    if (within) {
      const until = nowMs + parseDuration(given![within.flag] as string, 'days')! * 1000;
      subs = subs.filter((s) => (cellMs(s.expiry) ?? Infinity) <= until);
    }
    keep[index] = subs.length > 0;
  }
  return keep;
}
