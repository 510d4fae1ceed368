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

export interface ColumnSpec {
  readonly key: string;
  readonly header: string;
  readonly kind: ColumnKind;
}

export function col(key: string, header: string, kind: ColumnKind = 'text'): ColumnSpec {
  return { key, header, kind };
}
