/**
 * A list operation's filters (catalog `filters`) as flags of its command: `--status unused`,
 * `--created-after 2025-03-01`, `--banned`. Values are checked as the flag is read (exit 2, one
 * sentence); rows are tested by filter-rows.ts once the list is read. Loaded to build `--help`,
 * so it imports only commander, the catalog and the duration parser.
 */
import { InvalidArgumentError } from 'commander';
import type { Option } from 'commander';
import type { FilterSpec, SellerOp } from '../../api/seller-catalog/index.js';
import { durationHint, hasUnit, parseDuration, positiveSeconds } from '../../util/duration.js';
import { UsageError } from '../../errors.js';
import { KeyedOption } from './param-options.js';

/** Where a filter's value is stored in `command.opts()`. */
export function filterKey(flag: string): string {
  return `filter:${flag}`;
}

/** What a filter was given: a value, or `true` for a switch. */
export type FilterValues = Readonly<Record<string, string | true>>;

const MOMENT_HINT = 'Give a date (2025-03-01), a UTC time (2025-03-01T12:00:00Z) or how long ago (7d, 12h).';

/**
 * A moment as a filter reads it, in ms: a date (UTC midnight), a time with its zone, or a
 * duration ago (`7d`) counted from `nowMs`. Undefined when it is none of these.
 */
export function parseMoment(raw: string, nowMs: number): number | undefined {
  const text = raw.trim();
  if (hasUnit(text)) return nowMs - parseDuration(text, 'days')! * 1000;
  if (/^\d{4}-\d{2}-\d{2}$/.test(text) || /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) {
    const ms = Date.parse(text);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}

function checked(check: (raw: string) => string | undefined): (raw: string) => string {
  return (raw) => {
    const problem = check(raw);
    if (problem !== undefined) throw new InvalidArgumentError(problem);
    return raw.trim();
  };
}

/** What a filter's placeholder and check are, by how it tests rows. */
function optionFor(filter: FilterSpec): Option {
  const key = filterKey(filter.flag);
  const test = filter.test;
  switch (test.kind) {
    case 'set':
    case 'unset':
    case 'yes':
    case 'no':
      return new KeyedOption(`--${filter.flag}`, filter.description.replace(/^./, (c) => c.toLowerCase()), key);
    case 'equals': {
      const option = new KeyedOption(`--${filter.flag} <${test.values ? 'state' : (filter.value ?? 'value')}>`, lowerFirst(filter.description), key);
      return test.values ? option.choices(Object.keys(test.values)) : option;
    }
    case 'before':
    case 'after':
      return new KeyedOption(`--${filter.flag} <when>`, `${lowerFirst(filter.description)}: a date, a UTC time or how long ago (7d)`, key).argParser(
        checked((raw) => (parseMoment(raw, 0) === undefined ? MOMENT_HINT : undefined)),
      );
    case 'expiring-within':
      return new KeyedOption(`--${filter.flag} <duration>`, lowerFirst(filter.description), key).argParser(checked((raw) => (positiveSeconds(raw, 'days') === undefined ? durationHint('days') : undefined)));
    case 'subscription':
      return new KeyedOption(`--${filter.flag} <name>`, lowerFirst(filter.description), key);
  }
}

function lowerFirst(text: string): string {
  return text.replace(/^./, (c) => c.toLowerCase());
}

/** The flags of every filter of the path's list operations. */
export function filterOptions(ops: readonly SellerOp[]): Option[] {
  return ops.flatMap((op) => op.filters ?? []).map(optionFor);
}

/** The words help prints under a list command's options: what filters are and where they run. */
export function filterHelp(ops: readonly SellerOp[]): string[] {
  if (!ops.some((op) => (op.filters ?? []).length > 0)) return [];
  return [
    '',
    'Filters: the seller API has none, so kactl reads the whole list and keeps the',
    'rows that pass every filter given, before --limit counts them. Dates are UTC;',
    '"7d" means seven days ago.',
  ];
}

/**
 * The filters given on the command line for `op`; a filter of another operation of the same
 * path (`users list --usernames --banned`) is a usage error.
 */
export function givenFilters(ops: readonly SellerOp[], op: SellerOp, opts: Readonly<Record<string, unknown>>, given: (key: string) => boolean): FilterValues {
  const values: Record<string, string | true> = {};
  for (const other of ops) {
    for (const filter of other.filters ?? []) {
      const key = filterKey(filter.flag);
      if (!given(key)) continue;
      if (other !== op) {
        const owner = other.selector === undefined ? `without ${ops.filter((o) => o.selector !== undefined).map((o) => `--${o.selector}`).join(', ')}` : `with --${other.selector}`;
        throw new UsageError(`--${filter.flag} applies only ${owner}.`);
      }
      const value = opts[key];
      values[filter.flag] = typeof value === 'string' ? value : true;
    }
  }
  return values;
}
