/**
 * docs/operations.md stays honest against the repository's own sources:
 * - every `kactl …` command in its tables is a real command of the CLI (the tree `kactl --help`
 *   builds, as test/unit/cli/command-tree.test.ts builds it), walked word by word up to the first
 *   flag or placeholder, and every `--flag` it shows is an option of that command (or of one
 *   above it);
 * - every wire `type` in a `type` column is one kactl knows: a seller catalog entry
 *   (src/api/seller-catalog/) or a client type (src/api/client-ops.ts `CLIENT_TYPES`, which must
 *   equal the types the sandbox's client API answers), and a seller command's row names the
 *   `type` of the catalog entry that command (with its selector flag) sends;
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
import { SELLER_CATALOG } from '../../../src/api/seller-catalog/index.js';
import { CLIENT_TYPES } from '../../../src/api/client-ops.js';
import { clientHandlers } from '../../../src/server/client/index.js';

const PAGE = path.resolve(import.meta.dirname, '../../../docs/operations.md');

interface Row {
  line: number;
  cells: Record<string, string>;
}

/** The cells of a markdown table row; `\|` inside a cell is not a separator. */
function splitRow(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

/** Every body row of every table in `text`, keyed by its table's header cells. */
function tableRows(text: string): Row[] {
  const lines = text.split('\n');
  const rows: Row[] = [];
  let header: string[] | undefined;
  lines.forEach((line, index) => {
    if (!line.trim().startsWith('|')) {
      header = undefined;
      return;
    }
    const cells = splitRow(line);
    if (header === undefined) {
      header = cells;
      return;
    }
    if (cells.every((cell) => /^:?-+:?$/.test(cell))) return;
    rows.push({ line: index + 1, cells: Object.fromEntries(header.map((name, i) => [name, cells[i] ?? ''])) });
  });
  return rows;
}

/** The backtick spans of a cell. */
function spans(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
}

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

describe('docs/operations.md', () => {
  const text = readFileSync(PAGE, 'utf8');
  const rows = tableRows(text);
  let program: Command;

  beforeAll(async () => {
    const ctx = new Context({ stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), env: {}, signal: new AbortController().signal, now: Date.now });
    // No command name: the help listing, which loads every module.
    program = await buildProgram(ctx, []);
  });

  it('has its tables', () => {
    expect(rows.length).toBeGreaterThan(130);
  });

  it('names only real kactl commands, with their real flags', () => {
    const bad: string[] = [];
    let seen = 0;
    for (const row of rows) {
      for (const cell of Object.values(row.cells)) {
        for (const span of spans(cell)) {
          if (!/^kactl\s/.test(span)) continue;
          seen += 1;
          const why = checkCommand(program, span);
          if (why !== undefined) bad.push(`line ${row.line}: \`${span}\`: ${why}`);
        }
      }
    }
    expect(seen).toBeGreaterThan(130);
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
    const bad: string[] = [];
    let paired = 0;
    for (const row of rows) {
      const types = spans(row.cells['`type`'] ?? '');
      const command = spans(row.cells['kactl command'] ?? '').find((span) => span.startsWith('kactl '));
      if (types.length !== 1 || command === undefined) continue;
      const words = command.split(/\s+/).slice(1);
      const entries = SELLER_CATALOG.filter((op) => {
        const path = [op.group, ...op.command];
        return path.every((word, i) => words[i] === word);
      });
      if (entries.length === 0) continue; // a client command
      const longest = Math.max(...entries.map((op) => op.command.length));
      const atPath = entries.filter((op) => op.command.length === longest);
      const op = atPath.find((entry) => entry.selector !== undefined && words.includes(`--${entry.selector}`)) ?? atPath.find((entry) => entry.selector === undefined);
      paired += 1;
      if (op?.type !== types[0]) bad.push(`line ${row.line}: \`${command}\` sends ${op?.type ?? 'nothing'}, the row says \`${types[0]}\``);
    }
    expect(paired).toBeGreaterThan(100);
    expect(bad).toEqual([]);
  });

  it('numbers the specification operations 1..N, N as the introduction says', () => {
    const numbers = rows.filter((row) => row.cells['#'] !== undefined).map((row) => Number(row.cells['#']));
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    const stated = /\ball (\d+) operations\b/.exec(text);
    expect(stated).not.toBeNull();
    expect(numbers.length).toBe(Number(stated![1]));
  });

  it('writes kactl commands into every numbered row', () => {
    const bare = rows.filter((row) => row.cells['#'] !== undefined && !spans(row.cells['kactl command'] ?? '').some((s) => s.startsWith('kactl ')) && !/kactl cannot/i.test(row.cells['kactl command'] ?? ''));
    expect(bare.map((row) => `line ${row.line}`)).toEqual([]);
  });
});

describe('CLIENT_TYPES', () => {
  it('is exactly what the sandbox client API answers', () => {
    expect([...CLIENT_TYPES].sort()).toEqual(Object.keys(clientHandlers).sort());
  });
});
