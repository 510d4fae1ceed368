/**
 * docs/operations.md stays honest against the repository's own sources, both ways:
 * - every row names a `kactl …` command (or says kactl cannot), and every such command is a real
 *   command of the CLI (the tree `kactl --help` builds, as test/unit/cli/command-tree.test.ts
 *   builds it), walked word by word up to the first flag or placeholder, and every `--flag` it
 *   shows is an option of that command (or of one above it);
 * - every wire `type` in a `type` column is one kactl knows: a seller catalog entry
 *   (src/api/seller-catalog/) or a client catalog record (src/api/client-catalog/), and a seller
 *   command's row names the `type` of the catalog entry that command (with its selector flag)
 *   sends;
 * - every entry of both catalogs has a row: each client type in the client table, each seller
 *   entry (variants included) in a row whose command sends it;
 * - the numbered rows (the specification's operations) run 1..N with no gap, and N is the count
 *   the page's introduction states.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { Context } from '../../../src/context.js';
import { buildProgram } from '../../../src/program.js';
import { SELLER_CATALOG, opKey } from '../../../src/api/seller-catalog/index.js';
import type { SellerOp } from '../../../src/api/seller-catalog/index.js';
import { clientTypes } from '../../../src/api/client-catalog/index.js';
import { spans, tableRows } from '../../helpers/markdown-tables.js';
import type { Row } from '../../helpers/markdown-tables.js';

const PAGE = path.resolve(import.meta.dirname, '../../../docs/operations.md');

function findSub(command: Command, word: string): Command | undefined {
  return command.commands.find((sub) => sub.name() === word || sub.aliases().includes(word));
}

/** Why `kactl …` (as the table writes it) is not a runnable command with those flags, or undefined. */
function checkCommand(program: Command, text: string): string | undefined {
  const words = text.split(/\s+/).slice(1);
  let command = program;
  const chain: Command[] = [program];
  let walked = 0;
  for (const word of words) {
    if (word.startsWith('-') || !/^[a-z0-9][a-z0-9-]*$/.test(word)) break;
    const sub = findSub(command, word);
    if (sub === undefined) {
      if (command.commands.length > 0) return `no command "${word}" under "kactl ${chain.slice(1).map((c) => c.name()).join(' ')}"`;
      break; // an argument of a leaf (`kactl users ban alice`)
    }
    command = sub;
    chain.push(sub);
    walked += 1;
  }
  if (walked === 0) return 'names no command';
  const runnable = (command as unknown as { _actionHandler?: unknown })._actionHandler != null;
  if (command.commands.length > 0 && !runnable) return `"${chain.slice(1).map((c) => c.name()).join(' ')}" only groups commands`;
  const known = new Set(chain.flatMap((c) => c.options.flatMap((option) => [option.long, option.short].filter((f): f is string => f !== undefined))));
  known.add('--help');
  for (const flag of text.match(/(?<![\w-])--?[a-zA-Z][\w-]*/g) ?? []) {
    if (!known.has(flag)) return `no option ${flag} on "kactl ${chain.slice(1).map((c) => c.name()).join(' ')}"`;
  }
  return undefined;
}

const SELLER_TYPES = new Set(SELLER_CATALOG.map((op) => op.type));
const CLIENT_TYPES = new Set(clientTypes());

/** The `kactl …` command of a row, if it has one. */
function commandOf(row: Row): string | undefined {
  return spans(row.cells['kactl command'] ?? '').find((span) => span.startsWith('kactl '));
}

/**
 * The seller catalog entry a command line runs: its group, the longest command path it starts
 * with, and the selector flag it carries (else the path's default). Undefined for a client command.
 */
function sellerEntryOf(command: string): SellerOp | undefined {
  const words = command.split(/\s+/).slice(1);
  const entries = SELLER_CATALOG.filter((op) => [op.group, ...op.command].every((word, i) => words[i] === word));
  if (entries.length === 0) return undefined;
  const longest = Math.max(...entries.map((op) => op.command.length));
  const atPath = entries.filter((op) => op.command.length === longest);
  return atPath.find((entry) => entry.selector !== undefined && words.includes(`--${entry.selector}`)) ?? atPath.find((entry) => entry.selector === undefined);
}

/** Rows naming one wire `type` and a seller command: the entry the command runs and the type the row names. */
function sellerRows(rows: readonly Row[]): { row: Row; command: string; op: SellerOp | undefined; type: string }[] {
  return rows.flatMap((row) => {
    const types = spans(row.cells['`type`'] ?? '');
    const command = commandOf(row);
    if (types.length !== 1 || command === undefined) return [];
    const words = command.split(/\s+/);
    if (words[1] === 'client' || words[1] === 'reseller') return [];
    return [{ row, command, op: sellerEntryOf(command), type: types[0]! }];
  });
}

describe('docs/operations.md', () => {
  const text = readFileSync(PAGE, 'utf8');
  const rows = tableRows(text);
  let program: Command;

  beforeAll(async () => {
    const ctx = new Context({ stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), env: {}, signal: new AbortController().signal, now: Date.now });
    // No command name: the help listing, which loads every module.
    program = await buildProgram(ctx, []);
  });

  it('has a table for each API', () => {
    for (const heading of ['Client API', 'Seller API']) expect(rows.some((row) => row.heading === heading), heading).toBe(true);
  });

  it('names a kactl command in every row, or says kactl cannot', () => {
    const bare = rows.filter((row) => commandOf(row) === undefined && !/kactl cannot/i.test(row.cells['kactl command'] ?? ''));
    expect(bare.map((row) => `line ${row.line}: no "kactl command" cell with a command`)).toEqual([]);
  });

  it('names only real kactl commands, with their real flags', () => {
    const bad: string[] = [];
    for (const row of rows) {
      for (const cell of Object.values(row.cells)) {
        for (const span of spans(cell)) {
          if (!/^kactl\s/.test(span)) continue;
          const why = checkCommand(program, span);
          if (why !== undefined) bad.push(`line ${row.line}: \`${span}\`: ${why}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it('names only wire types kactl knows', () => {
    const bad: string[] = [];
    for (const row of rows) {
      const cell = row.cells['`type`'];
      if (cell === undefined) continue;
      for (const type of spans(cell)) {
        if (!SELLER_TYPES.has(type) && !CLIENT_TYPES.has(type)) bad.push(`line ${row.line}: \`${type}\``);
      }
    }
    expect(bad).toEqual([]);
  });

  it('pairs each seller command with the catalog entry of its `type`', () => {
    const bad = sellerRows(rows)
      .filter(({ op, type }) => op?.type !== type)
      .map(({ row, command, op, type }) => `line ${row.line}: \`${command}\` sends ${op?.type ?? 'nothing'}, the row says \`${type}\``);
    expect(bad).toEqual([]);
  });

  it('has a row for every seller catalog entry, variants included', () => {
    const rowed = new Set(sellerRows(rows).flatMap(({ op, type }) => (op?.type === type ? [opKey(op)] : [])));
    expect(SELLER_CATALOG.map(opKey).filter((key) => !rowed.has(key))).toEqual([]);
  });

  it('has a row for every client catalog type, in the client table or beyond the specification', () => {
    const clientRows = rows.filter((row) => row.heading === 'Client API' || commandOf(row)?.startsWith('kactl client '));
    const rowed = new Set(clientRows.flatMap((row) => spans(row.cells['`type`'] ?? '')));
    expect(clientTypes().filter((type) => !rowed.has(type))).toEqual([]);
  });

  it('numbers the specification operations 1..N, N as the introduction says', () => {
    const numbers = rows.filter((row) => row.cells['#'] !== undefined).map((row) => Number(row.cells['#']));
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    const stated = /\ball (\d+) operations\b/.exec(text);
    expect(stated).not.toBeNull();
    expect(numbers.length).toBe(Number(stated![1]));
  });
});
