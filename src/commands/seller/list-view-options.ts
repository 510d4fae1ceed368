/**
 * `--columns` and `--limit`, the two flags every list command takes (as gh's `--limit`): which
 * columns, in which order, and how many rows. Column names are the wire names the machine
 * formats print (`kactl licenses list -o csv` shows them in its header).
 */
import { InvalidArgumentError, Option } from 'commander';
import type { ListChoice } from './render.js';

function parseColumns(raw: string): string[] {
  const names = raw.split(',').map((name) => name.trim()).filter((name) => name !== '');
  if (names.length === 0) throw new InvalidArgumentError('Give column names separated by commas, e.g. key,status.');
  return names;
}

function parseLimit(raw: string): number {
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1) throw new InvalidArgumentError('Give a whole number of rows, 1 or more.');
  return Number(raw);
}

export function listViewOptions(): Option[] {
  return [
    new Option('--columns <names>', 'show only these columns, in this order (wire names, comma-separated)').argParser(parseColumns),
    new Option('--limit <n>', 'show at most this many rows').argParser(parseLimit),
  ];
}

export function listChoiceFrom(opts: Readonly<Record<string, unknown>>): ListChoice {
  const columns = Array.isArray(opts.columns) ? (opts.columns as string[]) : undefined;
  const limit = typeof opts.limit === 'number' ? opts.limit : undefined;
  return { ...(columns ? { columns } : {}), ...(limit === undefined ? {} : { limit }) };
}
