/**
 * The seller operations that need more than their catalog entry, one record per operation:
 * the options and help words the command adds, where a parameter's value comes from when it is
 * not simply its flag, and the runner that replaces the generic one. A new hand-written
 * operation adds one record here (keyed by its catalog `type`) and nothing anywhere else.
 *
 * This file is loaded for `--help`, so it stays light: what the records do at run time is
 * imported inside the functions.
 */
import { Option } from 'commander';
import type { Context } from '../../context.js';
import type { SellerOp } from '../../api/seller-catalog/index.js';
import { UsageError } from '../../errors.js';
import { readStdinText } from '../../io/ask.js';
import { createReadStream } from 'node:fs';

/** What a parameter function sees of the command line. */
export interface ParamInput {
  /** The text of the parameter's own flag, if given and not empty. */
  readonly flagValue: string | undefined;
  /** commander's option values, the extension's own options included. */
  readonly opts: Readonly<Record<string, unknown>>;
}

export interface RunInput {
  readonly opts: Readonly<Record<string, unknown>>;
  readonly dryRun: boolean;
}

export interface SellerExtension {
  /** Options the catalog does not have (stored under their commander attribute names). */
  readonly options?: () => readonly Option[];
  /** Words appended to a catalog flag's help, by flag. */
  readonly flagNotes?: Readonly<Record<string, string>>;
  /** A catalog flag's help replaced, where the command does more than the wire allows. */
  readonly flagDescriptions?: Readonly<Record<string, string>>;
  /** Catalog flags that may be left out although the server requires them (a default is found). */
  readonly defaulted?: readonly string[];
  /**
   * Where a wire parameter's value comes from, by wire name. `undefined` falls back to the
   * generic handling (the flag, else asking on a terminal when the value is needed).
   */
  readonly params?: Readonly<Record<string, (ctx: Context, input: ParamInput) => Promise<string | undefined>>>;
  /** Runs the operation instead of the generic runner, once the wire parameters are collected. */
  readonly run?: (ctx: Context, op: SellerOp, params: Record<string, string>, input: RunInput) => Promise<void>;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** MD5 of a file, read as a stream (program builds can be large). */
async function md5OfFile(path: string): Promise<string> {
  const { createHash } = await import('node:crypto');
  const hash = createHash('md5');
  try {
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(`Can't read --file ${path} (${code}).`);
  }
  return hash.digest('hex');
}

/** `delete-many --keys`: any separators in, the exact ", " the server splits on out. */
function joinKeys(raw: string): string {
  const keys = raw.split(/[\s,]+/).filter((k) => k !== '');
  if (keys.length === 0) throw new UsageError('--keys holds no keys.');
  return keys.join(', ');
}

/** By catalog `type`. */
export const SELLER_EXTENSIONS: Readonly<Record<string, SellerExtension>> = {
  add: {
    options: () => [
      new Option('--out <file>', 'write the keys to this file instead of stdout (one a line; a JSON array with --json)'),
      new Option('--force', 'overwrite --out <file> if it exists'),
    ],
    flagDescriptions: { amount: 'How many keys to create: any number, made in calls of at most 100 (default 1)' },
    // Any amount, in calls of at most 100, with a journal instead of retries.
    run: async (ctx, op, params, { opts, dryRun }) => {
      const { createLicenses } = await import('./licenses-create.js');
      await createLicenses(ctx, op, params, {
        dryRun,
        force: opts.force === true,
        ...(typeof opts.out === 'string' ? { out: opts.out } : {}),
      });
    },
  },
  addhash: {
    // The real need (docs/contracts.md): hash the build you ship, without a separate md5 tool.
    options: () => [new Option('--file <path>', 'compute the MD5 of this program file locally (instead of --md5)')],
    flagNotes: { md5: '(or --file PATH)' },
    defaulted: ['md5'],
    params: {
      hash: async (_ctx, { flagValue, opts }) => {
        const file = text(opts.file);
        if (file === undefined) return undefined;
        if (flagValue !== undefined) throw new UsageError('Give --md5 or --file, not both.');
        return md5OfFile(file);
      },
    },
  },
  delmultiple: {
    flagNotes: { keys: 'Any of comma, space or newline separates them; "-" reads them from stdin.' },
    params: {
      key: async (ctx, { flagValue }) => {
        if (flagValue === undefined) return undefined;
        if (flagValue !== '-') return joinKeys(flagValue);
        return joinKeys(await readStdinText(ctx, '--keys -'));
      },
    },
  },
  getbalance: {
    flagNotes: { 'app-name': "(default: the profile's application name)" },
    defaulted: ['app-name'],
    params: {
      appname: async (ctx, { flagValue }) => (flagValue === undefined ? (await ctx.settings()).appName.value : undefined),
    },
  },
};
