/**
 * Printing an answer by the kind the catalog gives it: a list as a table / CSV / NDJSON / TSV,
 * a record as field-value lines, a single value bare on stdout, a bare message as a success
 * line on stderr. `--json` (or `-o json`) prints the server's JSON instead: a list's array, or
 * the whole body for everything else.
 */
import type { Context } from '../../context.js';
import type { ColumnSpec, SellerOp } from '../../api/seller-catalog/index.js';
import type { ListView } from '../../io/output.js';
import { humanDuration, stripControl } from '../../io/format.js';

/**
 * The one "now" that time-left cells count from, in milliseconds: the server's clock as its last
 * answer told it (a sandbox whose domain time was advanced), else the local one. Read after the
 * call, so every list and record of a run agrees with the server that answered.
 */
export function nowForDisplay(ctx: Context): number {
  return ctx.serverNow();
}

/** `--columns` and `--limit` as the list commands give them. */
export interface ListChoice {
  readonly columns?: readonly string[];
  readonly limit?: number;
}

async function viewFor(ctx: Context, columns: readonly ColumnSpec[], choice: ListChoice = {}): Promise<ListView> {
  const needsNow = columns.some((c) => c.kind === 'timeleft');
  const now = needsNow ? nowForDisplay(ctx) : undefined;
  return { ...choice, ...(now === undefined ? {} : { now: () => now }), columnsFlag: true };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The rows of a list answer. Not an array means nothing (E's `usersub` answers `subs: "not_found"`
 * with success); plain strings (older `fetchallusernames`) become rows of the first column.
 */
export function listRows(body: Record<string, unknown>, key: string, firstColumn: string): { raw: unknown[]; rows: Record<string, unknown>[] } {
  const value = body[key];
  const raw = Array.isArray(value) ? (value as unknown[]) : [];
  return { raw, rows: raw.map((row) => (isRecord(row) ? row : { [firstColumn]: row })) };
}

/**
 * A paused subscription keeps its remaining seconds in `expiry` (the real server's scheme), which
 * a date column would turn into a day in 1970, in a table as in CSV: say what it means instead.
 * `--json` keeps the server's value.
 */
function explainPaused(rows: Record<string, unknown>[]): Record<string, unknown>[] {
  return rows.map((row) => {
    const paused = row.paused === 1 || row.paused === '1' || row.paused === true;
    const remaining = Number(row.expiry);
    return paused && Number.isFinite(remaining) ? { ...row, expiry: `paused, ${humanDuration(remaining)} left` } : row;
  });
}

function pick(source: Record<string, unknown>, fields: readonly ColumnSpec[]): Record<string, unknown> {
  return Object.fromEntries(fields.map(({ key }) => [key, source[key]]));
}

/** A change that also returns data (upload's id, activate's user) still says what it did. */
function sayDone(ctx: Context, op: SellerOp, body: Record<string, unknown>, valueKey?: string): void {
  if (op.effect !== 'read' && valueKey !== 'message' && typeof body.message === 'string' && body.message !== '') ctx.output.success(body.message);
}

export async function renderAnswer(ctx: Context, op: SellerOp, body: Record<string, unknown>, choice: ListChoice = {}): Promise<void> {
  const response = op.response;
  if (response.kind === 'list') {
    const { raw, rows } = listRows(body, response.key, response.columns[0]?.key ?? 'value');
    // --json is the server's array as it came, cut only by --limit (and --columns when given).
    if (ctx.output.wantsJson && choice.columns === undefined) return ctx.output.json(choice.limit === undefined ? raw : raw.slice(0, choice.limit));
    return ctx.output.list(ctx.output.wantsJson ? rows : explainPaused(rows), response.columns, await viewFor(ctx, response.columns, choice));
  }
  if (ctx.output.wantsJson) return ctx.output.json(body);
  switch (response.kind) {
    case 'object': {
      sayDone(ctx, op, body);
      const record = body[response.key];
      return ctx.output.record(pick(isRecord(record) ? record : {}, response.fields), response.fields, await viewFor(ctx, response.fields));
    }
    case 'flat':
      return ctx.output.record(pick(body, response.fields), response.fields, await viewFor(ctx, response.fields));
    case 'value': {
      sayDone(ctx, op, body, response.key);
      const value = body[response.key];
      const text = value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
      // A variable's value is end-user data: on a terminal it must not drive the terminal.
      return ctx.output.line(ctx.io.isStdoutTTY ? stripControl(text) : text);
    }
    case 'message':
    case 'keys':
      return ctx.output.success(typeof body.message === 'string' && body.message !== '' ? body.message : 'Done.');
  }
}
