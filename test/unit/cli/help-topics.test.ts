import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENV_VARS } from '../../../src/env.js';
import { dataDir } from '../../../src/config/paths.js';
import { EXIT_CODE_MEANINGS, ExitCode } from '../../../src/errors.js';
import { runMain } from '../../helpers/run-main.js';

describe('help topics and version', () => {
  it('kactl help environment lists every variable of env.ts with its description', async () => {
    const { code, stdout } = await runMain(['help', 'environment']);
    expect(code).toBe(0);
    for (const [name, description] of Object.entries(ENV_VARS)) {
      expect(stdout).toContain(`  ${name}\n`);
      expect(stdout.replace(/\s+/g, ' ')).toContain(description);
    }
  });

  it('kactl help environment says where the data folder is exactly as paths.ts finds it', async () => {
    const flat = (await runMain(['help', 'environment'])).stdout.replace(/\s+/g, ' ');
    // KACTL_DATA_DIR wins; without it, KACTL_CONFIG_DIR's subfolder; without either, the XDG folder.
    expect(dataDir({ KACTL_DATA_DIR: '/d', KACTL_CONFIG_DIR: '/c' })).toBe('/d');
    const sub = path.relative('/c', dataDir({ KACTL_CONFIG_DIR: '/c' }));
    expect(sub).not.toMatch(/^\.\.|^$/);
    expect(flat).toContain(`KACTL_DATA_DIR Folder for backups and the sandbox store (default: $KACTL_CONFIG_DIR/${sub} when KACTL_CONFIG_DIR is set, else the XDG data folder, kactl/)`);
    expect(flat).toContain(`KACTL_CONFIG_DIR Folder for the config file (default: the XDG config folder, kactl/); unless KACTL_DATA_DIR is set, the data folder is its ${sub}/ subfolder`);
  });

  it('kactl help exit-codes lists every code of errors.ts with its meaning', async () => {
    const { code, stdout } = await runMain(['help', 'exit-codes']);
    expect(code).toBe(0);
    const flat = stdout.replace(/\s+/g, ' ');
    for (const [name, value] of Object.entries(ExitCode)) {
      expect(flat).toContain(`${value} ${EXIT_CODE_MEANINGS[name as keyof typeof ExitCode]}`);
    }
  });

  it('kactl help lists names every filter the catalog declares, and --json FIELDS and --jq (23.1)', async () => {
    const { SELLER_CATALOG } = await import('../../../src/api/seller-catalog/index.js');
    const { code, stdout } = await runMain(['help', 'lists']);
    expect(code).toBe(0);
    for (const op of SELLER_CATALOG.filter((o) => o.filters !== undefined)) {
      expect(stdout).toContain(`kactl ${op.group} list\n`);
      for (const filter of op.filters!) expect(stdout).toMatch(new RegExp(`^ {4}--${filter.flag}\\b`, 'm'));
    }
    expect(stdout).toContain('--json FIELDS');
    expect(stdout).toContain('--jq EXPR');
    expect(stdout).toContain('the seller API filters nothing');
    expect((await runMain(['--help'])).stdout).toContain('kactl help lists');
  });

  it("the program's help names every code and variable, from the same sources", async () => {
    const { stdout } = await runMain(['--help']);
    const flat = stdout.replace(/\s+/g, ' ');
    for (const value of Object.values(ExitCode)) expect(flat).toMatch(new RegExp(`Exit codes:.*\\b${value} [a-z]`));
    for (const name of Object.keys(ENV_VARS)) expect(flat).toContain(name);
    expect(flat).toContain('kactl help exit-codes');
    expect(flat).toContain('kactl help environment');
  });

  it('kactl help WORDS shows the help of the command the words name, however deep', async () => {
    for (const words of [['licenses', 'create'], ['client', '2fa', 'enable'], ['licenses', 'ls'], ['environment']]) {
      const viaHelp = await runMain(['help', ...words]);
      const viaFlag = await runMain([...words, '--help']);
      expect(viaHelp.code, words.join(' ')).toBe(0);
      expect(viaHelp.stdout, words.join(' ')).toBe(viaFlag.stdout);
    }
    expect((await runMain(['help', 'licenses', 'create'])).stdout).toMatch(/^Usage: kactl licenses create /);
  });

  it('kactl help with a name nothing has says so, suggests the nearest, and exits 2 without printing help', async () => {
    const none = await runMain(['help', 'nosuch']);
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr.split('\n')[0]).toBe('error: No help topic or command "nosuch".');
    expect(none.stderr).toContain("Run 'kactl --help' for usage.");
    const typo = await runMain(['help', 'enviroment']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('error: No help topic or command "enviroment".\nDid you mean environment?\n');
    const deep = await runMain(['help', 'licenses', 'craete']);
    expect(deep.code).toBe(2);
    expect(deep.stderr).toContain('error: No help topic or command "licenses craete".\nDid you mean create?\n');
    expect(deep.stderr).toContain("Run 'kactl licenses --help' for usage.");
  });

  it('every group has the same help command: kactl client help 2fa enable is the verb\'s help', async () => {
    expect((await runMain(['client', 'help', '2fa', 'enable'])).stdout).toBe((await runMain(['client', '2fa', 'enable', '--help'])).stdout);
    const unknown = await runMain(['licenses', 'help', 'craete']);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('error: No help topic or command "licenses craete".\nDid you mean create?\n');
  });

  it('kactl version prints kactl, Node, platform and arch, and --json a record', async () => {
    const text = await runMain(['version']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^kactl \d+\.\d+\.\d+\nnode \d+\.\d+\.\d+\nplatform \w+ \w+\n$/);
    const json = JSON.parse((await runMain(['version', '--json'])).stdout) as Record<string, string>;
    expect(Object.keys(json)).toEqual(['kactl', 'node', 'platform', 'arch']);
    expect(json.node).toBe(process.versions.node);
  });
});
