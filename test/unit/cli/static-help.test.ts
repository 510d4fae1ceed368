/**
 * bin/kactl.js answers `kactl --version` and a piped `kactl [command…] --help` from files the
 * build wrote (dist/bundle/version.txt, dist/bundle/help/*.txt) without loading the bundle. Those answers must
 * stay exactly what commander prints when the program is built the slow way, from the sources:
 * this compares them, so the generated texts cannot drift from the command registry.
 * (The e2e and cold-start tests need `npm run build` first, as this one does.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { Context } from '../../../src/context.js';
import { buildProgram } from '../../../src/program.js';
import { KACTL_BIN, runKactl } from '../../helpers/run-kactl.js';
import { runMain } from '../../helpers/run-main.js';
import { tempDir } from '../../helpers/temp-dir.js';

const BUNDLE = path.resolve(path.dirname(KACTL_BIN), '../dist/bundle');

describe('answers given before the bundle loads', () => {
  it("every command's built help is what commander prints from the sources", async () => {
    const ctx = new Context({ stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), env: {}, signal: new AbortController().signal, now: Date.now });
    const paths: string[][] = [];
    (function walk(command: Command, names: string[]): void {
      paths.push(names);
      for (const sub of command.commands) walk(sub, [...names, sub.name()]);
    })(await buildProgram(ctx, []), []);
    expect(paths.length).toBeGreaterThan(100);
    expect(fs.readdirSync(path.join(BUNDLE, 'help')).sort()).toEqual(paths.map((names) => `${['kactl', ...names].join(' ')}.txt`).sort());
    for (const names of paths) {
      const slow = await runMain([...names, '--help']);
      expect(slow.code).toBe(0);
      expect(fs.readFileSync(path.join(BUNDLE, 'help', `${['kactl', ...names].join(' ')}.txt`), 'utf8'), names.join(' ')).toBe(slow.stdout);
    }
  });

  it('bin/kactl.js answers `help WORDS` with the help of WORDS, and an unknown name with the error', async () => {
    for (const words of [['licenses', 'create'], ['environment'], []]) {
      const slow = await runMain([...words, '--help']);
      const fast = await runKactl(['help', ...words], { configDir: tempDir('kactl-static-help-') });
      expect({ code: fast.code, stdout: fast.stdout, stderr: fast.stderr }, words.join(' ')).toEqual({ code: 0, stdout: slow.stdout, stderr: '' });
    }
    const unknown = await runKactl(['help', 'nosuch'], { configDir: tempDir('kactl-static-help-') });
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('No help topic or command "nosuch".');
  });

  it('bin/kactl.js prints the built help (top level, group, verb) with the exit code of the slow path', async () => {
    for (const argv of [['--help'], ['-h'], ['licenses', '--help'], ['licenses', 'create', '-h'], ['client', '2fa', 'enable', '--help']]) {
      const slow = await runMain(argv);
      const fast = await runKactl(argv, { configDir: tempDir('kactl-static-help-') });
      expect({ code: fast.code, stdout: fast.stdout, stderr: fast.stderr }).toEqual({ code: 0, stdout: slow.stdout, stderr: '' });
    }
  });

  it('the built version is what commander prints from the sources', async () => {
    const slow = await runMain(['--version']);
    expect(slow.code).toBe(0);
    for (const flag of ['--version', '-V']) {
      const fast = await runKactl([flag], { configDir: tempDir('kactl-static-version-') });
      expect({ code: fast.code, stdout: fast.stdout, stderr: fast.stderr }).toEqual({ code: 0, stdout: slow.stdout, stderr: '' });
    }
  });
});

describe('only the commands on the command line are set up', () => {
  function context(): Context {
    return new Context({ stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), env: {}, signal: new AbortController().signal, now: Date.now });
  }
  const find = (from: Command, ...names: string[]): Command => names.reduce((cmd, name) => cmd.commands.find((c) => c.name() === name)!, from);
  const hasLeafGlobals = (leaf: Command): boolean => leaf.options.some((o) => o.long === '--verbose');

  it('a group help sets up that group and its children, not the commands below them', async () => {
    const program = await buildProgram(context(), ['client', '--help']);
    expect(hasLeafGlobals(find(program, 'client', 'init'))).toBe(true);
    expect(hasLeafGlobals(find(program, 'client', '2fa', 'enable'))).toBe(false);
  });

  it('a seller group is built alone when the command line names it', async () => {
    const program = await buildProgram(context(), ['licenses', 'list']);
    expect(program.commands.map((c) => c.name())).toContain('licenses');
    expect(program.commands.map((c) => c.name())).not.toContain('users');
    expect(hasLeafGlobals(find(program, 'licenses', 'list'))).toBe(true);
  });

  it('the whole tree when no command is named (completion and the tests read it)', async () => {
    const program = await buildProgram(context(), []);
    expect(hasLeafGlobals(find(program, 'users', 'list'))).toBe(true);
  });

  it('a leaf reached later is set up when commander dispatches to it', async () => {
    for (const argv of [['licenses', 'list', '--help'], ['licenses', 'help', 'list'], ['--verbose', 'licenses', 'list', '--bogus']]) {
      const result = await runMain(argv);
      const direct = await runMain(['licenses', 'list', argv.includes('--bogus') ? '--bogus' : '--help']);
      expect(result).toEqual(direct);
    }
    const help = await runMain(['licenses', 'list', '--help']);
    expect(help.stdout).toContain('Global Options:');
    expect((await runMain(['licenses', 'list', '--bogus'])).stderr).toContain("Usage: kactl licenses list [options]");
  });
});
