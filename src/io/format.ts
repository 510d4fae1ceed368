/**
 * Pure formatting of records for the human and machine output modes: cell values, CSV, TSV,
 * NDJSON (YAML: yaml-text.ts). Kept apart from the writer so it can be tested without streams.
 */

export type OutputFormat = 'table' | 'json' | 'yaml' | 'ndjson' | 'csv' | 'tsv';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['table', 'json', 'yaml', 'ndjson', 'csv', 'tsv'];

/** How a cell is shown; declared with the column (the seller catalog owns the vocabulary). */
export type { ColumnKind } from '../api/seller-catalog/columns.js';
import type { ColumnKind } from '../api/seller-catalog/columns.js';

export interface Column {
  readonly key: string;
  readonly header?: string;
  readonly kind?: ColumnKind;
  /** On a narrow terminal, which columns stay: lower leaves first (default 0; src/io/table.ts). */
  readonly priority?: number;
}

/** `usedby` → `USEDBY`, `numOnlineUsers` → `NUM ONLINE USERS`: table headers read as labels. */
export function headerFor(column: Column): string {
  if (column.header !== undefined) return column.header;
  return column.key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toUpperCase();
}

// C0 and C1 control characters (and DEL) from end-user data could drive the terminal
// (cursor moves, title changes); gh rewrites them too. Tabs and newlines are handled per format.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/** Removes control characters that could drive a terminal; keeps tab and newline. */
export function stripControl(text: string): string {
  return text.replace(CONTROL_CHARS, '');
}

// Every control character (tab and newline too), and the line and paragraph separators some
// terminals break lines on: what a value printed one a line must not hold.
const LINE_BREAKING = /[\p{Cc}\u2028\u2029]/u;

/** Whether `text` holds a control character of any kind (tab and newline included). */
export function hasControl(text: string): boolean {
  return LINE_BREAKING.test(text);
}

/** `text` without control characters of any kind: printed one a line, it stays one line. */
export function oneLine(text: string): string {
  return text.replace(new RegExp(LINE_BREAKING.source, 'gu'), '');
}

function asSeconds(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  return undefined;
}

/** An ISO 8601 time (`2025-03-01T10:20:30Z`, as kactl's own records keep them) in seconds. */
function isoSeconds(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms / 1000;
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** Local date and time to the minute, for people. */
function humanDate(seconds: number): string {
  const d = new Date(seconds * 1000);
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

const DURATION_UNITS: readonly (readonly [number, string])[] = [
  [86_400, 'd'],
  [3_600, 'h'],
  [60, 'm'],
  [1, 's'],
];

/** `93784` → `1d 2h`, `3000` → `50m`, `-5` → `expired`: the largest unit and the next one. */
export function humanDuration(seconds: number): string {
  const whole = Math.floor(seconds);
  if (whole <= 0) return 'expired';
  const index = DURATION_UNITS.findIndex(([size]) => whole >= size);
  const [size, label] = DURATION_UNITS[index]!;
  const count = Math.floor(whole / size);
  const parts = [`${count}${label}`];
  const next = DURATION_UNITS[index + 1];
  if (next) {
    const rest = Math.floor((whole - count * size) / next[0]);
    if (rest > 0) parts.push(`${rest}${next[1]}`);
  }
  return parts.join(' ');
}

const TRUE_WORDS = new Set(['1', 'true', 'yes']);
const FALSE_WORDS = new Set(['0', 'false', 'no']);

/**
 * A cell for people (tables and records on a terminal). `nowMs` is the clock `timeleft` counts
 * from, in milliseconds; without it a `timeleft` cell shows the date.
 */
export function humanCell(value: unknown, kind: ColumnKind = 'text', nowMs?: number): string {
  if (value === null || value === undefined || value === '') return '-';
  if (kind === 'date' || (kind === 'timeleft' && nowMs === undefined)) {
    const seconds = asSeconds(value) ?? isoSeconds(value);
    if (seconds !== undefined && seconds > 0) return humanDate(seconds);
  }
  if (kind === 'timeleft' && nowMs !== undefined) {
    const seconds = asSeconds(value);
    if (seconds !== undefined && seconds > 0) return humanDuration(seconds - nowMs / 1000);
  }
  if (kind === 'duration') {
    const seconds = asSeconds(value);
    if (seconds !== undefined) return humanDuration(seconds);
  }
  if (kind === 'boolean') {
    const word = yesNo(value);
    if (word !== undefined) return word;
  }
  return stripControl(plainText(value)).replace(/[\t\n\r]+/g, ' ');
}

/**
 * A cell for machines (TSV, CSV): dates as ISO 8601 UTC, durations as seconds, a yes/no column
 * as `yes`/`no` (a bare `1` or `true` says nothing about which question it answers once the
 * header is cut off; JSON keeps the server's value), raw text otherwise.
 */
export function machineCell(value: unknown, kind: ColumnKind = 'text'): string {
  if (value === null || value === undefined) return '';
  if (kind === 'date' || kind === 'timeleft') {
    const seconds = asSeconds(value) ?? isoSeconds(value);
    if (seconds !== undefined && seconds > 0) return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
  }
  if (kind === 'boolean') {
    const word = yesNo(value);
    if (word !== undefined) return word;
  }
  return stripControl(plainText(value));
}

/** `1`, `true`, `yes` → `yes`; `0`, `false`, `no` → `no`; anything else undefined. */
function yesNo(value: unknown): 'yes' | 'no' | undefined {
  const word = plainText(value).toLowerCase();
  if (TRUE_WORDS.has(word)) return 'yes';
  if (FALSE_WORDS.has(word)) return 'no';
  return undefined;
}

function plainText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/** RFC 4180: quote when needed, double the quotes inside. */
function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** How the text formats are written: `--no-header` leaves out the header row. */
export interface TextFormatOptions {
  readonly header?: boolean;
}

/** RFC 4180 with a header row of the wire names (unless `header: false`). */
export function toCsv(rows: readonly Record<string, unknown>[], columns: readonly Column[], options: TextFormatOptions = {}): string {
  const lines = options.header === false ? [] : [columns.map((c) => csvField(c.key)).join(',')];
  if (lines.length === 0 && rows.length === 0) return '';
  for (const row of rows) lines.push(columns.map((c) => csvField(machineCell(row[c.key], c.kind))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * Tab-separated, one record a line, tabs and line breaks inside a value turned into spaces. A
 * header row of the wire names comes first (the names `--columns` takes), so a piped list says
 * what each field is; `header: false` (`--no-header`) leaves it out for `cut -f1` and `read`.
 */
export function toTsv(rows: readonly Record<string, unknown>[], columns: readonly Column[], options: TextFormatOptions = {}): string {
  const line = (cells: readonly string[]): string => `${cells.map((cell) => cell.replace(/[\t\r\n]+/g, ' ')).join('\t')}\n`;
  const header = options.header === false ? '' : line(columns.map((c) => c.key));
  return header + rows.map((row) => line(columns.map((c) => machineCell(row[c.key], c.kind)))).join('');
}

export function toNdjson(rows: readonly unknown[]): string {
  return rows.map((row) => JSON.stringify(row) + '\n').join('');
}
