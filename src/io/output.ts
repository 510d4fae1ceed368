/**
 * The one writer commands use. Data goes to stdout in the format the user chose; everything
 * else (notes, success lines, warnings) goes to stderr. Tables and colour only on a terminal.
 */
import { Chalk, type ChalkInstance } from 'chalk';
import type { IOStreams } from './streams.js';
import type { Column, OutputFormat } from './format.js';
import { headerFor, humanCell, machineCell, stripControl, toCsv, toNdjson, toTsv } from './format.js';

export interface OutputOptions {
  /** `--json`: print the server's JSON (a list: a JSON array). */
  json: boolean;
  /** `-o/--output`; undefined = table on a terminal, TSV when piped. */
  format: OutputFormat | undefined;
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

  /** True when the user asked for JSON, by `--json` or `-o json`. */
  get wantsJson(): boolean {
    return this.options.json || this.options.format === 'json';
  }

  /** True when output is for people: no machine format was asked for. */
  get isHuman(): boolean {
    return !this.wantsJson && this.options.format === undefined && this.io.isStdoutTTY;
  }

  /** Pretty JSON on stdout. */
  json(value: unknown): void {
    this.io.out(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** A line of data on stdout (a key, a variable's value). */
  line(text: string): void {
    this.io.out(`${text}\n`);
  }

  /**
   * A list of records. `--json`/`-o json`: JSON array; `-o ndjson|csv|tsv`: that; `-o table` or
   * a terminal: a table; piped with no format: TSV without header.
   */
  async list(rows: readonly Record<string, unknown>[], columns: readonly Column[]): Promise<void> {
    if (this.wantsJson) return this.json(rows);
    const format = this.options.format ?? (this.io.isStdoutTTY ? 'table' : 'tsv');
    switch (format) {
      case 'ndjson':
        return this.io.out(toNdjson(rows));
      case 'csv':
        return this.io.out(toCsv(rows, columns));
      case 'tsv':
        return this.io.out(toTsv(rows, columns));
      case 'table':
      case 'json':
        if (rows.length === 0) {
          this.note('No results.');
          return;
        }
        return this.io.out(await this.table(rows, columns));
    }
  }

  /**
   * One record as `field  value` lines (aligned for people, tab-separated when piped), or JSON.
   * `columns` picks and orders the fields; without it every scalar field is shown.
   */
  record(record: Record<string, unknown>, columns?: readonly Column[]): void {
    if (this.wantsJson) return this.json(record);
    if (this.options.format === 'ndjson') return this.io.out(toNdjson([record]));
    const cols: readonly Column[] = columns ?? Object.keys(record).map((key) => ({ key }));
    if (this.options.format === 'csv') return this.io.out(toCsv([record], cols));
    // Same rule as lists: people's formatting on a terminal or with -o table, machine cells
    // (ISO dates, seconds) when piped or with -o tsv.
    const human = this.options.format === 'table' || (this.io.isStdoutTTY && this.options.format !== 'tsv');
    const width = Math.max(...cols.map((c) => c.key.length));
    for (const col of cols) {
      if (human) {
        this.io.out(`${this.outColor.bold(col.key.padEnd(width))}  ${humanCell(record[col.key], col.kind)}\n`);
      } else {
        this.io.out(`${col.key}\t${machineCell(record[col.key], col.kind).replace(/[\t\r\n]+/g, ' ')}\n`);
      }
    }
  }

  /** A note for people, on stderr. */
  note(message: string): void {
    this.io.err(`${stripControl(message)}\n`);
  }

  /** A done line on stderr: `✓ Created 10 licenses`. */
  success(message: string): void {
    const mark = this.io.isStderrTTY ? `${this.errColor.green('✓')} ` : '';
    this.io.err(`${mark}${stripControl(message)}\n`);
  }

  warn(message: string): void {
    this.io.err(`${this.errColor.yellow('warning:')} ${stripControl(message)}\n`);
  }

  error(message: string): void {
    this.io.err(`${this.errColor.red('error:')} ${stripControl(message)}\n`);
  }

  /** Dimmed text for stderr (hints under an error). */
  dim(message: string): string {
    return this.errColor.dim(message);
  }

  private async table(rows: readonly Record<string, unknown>[], columns: readonly Column[]): Promise<string> {
    // cli-table3 is loaded only here: `kactl --help` must not pay for it.
    const { default: Table } = await import('cli-table3');
    const empty = { top: '', 'top-mid': '', 'top-left': '', 'top-right': '', bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '', left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '  ' };
    const table = new Table({
      head: columns.map((c) => headerFor(c)),
      chars: empty,
      style: { head: this.io.stdoutColor ? ['bold'] : [], border: [], 'padding-left': 0, 'padding-right': 0 },
    });
    for (const row of rows) table.push(columns.map((c) => humanCell(row[c.key], c.kind)));
    return `${table.toString()}\n`;
  }
}
