import { describe, expect, it } from 'vitest';
import { COMMAND_MODULES, SELLER_GROUP_NAMES, modulesFor } from '../../../src/commands/registry.js';
import { commandNameIn } from '../../../src/program.js';
import { SELLER_GROUPS } from '../../../src/api/seller-catalog/index.js';

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
});
