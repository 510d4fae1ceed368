/**
 * Every command of the tree, as `kactl --help` builds it from every module in
 * src/commands/registry.ts (so a command added later is checked too): each leaf has a
 * description and at least one example in its help, and each list command accepts the output
 * flags (`--json`, `-o/--output`).
 */
import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { Context } from '../../../src/context.js';
import { buildProgram } from '../../../src/program.js';
import { COMMAND_MODULES } from '../../../src/commands/registry.js';
import { SELLER_CATALOG } from '../../../src/api/seller-catalog/index.js';
import { runMain } from '../../helpers/run-main.js';
import { HELP_TOPICS } from '../../../src/commands/help/topics.js';

/**
 * Leaves that are not commands a user runs for an effect: the help topics (their help is the
 * topic's text) and the hidden word source of the completion scripts.
 */
const NOT_RUN_BY_HAND = new Set([...Object.keys(HELP_TOPICS), '__complete']);

function* leaves(command: Command, path: readonly string[] = []): Generator<{ path: readonly string[]; command: Command }> {
  for (const sub of command.commands) {
    const subPath = [...path, sub.name()];
    if (sub.commands.length === 0) yield { path: subPath, command: sub };
    else yield* leaves(sub, subPath);
  }
}

/** Seller command paths whose operation answers with a list. */
const SELLER_LIST_PATHS = new Set(SELLER_CATALOG.filter((op) => op.response.kind === 'list').map((op) => [op.group, ...op.command].join(' ')));

function isListCommand(path: readonly string[], command: Command): boolean {
  return command.name() === 'list' || command.aliases().includes('ls') || SELLER_LIST_PATHS.has(path.join(' '));
}

async function tree(): Promise<{ path: readonly string[]; command: Command }[]> {
  const ctx = new Context({ stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), env: {}, signal: new AbortController().signal, now: Date.now });
  // No command name: the help listing, which loads every module.
  const program = await buildProgram(ctx, []);
  return [...leaves(program)];
}

describe('the command tree', () => {
  it('holds every module of the registry', async () => {
    const top = new Set((await tree()).map((leaf) => leaf.path[0]));
    // `help` is the program's own (src/commands/help/command.ts): it must exist whichever module loads.
    expect([...top].sort()).toEqual([...new Set([...COMMAND_MODULES.flatMap((module) => module.names), 'help'])].sort());
  });

  it('gives every leaf a description and an example in its help', async () => {
    const missing: string[] = [];
    const all = await tree();
    expect(all.length).toBeGreaterThan(100);
    for (const { path, command } of all) {
      if (command.description().trim() === '') missing.push(`${path.join(' ')}: no description`);
      const { code, stdout } = await runMain([...path, '--help']);
      if (code !== 0) missing.push(`${path.join(' ')}: --help exits ${code}`);
      // The first example may wrap kactl in the shell (`$ source <(kactl completion bash)`).
      if (!NOT_RUN_BY_HAND.has(path.join(' ')) && !/^Examples?:\n\s+\$ .*\bkactl /m.test(stdout)) missing.push(`${path.join(' ')}: no example`);
    }
    expect(missing).toEqual([]);
  });

  it('lets every list command take --json and -o/--output', async () => {
    const leavesList = (await tree()).filter(({ path, command }) => isListCommand(path, command));
    // The filter must find the list commands, or the check below proves nothing.
    expect(leavesList.map(({ path }) => path.join(' '))).toEqual(expect.arrayContaining(['profile list', 'licenses list', 'users list']));
    const refused: string[] = [];
    for (const { path, command } of leavesList) {
      const options = command.options;
      if (!options.some((o) => o.long === '--json')) refused.push(`${path.join(' ')}: no --json`);
      if (!options.some((o) => o.short === '-o' && o.long === '--output')) refused.push(`${path.join(' ')}: no -o/--output`);
    }
    expect(refused).toEqual([]);
    expect(leavesList.length).toBeGreaterThan(15);
  });
});
