/**
 * The flags of every list and record command: `--columns` and `--limit` (as gh's `--limit`),
 * `--json [fields]` and `--jq EXPR` (as gh's). Column and field names are kactl's (the CSV
 * header; for licenses `created_by`, `used_on`…), the wire names work too (`genby`).
 */
import { InvalidArgumentError, Option } from 'commander';
import type { Command } from 'commander';
import type { ListChoice } from './render.js';
import type { FilterValues } from './list-filters.js';

function names(raw: string): string[] | undefined {
  const list = raw.split(',').map((name) => name.trim()).filter((name) => name !== '');
  return list.length === 0 ? undefined : list;
}

function parseColumns(raw: string): string[] {
  const list = names(raw);
  if (list === undefined) throw new InvalidArgumentError('Give column names separated by commas, e.g. key,status.');
  return list;
}

function parseLimit(raw: string): number {
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1) throw new InvalidArgumentError('Give a whole number of rows, 1 or more.');
  return Number(raw);
}

export function listViewOptions(): Option[] {
  return [
    new Option('--columns <names>', 'show only these columns, in this order (names as in the CSV header, comma-separated)').argParser(parseColumns),
    new Option('--limit <n>', 'show at most this many rows').argParser(parseLimit),
  ];
}

/**
 * `--json [fields]` and `--jq EXPR`. `--json` is the global flag made to take an optional value
 * here: alone it prints the server's JSON as before; `--json key,status` only those fields.
 */
export function jsonOptions(): Option[] {
  return [
    new Option('--json [fields]', "print JSON: the server's, or with FIELDS (comma-separated) only those fields"),
    new Option('--jq <expression>', 'filter the JSON output with a jq expression (jq 1.8, built in), printed as jq -r prints'),
  ];
}

/**
 * Makes `--json` take the next word as field names only where that is what it can be: on a
 * command without an argument, a word with a comma, or a field's name. Otherwise the word is the
 * command's argument, so `kactl licenses get --json ABCDEF-123456` still prints the whole JSON of
 * that key, as it did before `--json` took fields (commander gives any word after an optional
 * value to the option).
 */
export function jsonTakesOnlyFields(command: Command, isField: (name: string) => boolean): void {
  const parse = command.parseOptions.bind(command);
  const takesArgument = command.registeredArguments.length > 0;
  const names = (word: string): boolean => !takesArgument || word.includes(',') || isField(word);
  command.parseOptions = (args: string[]) => parse(args.map((arg, i) => {
    const next = args[i + 1];
    return arg === '--json' && next !== undefined && !next.startsWith('-') && !names(next) ? '--json=' : arg;
  }));
}

export function listChoiceFrom(opts: Readonly<Record<string, unknown>>, filters?: FilterValues): ListChoice {
  const columns = Array.isArray(opts.columns) ? (opts.columns as string[]) : undefined;
  const limit = typeof opts.limit === 'number' ? opts.limit : undefined;
  // `--json=` (what a word that names no field leaves) and `--json ,` mean no fields: the whole JSON.
  const fields = typeof opts.json === 'string' ? names(opts.json) : undefined;
  const jq = typeof opts.jq === 'string' ? opts.jq : undefined;
  return {
    ...(columns ? { columns } : {}),
    ...(limit === undefined ? {} : { limit }),
    ...(fields ? { fields } : {}),
    ...(jq === undefined ? {} : { jq }),
    ...(filters && Object.keys(filters).length > 0 ? { filters } : {}),
  };
}
