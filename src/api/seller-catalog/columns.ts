/**
 * A column of a list or a field of a record, as the catalog declares it: the wire name (kept by
 * the machine formats and `--columns`), the label people read, and how the value is shown
 * (`ColumnKind` below). Declared next to each operation, never guessed from a name.
 */
/**
 * How a cell is shown. Declared per column where the column is declared (the seller catalog,
 * a command's column list), never guessed from the field's name.
 * A narrow terminal shortens `text` cells (with an ellipsis) first; the other kinds only when
 * nothing else is left, since a cut key, date or number misleads.
 * - `text`: anything, stringified;
 * - `id`: a key, id or name people copy;
 * - `secret`: a credential shown on purpose (an app secret; a list never has one);
 * - `date`: a Unix time in seconds (string or number) → local date for people, ISO 8601 for machines;
 * - `timeleft`: a Unix time in seconds when something ends → `29d 23h` left from "now" for people
 *   (now comes from the caller: the server's clock where it has one), ISO 8601 for machines;
 * - `duration`: seconds → `29d 23h` for people, the number for machines;
 * - `boolean`: `1`/`0`, `true`/`false` → `yes`/`no` for people and in TSV and CSV (JSON keeps
 *   the raw value);
 * - `level`, `number`: numbers, right-aligned in tables.
 */
export type ColumnKind = 'text' | 'id' | 'secret' | 'date' | 'timeleft' | 'duration' | 'boolean' | 'level' | 'number';

/**
 * What a field's value is in the JSON of the answer, for the library's answer types
 * (src/api/seller-operations.ts, written by scripts/seller-types.mjs): `text` a string;
 * `numeric` a number or a flag (`0`/`1`), which the reference server sends as a string and other
 * servers may send as a number; `boolean` JSON's true or false; `json` a structure servers
 * shape differently (typed `unknown`). By default the kind's: `text` for text, id and secret
 * columns, `numeric` for the others.
 */
export type WireType = 'text' | 'numeric' | 'boolean' | 'json';

/** The wire type a column declares, or its kind's. */
export function wireTypeOf(column: ColumnSpec): WireType {
  if (column.wire !== undefined) return column.wire;
  return column.kind === 'text' || column.kind === 'id' || column.kind === 'secret' ? 'text' : 'numeric';
}

export interface ColumnSpec {
  /** The field's name in the server's answer (kept by `--json` alone). */
  readonly key: string;
  readonly header: string;
  readonly kind: ColumnKind;
  /**
   * kactl's name for the field where the wire's differs from what the table shows (`genby` is
   * `created_by`, its CREATED BY label in snake case): the CSV/TSV header, `--columns`,
   * `--json FIELDS` and the filters say it, and take the wire name as an alias. Absent, the
   * wire name is kactl's name.
   */
  readonly name?: string;
  /**
   * The field holds a list of records with these columns (a user's subscriptions and variables
   * in `users get`): people see them as a table under the record; machines keep the JSON.
   */
  readonly rows?: readonly ColumnSpec[];
  /** The value's JSON type where it is not the kind's (WireType). */
  readonly wire?: WireType;
  /** The server sends `null` when there is none (an unused key's `usedby`). */
  readonly nullable?: true;
  /** Some answers leave the field out (a user's subscriptions in `userdata` have no `paused`). */
  readonly optional?: true;
}

/** The column as one the server may send `null` in. */
export function orNull(column: ColumnSpec): ColumnSpec {
  return { ...column, nullable: true };
}

export function col(key: string, header: string, kind: ColumnKind = 'text', name?: string): ColumnSpec {
  return name === undefined ? { key, header, kind } : { key, header, kind, name };
}

/** kactl's name for a column: the declared one, else the wire name. */
export function columnName(column: ColumnSpec): string {
  return column.name ?? column.key;
}

/**
 * The column a user's word names: kactl's name, the wire name, or the table label (any case,
 * spaces or underscores: `created by`, `CREATED_BY`).
 */
export function findColumn(columns: readonly ColumnSpec[], word: string): ColumnSpec | undefined {
  const label = word.toLowerCase().replace(/[\s_-]+/g, ' ');
  return (
    columns.find((c) => columnName(c) === word) ??
    columns.find((c) => c.key === word) ??
    columns.find((c) => c.header.toLowerCase() === label || columnName(c).toLowerCase().replace(/_/g, ' ') === label)
  );
}
