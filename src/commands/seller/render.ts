/**
 * Printing an answer by the kind the catalog gives it: a list as a table / CSV / NDJSON / TSV,
 * a record as field-value lines, a single value bare on stdout, a bare message as a success
 * line on stderr. Lists are filtered first (filter-rows.ts), then cut by `--limit`. `--json` (or
 * `-o json`) prints the server's JSON instead: a list's array, or the whole body for everything
 * else; `--json FIELDS` (and `--columns` with JSON) only those fields, each under the name given,
 * with the server's values; `--jq EXPR` runs jq on that JSON. Text formats name fields as kactl
 * does (field-names.ts).
 */
import type { Context } from '../../context.js';
import { opCommandLine } from '../../api/seller-catalog/index.js';
import type { ColumnSpec, ResponseSpec, SellerOp } from '../../api/seller-catalog/index.js';
import type { ListView } from '../../io/output.js';
import { humanDuration, stripControl } from '../../io/format.js';
import { chooseFields, namedColumns, namedRow, pickFields } from './field-names.js';
import { keptRows } from './filter-rows.js';
import { isRecord, listRows } from '../../api/list-rows.js';
import type { FilterValues } from './list-filters.js';
import { runJq } from '../../io/jq.js';

/**
 * The one "now" that time-left cells count from, in milliseconds: the server's clock as its last
 * answer told it (a sandbox whose domain time was advanced), else the local one. Read after the
 * call, so every list and record of a run agrees with the server that answered.
 */
export function nowForDisplay(ctx: Context): number {
  return ctx.serverNow();
}

/** What a list or record command was asked to show: its flags beyond the wire parameters. */
export interface ListChoice {
  /** `--columns`: names as the user wrote them. */
  readonly columns?: readonly string[];
  readonly limit?: number;
  /** `--json FIELDS`: names as the user wrote them. */
  readonly fields?: readonly string[];
  /** `--jq EXPR`. */
  readonly jq?: string;
  /** The list filters given (list-filters.ts). */
  readonly filters?: FilterValues;
}

/** `columnsFlag`: the command takes --columns (a list), so the note about columns left out names it. */
async function viewFor(ctx: Context, columns: readonly ColumnSpec[], columnsFlag = false): Promise<ListView> {
  const needsNow = columns.some((c) => c.kind === 'timeleft' || (c.rows ?? []).some((r) => r.kind === 'timeleft'));
  const now = needsNow ? nowForDisplay(ctx) : undefined;
  return { ...(now === undefined ? {} : { now: () => now }), columnsFlag };
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

/** A change that also returns data (upload's id, activate's user) still says what it did. */
function sayDone(ctx: Context, op: SellerOp, body: Record<string, unknown>, valueKey?: string): void {
  if (op.effect !== 'read' && valueKey !== 'message' && typeof body.message === 'string' && body.message !== '') ctx.output.success(body.message);
}

/** `--jq`: jq's output on stdout; on a terminal without the control characters end-user data may hold. */
async function printJq(ctx: Context, value: unknown, expression: string): Promise<void> {
  const out = await runJq(value, expression);
  ctx.io.out(ctx.io.isStdoutTTY ? stripControl(out) : out);
}

/** The JSON a choice asks for: the chosen fields, or what the server sent. */
async function printJson(ctx: Context, value: unknown, choice: ListChoice): Promise<void> {
  if (choice.jq !== undefined) return printJq(ctx, value, choice.jq);
  ctx.output.json(value);
}

async function renderList(ctx: Context, op: SellerOp, response: Extract<ResponseSpec, { kind: 'list' }>, body: Record<string, unknown>, choice: ListChoice): Promise<void> {
  const { raw, rows } = listRows(body, response.key, response.columns[0]?.key ?? 'value');
  const keep = await keptRows(ctx, op, rows, choice.filters);
  let indices = rows.map((_, i) => i).filter((i) => keep?.[i] ?? true);
  if (choice.limit !== undefined) indices = indices.slice(0, choice.limit);
  const kept = indices.map((i) => rows[i]!);
  const words = choice.fields ?? choice.columns;
  const chosen = words === undefined ? undefined : chooseFields(response.columns, words, opCommandLine(op));
  // --json alone is the server's array as it came, cut only by the filters and --limit.
  if (choice.jq !== undefined || ctx.output.wantsJson) return printJson(ctx, chosen ? kept.map((row) => pickFields(row, chosen)) : indices.map((i) => raw[i]), choice);
  // -o ndjson keeps the server's records too, one a line.
  if (ctx.globals.output === 'ndjson' && !chosen) return ctx.output.list(kept, [], {});
  const shown = explainPaused(kept).map((row) => namedRow(row, response.columns, chosen));
  return ctx.output.list(shown, namedColumns(response.columns, chosen), await viewFor(ctx, response.columns, true));
}

async function renderRecord(ctx: Context, op: SellerOp, fields: readonly ColumnSpec[], record: Record<string, unknown>, body: Record<string, unknown>, choice: ListChoice): Promise<void> {
  const chosen = choice.fields === undefined ? undefined : chooseFields(fields, choice.fields, opCommandLine(op));
  if (choice.jq !== undefined || ctx.output.wantsJson) return printJson(ctx, chosen ? pickFields(record, chosen) : body, choice);
  if (op.response.kind === 'object') sayDone(ctx, op, body);
  const format = ctx.globals.output;
  const human = format === 'table' || (format === undefined && ctx.io.isStdoutTTY);
  // Lists inside the record (a user's subscriptions) as lists of their own under it, as the
  // command that lists them prints them (`users subscriptions`): a table for people, TSV or CSV
  // rows for machines, never a JSON cell in a text format. An empty one is `none` in the record
  // for people, a header alone for machines. NDJSON keeps the record whole.
  const nested =
    chosen === undefined && format !== 'ndjson' ? fields.filter((f) => f.rows !== undefined && Array.isArray(record[f.key]) && (!human || (record[f.key] as unknown[]).length > 0)) : [];
  const flat = fields.filter((f) => !nested.includes(f));
  const named = namedRow(record, flat, chosen);
  if (human) for (const f of fields) if (f.rows !== undefined && !nested.includes(f) && Array.isArray(record[f.key])) named[f.name ?? f.key] = 'none';
  ctx.output.record(named, namedColumns(flat, chosen), await viewFor(ctx, fields));
  for (const field of nested) {
    const columns = field.rows!;
    const rows = (record[field.key] as unknown[]).map((row) => (isRecord(row) ? row : { [columns[0]!.key]: row }));
    ctx.output.line(`\n${field.header.toLowerCase()}:`);
    await ctx.output.list(explainPaused(rows).map((row) => namedRow(row, columns)), namedColumns(columns), await viewFor(ctx, columns));
  }
}

export async function renderAnswer(ctx: Context, op: SellerOp, body: Record<string, unknown>, choice: ListChoice = {}): Promise<void> {
  const response = op.response;
  if (response.kind === 'list') return renderList(ctx, op, response, body, choice);
  if (response.kind === 'object') return renderRecord(ctx, op, response.fields, isRecord(body[response.key]) ? (body[response.key] as Record<string, unknown>) : {}, body, choice);
  if (response.kind === 'flat') return renderRecord(ctx, op, response.fields, body, body, choice);
  if (ctx.output.wantsJson) return ctx.output.json(body);
  switch (response.kind) {
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
