/**
 * One meaning per flag, once per help: every leaf command's `--help` is read as a user reads it.
 * No flag is listed twice (own options and Global Options together), `-o` is always the output
 * format, and `--timeout` is always the request timeout.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { Context } from '../../../src/context.js';
import { buildProgram } from '../../../src/program.js';
import { tempDir } from '../../helpers/temp-dir.js';

function* leaves(command: Command, path: string[] = []): Generator<{ name: string; command: Command }> {
  const here = [...path, command.name()];
  if (command.commands.length === 0) yield { name: here.join(' '), command };
  for (const sub of command.commands) yield* leaves(sub, here);
}

async function everyLeaf(): Promise<{ name: string; command: Command }[]> {
  const env = { KACTL_CONFIG_DIR: tempDir('kactl-help-') };
  const ctx = new Context({ stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), env, signal: new AbortController().signal, now: Date.now });
  const program = await buildProgram(ctx, []);
  return [...leaves(program)].filter((leaf) => leaf.command !== program);
}

/** The option lines of a help text: `  -o, --output <format>  description`. */
function optionLines(help: string): { flags: string[]; line: string }[] {
  return help
    .split('\n')
    .filter((line) => /^ {2}-/.test(line))
    .map((line) => ({ line, flags: (line.trim().split(/\s{2,}/)[0] ?? '').split(/,\s*/).map((f) => f.split(' ')[0]!) }));
}

describe('every leaf command\'s --help', () => {
  it('lists each flag once', async () => {
    const duplicates: string[] = [];
    const all = await everyLeaf();
    expect(all.length).toBeGreaterThan(100);
    for (const { name, command } of all) {
      const seen = new Set<string>();
      for (const { flags } of optionLines(command.helpInformation())) {
        for (const flag of flags) {
          if (seen.has(flag)) duplicates.push(`${name}: ${flag}`);
          seen.add(flag);
        }
      }
    }
    expect(duplicates).toEqual([]);
  });

  it('gives -o one meaning (the output format) and --timeout one meaning (the request timeout)', async () => {
    const wrong: string[] = [];
    for (const { name, command } of await everyLeaf()) {
      for (const { flags, line } of optionLines(command.helpInformation())) {
        if (flags.includes('-o') && !flags.includes('--output')) wrong.push(`${name}: ${line.trim()}`);
        if (flags.includes('--timeout') && !/request timeout/.test(line)) wrong.push(`${name}: ${line.trim()}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
