/**
 * The one writer commands use. Data goes to stdout in the format the user chose; everything
 * else (notes, success lines, warnings) goes to stderr. Tables and colour only on a terminal.
 */
import { Chalk, type ChalkInstance } from 'chalk';
import type { IOStreams } from './streams.js';
import type { Column, OutputFormat } from './format.js';
import { headerFor, humanCell, machineCell, stripControl, toCsv, toNdjson, toTsv } from './format.js';
import { renderTable } from './table.js';
import { wrapMessage } from './wrap.js';
import { toYaml } from './yaml-text.js';
import { UsageError } from '../errors.js';

/** How the caller wants a list cut and counted (`--columns`, `--limit`) and which clock it reads. */
export interface ListView {
  /** Wire names of the columns to show, in this order (`--columns`); every format honours it. */
  readonly columns?: readonly string[];
  /** At most this many rows (`--limit`); every format honours it. */
  readonly limit?: number;
  /** "Now" in milliseconds for `timeleft` cells: the server's clock where it has one. */
  readonly now?: () => number;
  /** The command takes `--columns`: the note about columns left out on a narrow terminal names it. */
  readonly columnsFlag?: boolean;
}

/** The columns `--columns` names, in its order; a name the list does not have is a usage error. */
export function chooseColumns(columns: readonly Column[], names: readonly string[] | undefined): readonly Column[] {
  if (names === undefined || names.length === 0) return columns;
  return names.map((name) => {
    const found = columns.find((c) => c.key === name) ?? columns.find((c) => headerFor(c).toLowerCase() === name.toLowerCase());
    if (!found) throw new UsageError(`This list has no column "${name}"; it has ${columns.map((c) => c.key).join(', ')}.`);
    return found;
  });
}

export interface OutputOptions {
  /** `--json`: print the server's JSON (a list: a JSON array). */
  json: boolean;
  /** `-o/--output`; undefined = table on a terminal, TSV when piped. */
  format: OutputFormat | undefined;
  /** False with `--no-header`: TSV and CSV without their header row. */
  header?: boolean;
}

export class Output {
  private readonly outColor: ChalkInstance;
  private readonly errColor: ChalkInstance;

  constructor(
    private readonly io: IOStreams,
    private readonly options: OutputOptions,
  ) {
    this.outColor = new Chalk({ level: io.stdoutColor ? 1 : 0 });
    this.errColor = new Chalk({ level: io.stderrColor ? 1 : 0 });
  }

  /**
   * True when the user asked for the document a command has (the server's JSON, a record):
   * JSON by `--json` or `-o json`, or the same in YAML by `-o yaml`. `json()` prints it in the
   * syntax asked for.
   */
  get wantsJson(): boolean {
    return this.options.json || this.options.format === 'json' || this.options.format === 'yaml';
  }

  /** True when output is for people: no machine format was asked for. */
  get isHuman(): boolean {
    return !this.wantsJson && this.options.format === undefined && this.io.isStdoutTTY;
  }

  /** A document on stdout: pretty JSON, or YAML with `-o yaml`. */
  json(value: unknown): void {
    this.io.out(this.document(value));
  }

  /** The text `json()` prints for a value (a file written instead of stdout has the same). */
  document(value: unknown): string {
    return this.options.format === 'yaml' ? toYaml(value) : `${JSON.stringify(value, null, 2)}\n`;
  }

  /** A line of data on stdout (a key, a variable's value). */
  line(text: string): void {
    this.io.out(`${text}\n`);
  }

  /**
   * A list of records. `--json`/`-o json`: JSON array (`-o yaml`: the same in YAML); `-o
   * ndjson|csv|tsv`: that; `-o table` or a terminal: a table; piped with no format: TSV, with a
   * header row unless `--no-header`.
   */
  async list(allRows: readonly Record<string, unknown>[], allColumns: readonly Column[], view: ListView = {}): Promise<void> {
    const columns = chooseColumns(allColumns, view.columns);
    const limited = view.limit === undefined ? allRows : allRows.slice(0, view.limit);
    // Machine formats keep the wire names and raw values; --columns only picks which.
    const rows = view.columns === undefined ? limited : limited.map((row) => Object.fromEntries(columns.map((c) => [c.key, row[c.key]])));
    if (this.wantsJson) return this.json(rows);
    const format = this.options.format ?? (this.io.isStdoutTTY ? 'table' : 'tsv');
    switch (format) {
      case 'ndjson':
        return this.io.out(toNdjson(rows));
      case 'csv':
        return this.io.out(toCsv(rows, columns, { header: this.options.header !== false }));
      case 'tsv':
        return this.io.out(toTsv(rows, columns, { header: this.options.header !== false }));
      case 'table':
      case 'json':
      case 'yaml':
        if (rows.length === 0) {
          this.note('No results.');
          return;
        }
        return this.io.out(this.table(rows, columns, view));
    }
  }

  /**
   * One record as `field  value` lines (aligned for people, tab-separated when piped), or JSON.
   * `columns` picks and orders the fields; without it every scalar field is shown.
   */
  record(record: Record<string, unknown>, columns?: readonly Column[], view: Pick<ListView, 'now'> = {}): void {
    if (this.wantsJson) return this.json(record);
    if (this.options.format === 'ndjson') return this.io.out(toNdjson([record]));
    const cols: readonly Column[] = columns ?? Object.keys(record).map((key) => ({ key }));
    if (this.options.format === 'csv') return this.io.out(toCsv([record], cols, { header: this.options.header !== false }));
    // Same rule as lists: people's formatting on a terminal or with -o table, machine cells
    // (ISO dates, seconds) when piped or with -o tsv.
    const human = this.options.format === 'table' || (this.io.isStdoutTTY && this.options.format !== 'tsv');
    // People read the column's label in lower case (`created by`); machines the wire name.
    const label = (col: Column): string => (col.header ?? col.key).toLowerCase();
    const width = Math.max(...cols.map((c) => label(c).length));
    const nowMs = view.now?.();
    for (const col of cols) {
      if (human) {
        this.io.out(`${this.outColor.bold(label(col).padEnd(width))}  ${humanCell(record[col.key], col.kind, nowMs)}\n`);
      } else {
        this.io.out(`${col.key}\t${machineCell(record[col.key], col.kind).replace(/[\t\r\n]+/g, ' ')}\n`);
      }
    }
  }

  /** A note for people, on stderr. */
  note(message: string): void {
    this.io.err(this.forStderr('', 0, message));
  }

  /** A done line on stderr: `✓ Created 10 licenses`. */
  success(message: string): void {
    const terminal = this.io.isStderrTTY;
    this.io.err(this.forStderr(terminal ? `${this.errColor.green('✓')} ` : '', terminal ? 2 : 0, message));
  }

  warn(message: string): void {
    this.io.err(this.forStderr(`${this.errColor.yellow('warning:')} `, 'warning: '.length, message));
  }

  error(message: string): void {
    this.io.err(this.forStderr(`${this.errColor.red('error:')} `, 'error: '.length, message));
  }

  /** A dimmed line under an error: the next step, a suggestion. */
  hint(message: string): void {
    const lines = this.wrapped(0, message);
    this.io.err(lines.map((line) => `${this.errColor.dim(line)}\n`).join(''));
  }

  /**
   * The one place stderr text is laid out: control characters removed, then, on a terminal,
   * wrapped at spaces to its width (`prefix` is `warning: ` and the like, `prefixWidth` its
   * width on screen: continuation lines are indented by it).
   */
  private forStderr(prefix: string, prefixWidth: number, message: string): string {
    const [first = '', ...rest] = this.wrapped(prefixWidth, message);
    return [`${prefix}${first}`, ...rest].map((line) => `${line}\n`).join('');
  }

  private wrapped(prefixWidth: number, message: string): string[] {
    const text = stripControl(message);
    const columns = this.io.stderrColumns;
    // One column short of the edge, as tables: a line exactly as wide as the terminal wraps on some.
    return columns === undefined ? text.split('\n') : wrapMessage(text, Math.max(20, columns - 1), prefixWidth);
  }

  private table(rows: readonly Record<string, unknown>[], columns: readonly Column[], view: ListView): string {
    const nowMs = view.now?.();
    const { lines, hidden } = renderTable(
      columns.map((c) => ({
        header: headerFor(c),
        align: c.kind === 'number' || c.kind === 'level' ? 'right' : 'left',
        // Only free text gives up characters first: a cut key, date or number misleads.
        keepWhole: c.kind !== undefined && c.kind !== 'text',
        ...(c.priority === undefined ? {} : { priority: c.priority }),
      })),
      rows.map((row) => columns.map((c) => humanCell(row[c.key], c.kind, nowMs))),
      // One column short of the edge: a line exactly as wide as the terminal wraps on some.
      Math.max(20, this.io.columns - 1),
    );
    if (hidden.length > 0) {
      const how = view.columnsFlag === true ? '--columns picks columns' : '-o json shows every field';
      this.note(`Not shown at this width: ${hidden.map((h) => h.toLowerCase()).join(', ')} (${how}).`);
    }
    const [header = '', ...body] = lines;
    return [this.io.stdoutColor ? this.outColor.bold(header) : header, ...body].map((line) => `${line}\n`).join('');
  }
}
