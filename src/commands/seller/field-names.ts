/**
 * kactl's names for the fields of lists and records (catalog `name`, else the wire name): how
 * rows are renamed for the CSV/TSV header and the piped record lines, and how the words of
 * `--columns` and `--json FIELDS` (kactl's names, wire names, table labels) find their column.
 */
import { columnName, findColumn } from '../../api/seller-catalog/index.js';
import type { ColumnSpec } from '../../api/seller-catalog/index.js';
import type { Column } from '../../io/format.js';
import { UsageError } from '../../errors.js';

type Row = Record<string, unknown>;

/** A field the user named, with the column it names: it comes out under the word as given. */
export interface ChosenField {
  readonly word: string;
  readonly column: ColumnSpec;
}

/** The columns the words name, in their order; a word that names none is a usage error. */
export function chooseFields(columns: readonly ColumnSpec[], words: readonly string[], command: string): ChosenField[] {
  return words.map((word) => {
    const column = findColumn(columns, word);
    if (!column) throw new UsageError(`kactl ${command} has no field "${word}"; its fields are ${columns.map(columnName).join(', ')}.`);
    return { word, column };
  });
}

/** The chosen fields of a row, each under the word that chose it, as the server sent the value. */
export function pickFields(row: Row, chosen: readonly ChosenField[]): Row {
  return Object.fromEntries(chosen.map(({ word, column }) => [word, row[column.key]]));
}

/** Columns for the writer, keyed by kactl's names (or the chosen words). */
export function namedColumns(columns: readonly ColumnSpec[], chosen?: readonly ChosenField[]): Column[] {
  return chosen === undefined ? columns.map((c) => ({ key: columnName(c), header: c.header, kind: c.kind })) : chosen.map(({ word, column }) => ({ key: word, header: column.header, kind: column.kind }));
}

/** A row keyed by kactl's names (or the chosen words). */
export function namedRow(row: Row, columns: readonly ColumnSpec[], chosen?: readonly ChosenField[]): Row {
  return chosen === undefined ? Object.fromEntries(columns.map((c) => [columnName(c), row[c.key]])) : pickFields(row, chosen);
}

/** True when `word` names a field of one of these column lists (what `--json` takes as FIELDS). */
export function namesField(columnLists: readonly (readonly ColumnSpec[])[], word: string): boolean {
  return columnLists.some((columns) => findColumn(columns, word) !== undefined);
}
