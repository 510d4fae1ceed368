/**
 * What a few operations need beyond the catalog, as far as `--help` sees it: extra options and
 * extra words on a catalog flag. The behaviour behind them is in wire-params.ts (values) and
 * licenses-create.ts (bulk creation); this file stays light because it is loaded for `--help`.
 */
import { Option } from 'commander';

export interface VerbExtras {
  /** Options the catalog does not have (stored under their commander attribute names). */
  readonly options?: () => readonly Option[];
  /** Words appended to a catalog flag's help, by flag. */
  readonly flagNotes?: Readonly<Record<string, string>>;
  /** A catalog flag's help replaced, where the command does more than the wire allows. */
  readonly flagDescriptions?: Readonly<Record<string, string>>;
  /** Catalog flags that may be left out although the server requires them (a default is found). */
  readonly defaulted?: readonly string[];
}

/** By wire type. */
export const VERB_EXTRAS: Readonly<Record<string, VerbExtras>> = {
  add: {
    options: () => [
      new Option('--out <file>', 'write the keys to this file instead of stdout (one a line; a JSON array with --json)'),
      new Option('--force', 'overwrite --out <file> if it exists'),
    ],
    flagDescriptions: { amount: 'How many keys to create: any number, made in calls of at most 100 (default 1)' },
  },
  addhash: {
    // The real need (docs/contracts.md): hash the build you ship, without a separate md5 tool.
    options: () => [new Option('--file <path>', 'compute the MD5 of this program file locally (instead of --md5)')],
    flagNotes: { md5: '(or --file PATH)' },
    defaulted: ['md5'],
  },
  delmultiple: {
    flagNotes: { keys: 'Any of comma, space or newline separates them; "-" reads them from stdin.' },
  },
  getbalance: {
    flagNotes: { 'app-name': "(default: the profile's application name)" },
    defaulted: ['app-name'],
  },
};
