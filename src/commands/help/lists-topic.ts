/**
 * `kactl help lists`: finding things in a list. The filters and field names are read from the
 * seller catalog, so the topic lists every filter a list command has, in the words of its help.
 */
import { SELLER_CATALOG, columnName, opCommandLine } from '../../api/seller-catalog/index.js';
import type { FilterSpec } from '../../api/seller-catalog/index.js';
import { DURATION_EXAMPLES } from '../../util/duration.js';
import { wrapWords } from '../../io/wrap.js';
import { itemLines } from './layout.js';

/** A filter's usage, then its description wrapped beside it (or under it, when the usage is long). */
function filterLines(flag: string, value: string | undefined, description: string, width: number): string[] {
  const usage = `--${flag}${value === undefined ? '' : ` ${value.includes('|') ? value : value.toUpperCase()}`}`;
  // Indented under `  kactl licenses list`: two more than the layout's own indent.
  return itemLines(usage, 24, description.replace(/^./, (c) => c.toLowerCase()), width - 2).map((line) => `  ${line}`);
}

/** Running text at the width. */
const fill = (text: string, width: number, indent = ''): string[] => wrapWords(text, width, indent);

/** What a filter's value is, as its flag's help shows it; undefined for a switch. */
function valueWord(filter: FilterSpec): string | undefined {
  const test = filter.test;
  if (test.kind === 'equals') return test.values ? Object.keys(test.values).join('|') : (filter.value ?? 'value');
  if (test.kind === 'before' || test.kind === 'after') return 'when';
  if (test.kind === 'expiring-within') return 'duration';
  if (test.kind === 'subscription') return 'name';
  return undefined;
}

function licenseFields(): string {
  const op = SELLER_CATALOG.find((o) => o.type === 'fetchallkeys');
  return op?.response.kind === 'list' ? op.response.columns.map(columnName).join(', ') : '';
}

export function listsTopic(width: number): string {
  const item = (term: string, description: string): string[] => itemLines(term, 14, description, width - 2).map((line) => `  ${line}`);
  const lines = [
    'Finding things in a list',
    '',
    ...fill('Every list command takes --columns NAMES, --limit N, --json [FIELDS] and --jq EXPR; record commands (licenses get, users get, app details...) take --json [FIELDS] and --jq too.', width),
    '',
    ...item('--json', "the server's JSON as it came (a list: its array)."),
    ...item('--json FIELDS', "only these fields (comma-separated), under the names given, with the server's values:"),
    '                    kactl licenses list --json key,used_by',
    ...item('--jq EXPR', 'a jq expression run on that JSON by jq itself (1.8, built in; no jq binary needed), printed as jq -r prints, strings bare:'),
    '      kactl licenses list --jq \'.[] | select(.status == "Not Used") | .key\'',
    '',
    ...fill(`Field names are the CSV header's (kactl licenses list -o csv): a license's are ${licenseFields()}.`, width),
    ...fill("The server's names (genby, gendate, expires, usedby...) and the table's labels work too.", width),
    '',
    ...fill(
      `Filters: the seller API filters nothing, so kactl reads the whole list and keeps the rows that pass every filter given (then --limit counts). A moment is a date (2025-03-01, UTC), a UTC time (2025-03-01T12:00:00Z) or how long ago (7d); a duration is ${DURATION_EXAMPLES}.`,
      width,
    ),
  ];
  for (const op of SELLER_CATALOG.filter((o) => (o.filters ?? []).length > 0)) {
    lines.push('', `  kactl ${opCommandLine(op)}`);
    for (const filter of op.filters!) {
      lines.push(...filterLines(filter.flag, valueWord(filter), filter.description, width));
    }
  }
  lines.push('', 'Example: the unused keys of batch-a, as a column of keys:', '  kactl licenses list --status unused --note batch-a --columns key');
  return `${lines.join('\n')}\n`;
}
