/**
 * Every `--help` (help topics included) fits the width it is read at, and no word is split to
 * make it fit: at 80 columns on a terminal and in a pipe (the help written at build is the
 * piped one), no line is wider than 80, and the words are those of the same help laid out
 * without a limit. Groups list their verbs before their options and point at `kactl help
 * global-options` instead of listing the global options; the top level lists its commands
 * under headings. (test/e2e/help-width.test.ts reads the same on a real terminal.)
 */
import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { Context } from '../../../src/context.js';
import { buildProgram } from '../../../src/program.js';
import { COMMAND_MODULES, HELP_HEADINGS } from '../../../src/commands/registry.js';
import { globalOptions } from '../../../src/commands/global-options.js';
import { layoutHelpText, shellWords } from '../../../src/commands/help/layout.js';
import { runMain } from '../../helpers/run-main.js';

async function everyCommand(): Promise<string[][]> {
  const ctx = new Context({ stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), env: {}, signal: new AbortController().signal, now: Date.now });
  const paths: string[][] = [];
  (function walk(command: Command, names: string[]): void {
    paths.push(names);
    for (const sub of command.commands) walk(sub, [...names, sub.name()]);
  })(await buildProgram(ctx, []), []);
  return paths;
}

/** The words of a help text, less what wrapping adds (` \` ending a line of an example, `#` starting a comment's next line). */
function words(text: string): string[] {
  return text.split(/\s+/).filter((word) => word !== '' && word !== '\\' && word !== '#');
}

async function help(names: readonly string[], columns: number, terminal: boolean): Promise<string> {
  const result = await runMain([...names, '--help'], { stdoutTTY: terminal, columns, env: { COLUMNS: String(columns) } });
  expect(result.code, names.join(' ')).toBe(0);
  return result.stdout;
}

describe('help at 80 columns', () => {
  it('every --help fits 80 columns, on a terminal and in a pipe, and splits no word', async () => {
    const paths = await everyCommand();
    expect(paths.length).toBeGreaterThan(200);
    const tooWide: string[] = [];
    const split: string[] = [];
    for (const names of paths) {
      const unlimited = words(await help(names, 10_000, true));
      for (const terminal of [true, false]) {
        const text = await help(names, 80, terminal);
        for (const line of text.split('\n')) if ([...line].length > 80) tooWide.push(`kactl ${names.join(' ')} (${terminal ? 'terminal' : 'pipe'}): ${line}`);
        if (words(text).join(' ') !== unlimited.join(' ')) split.push(`kactl ${names.join(' ')} (${terminal ? 'terminal' : 'pipe'})`);
      }
    }
    expect(tooWide).toEqual([]);
    expect(split).toEqual([]);
  });

  it('COLUMNS=80 on a wider terminal lays help out at 80', async () => {
    const wide = await runMain(['sandbox', 'exec', '--help'], { stdoutTTY: true, columns: 160, env: { COLUMNS: '80' } });
    expect(Math.max(...wide.stdout.split('\n').map((line) => line.length))).toBeLessThanOrEqual(80);
    expect(wide.stdout).toBe(await help(['sandbox', 'exec'], 80, true));
  });

  it('a wider terminal gets wider help, a narrower one narrower', async () => {
    for (const columns of [60, 120]) {
      const text = await help(['sandbox', 'exec'], columns, true);
      expect(Math.max(...text.split('\n').map((line) => line.length))).toBeLessThanOrEqual(columns);
      expect(words(text)).toEqual(words(await help(['sandbox', 'exec'], 10_000, true)));
    }
    expect(await help(['sandbox', 'exec'], 120, true)).not.toBe(await help(['sandbox', 'exec'], 80, true));
  });
});

describe('the layout of help text', () => {
  it('fills a paragraph again, and leaves one that fits as written', () => {
    const text = ['First line of a paragraph that is far too long for the width it is shown at here,', 'and its second line.', '', 'Short.', 'Kept.'].join('\n');
    expect(layoutHelpText(text, 40).split('\n')).toEqual([
      'First line of a paragraph that is far',
      'too long for the width it is shown at',
      'here, and its second line.',
      '',
      'Short.',
      'Kept.',
    ]);
  });

  it('breaks an example between shell words with a backslash, quotes kept whole, so it still runs', () => {
    const text = `  $ kactl licenses list --jq '.[] | select(.status == "Not Used") | .key' --limit 5`;
    const lines = layoutHelpText(text, 60).split('\n');
    expect(lines).toEqual(['  $ kactl licenses list --jq \\', `        '.[] | select(.status == "Not Used") | .key' \\`, '        --limit 5']);
    // The shell joins the lines back into the same words.
    expect(shellWords(lines.map((line) => line.replace(/\\$/, '').trim()).join(' ').replace(/^\$ /, '')).words).toEqual(shellWords(text.trim().slice(2)).words);
  });

  it('keeps a comment on its example when it fits there, else puts it on lines of its own under it', () => {
    expect(layoutHelpText('  $ kactl sandbox start                     # a local server for tests', 60)).toBe('  $ kactl sandbox start  # a local server for tests');
    expect(layoutHelpText('  $ kactl sandbox exec --tls -- node test/license.mjs   # HTTPS; Node trusts the authority', 60).split('\n')).toEqual([
      '  $ kactl sandbox exec --tls -- node test/license.mjs',
      '    # HTTPS; Node trusts the authority',
    ]);
  });

  it('hangs a list item and a `term  text` line under their text', () => {
    expect(layoutHelpText('  - a list item that goes on and on past the width', 30).split('\n')).toEqual(['  - a list item that goes on', '    and on past the width']);
    expect(layoutHelpText('  --json FIELDS   only these fields, under the names given, with the values', 50).split('\n')).toEqual([
      '  --json FIELDS   only these fields, under the',
      '                  names given, with the values',
    ]);
  });
});

describe('what group and top-level help show', () => {
  it('a group lists its verbs, then its options, then one line about the global options', async () => {
    for (const names of [['users'], ['sandbox', 'fault'], ['client'], ['app', 'hash']]) {
      const text = await help(names, 80, false);
      expect(text, names.join(' ')).not.toContain('Global Options:');
      expect(text.indexOf('Commands:'), names.join(' ')).toBeGreaterThan(0);
      expect(text.indexOf('Commands:')).toBeLessThan(text.indexOf('Options:'));
      expect(text.replace(/\s+/g, ' ')).toContain('work on every command: kactl help global-options');
    }
  });

  it('a leaf still lists its own options, then the global ones', async () => {
    const text = await help(['licenses', 'list'], 80, false);
    expect(text.indexOf('Options:')).toBeLessThan(text.indexOf('Global Options:'));
  });

  it('the top level lists its commands under headings, in their order, before the options', async () => {
    const text = await help([], 80, false);
    const headings = Object.values(HELP_HEADINGS);
    const at = headings.map((heading) => text.indexOf(`\n${heading}\n`));
    expect(at.every((index) => index > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(at.at(-1)!).toBeLessThan(text.indexOf('\nOptions:\n'));
    expect(text).not.toContain('\nCommands:\n');
    // Each module's commands under the heading the registry gives it.
    for (const module of COMMAND_MODULES) {
      const section = text.slice(text.indexOf(`\n${module.heading}\n`)).split('\n\n')[0]!;
      for (const name of module.names) if (!['__complete', 'environment', 'exit-codes', 'lists', 'global-options'].includes(name)) expect(section, name).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
    }
  });

  it('kactl help global-options lists every global option', async () => {
    const result = await runMain(['help', 'global-options']);
    expect(result.code).toBe(0);
    for (const option of globalOptions()) expect(result.stdout).toContain(option.flags);
    expect((await runMain(['global-options'])).stdout).toBe(result.stdout);
  });
});
