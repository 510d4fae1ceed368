import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMAND_MODULES, SELLER_GROUP_NAMES, modulesFor } from '../../../src/commands/registry.js';
import { buildProgram, commandNameIn } from '../../../src/program.js';
import { SELLER_GROUPS } from '../../../src/api/seller-catalog/index.js';
import { Context } from '../../../src/context.js';
import { CLIENT_COMMANDS } from '../../../src/commands/client/index.js';
import { SANDBOX_COMMANDS } from '../../../src/commands/sandbox/index.js';
import { PROFILE_COMMANDS } from '../../../src/commands/profile/index.js';
import type { Registrar } from '../../../src/commands/registration.js';

function context(): Context {
  return new Context({ stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), env: {}, signal: new AbortController().signal, now: Date.now });
}

/** The names (and aliases) of a command's subcommands. */
const namesUnder = (command: Command | undefined): string[] => (command?.commands ?? []).map((c) => [c.name(), ...c.aliases()].join('|'));

describe('command registry', () => {
  it('knows the same seller groups as the catalog', () => {
    expect([...SELLER_GROUP_NAMES].sort()).toEqual(Object.keys(SELLER_GROUPS).sort());
  });

  it('gives every top-level name exactly one owner', () => {
    const names = COMMAND_MODULES.flatMap((m) => m.names);
    expect(new Set(names).size).toBe(names.length);
  });

  it('finds the command name past global options and their values', () => {
    expect(commandNameIn(['--profile', 'prod', '-o', 'json', 'licenses', 'list'])).toBe('licenses');
    expect(commandNameIn(['--verbose', 'profile', 'show'])).toBe('profile');
    expect(commandNameIn(['--timeout=5s', 'client', 'init'])).toBe('client');
    expect(commandNameIn(['help', 'users'])).toBe('users');
    expect(commandNameIn(['--help'])).toBeUndefined();
    expect(commandNameIn([])).toBeUndefined();
  });

  it('loads only the owner of the command, nothing for --version, everything for help or an unknown name', () => {
    expect(modulesFor('profile', ['profile', 'list']).map((m) => m.names)).toEqual([['profile']]);
    expect(modulesFor('licenses', ['licenses', 'list'])).toHaveLength(1);
    expect(modulesFor(undefined, ['--version'])).toEqual([]);
    expect(modulesFor(undefined, ['--help'])).toBe(COMMAND_MODULES);
    expect(modulesFor('frobnicate', ['frobnicate'])).toBe(COMMAND_MODULES);
  });

  it('registers, once loaded, exactly the names each module claims', async () => {
    const { Command } = await import('commander');
    for (const module of COMMAND_MODULES) {
      const program = new Command('kactl');
      (await module.load())(program, {} as never, { shell: { main: () => Promise.resolve(0), buildProgram: () => Promise.reject(new Error('not built here')) } });
      expect(program.commands.map((c) => c.name()).sort(), module.names.join(',')).toEqual([...module.names].sort());
    }
  });

  it('knows the names each command of a group adds, so a command line can build that one alone', () => {
    for (const [group, table] of [['client', CLIENT_COMMANDS], ['sandbox', SANDBOX_COMMANDS], ['profile', PROFILE_COMMANDS]] as const) {
      for (const entry of table as readonly Registrar<(group: Command, ctx: Context) => void>[]) {
        const parent = new Command(group).enablePositionalOptions();
        entry.add(parent, context());
        expect(parent.commands.flatMap((c) => [c.name(), ...c.aliases()]).sort(), `${group}: ${entry.names.join(',')}`).toEqual([...entry.names].sort());
      }
    }
  });
});

describe('a command line builds only the commands it reaches', () => {
  const group = async (argv: readonly string[], name: string): Promise<string[]> => namesUnder((await buildProgram(context(), argv)).commands.find((c) => c.name() === name));

  it('a verb alone, by its name or alias; the whole group for its help, `help`, or a name it lacks', async () => {
    expect(await group(['licenses', 'list', '--status', 'used'], 'licenses')).toEqual(['list|ls', 'help']);
    expect(await group(['licenses', 'ls'], 'licenses')).toEqual(['list|ls', 'help']);
    expect(await group(['--verbose', 'client', 'init'], 'client')).toEqual(['init', 'help']);
    expect(await group(['sandbox', 'advance', '1d'], 'sandbox')).toEqual(['clock', 'advance', 'help']);
    expect(await group(['profile', 'rm', 'old'], 'profile')).toEqual(['remove|rm', 'help']);
    expect(await group(['app', 'hash', 'add', '--md5', 'x'], 'app')).toEqual(['hash', 'help']);
    const everyVerb = (await group([], 'licenses')).length;
    expect(everyVerb).toBeGreaterThan(10);
    for (const argv of [['licenses'], ['licenses', '--help'], ['licenses', 'help', 'list'], ['licenses', 'lst'], ['help', 'licenses']]) expect((await group(argv, 'licenses')).length, argv.join(' ')).toBe(everyVerb);
  });

  it('runs and helps the same as with the whole tree', async () => {
    const { runMain } = await import('../../helpers/run-main.js');
    const lone = await runMain(['licenses', 'list', '--help']);
    expect(lone.code).toBe(0);
    const ctx = context();
    const whole = await buildProgram(ctx, []);
    const list = whole.commands.find((c) => c.name() === 'licenses')!.commands.find((c) => c.name() === 'list')!;
    expect(lone.stdout).toContain(list.description());
    const typo = await runMain(['licenses', 'lst']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('Did you mean list?');
  });
});
