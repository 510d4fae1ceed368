/**
 * The completion scripts run in the real shells (bash, zsh, fish from Debian packages): each is
 * loaded as a user would, asked for the candidates of a command line, and must offer commands,
 * flags, option choices, profile names, and live subscription names from a sandbox.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2ESandbox, type E2ESandbox } from '../helpers/e2e.js';
import { KACTL_BIN, cleanEnv } from '../helpers/run-kactl.js';
import { tempDir } from '../helpers/temp-dir.js';

let sb: E2ESandbox;
let binDir: string;

beforeAll(async () => {
  sb = await startE2ESandbox();
  await sb.ok(['subs', 'create', '--name', 'gold-tier', '--level', '3']);
  // `kactl` on the PATH, as after `npm link`: the scripts call it by name.
  binDir = tempDir('kactl-bin-');
  fs.writeFileSync(path.join(binDir, 'kactl'), `#!/bin/sh\nexec "${process.execPath}" "${KACTL_BIN}" "$@"\n`, { mode: 0o755 });
});
afterAll(async () => {
  await sb.stop();
});

function shell(program: string, args: string[], script: string): string {
  const result = spawnSync(program, [...args, script], {
    env: cleanEnv(sb.configDir, { PATH: `${binDir}:${process.env.PATH}` }),
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect(result.status, `${program}: ${result.stderr}`).toBe(0);
  return result.stdout;
}

const lines = (text: string): string[] => text.split('\n').filter((line) => line !== '');

/** COMPREPLY for `words` (the last one is the word being completed) after sourcing the script. */
function bashOffers(words: string[]): string[] {
  const quoted = words.map((w) => `'${w}'`).join(' ');
  return lines(shell('bash', ['-c'], `source <(kactl completion bash)\nCOMP_WORDS=(kactl ${quoted}); COMP_CWORD=${words.length}\n_kactl_complete\nprintf '%s\\n' "\${COMPREPLY[@]}"`));
}

/** What _kactl hands to compadd, with compadd replaced by a function that prints its words. */
function zshOffers(words: string[]): string[] {
  const quoted = words.map((w) => `'${w}'`).join(' ');
  return lines(shell('zsh', ['-f', '-c'], `source <(kactl completion zsh)\ncompadd() { shift; print -l -- "$@" }\nwords=(kactl ${quoted}); CURRENT=${words.length + 1}\n_kactl`));
}

/** fish's own `complete -C` on the command line. */
function fishOffers(commandLine: string): string[] {
  return lines(shell('fish', ['--no-config', '-c'], `kactl completion fish | source\ncomplete -C '${commandLine}'`)).map((line) => line.split('\t')[0]!);
}

describe('bash completion', () => {
  it('completes commands, subcommands, flags and option choices', () => {
    expect(bashOffers(['lic'])).toEqual(['licenses']);
    expect(bashOffers(['licenses', ''])).toEqual(expect.arrayContaining(['list', 'create', 'delete']));
    expect(bashOffers(['licenses', 'list', '--co'])).toEqual(['--columns']);
    expect(bashOffers(['-o', 'n'])).toEqual(['ndjson']);
    expect(bashOffers(['completion', ''])).toEqual([]);
    expect(bashOffers(['__comp'])).toEqual([]);
  });

  it('offers profile names and live subscription names from the sandbox', () => {
    expect(bashOffers(['--profile', ''])).toEqual(['sandbox']);
    expect(bashOffers(['subs', 'delete', 'go'])).toEqual(['gold-tier']);
    expect(bashOffers(['users', 'extend', '--user', 'bob', '--sub', ''])).toEqual(expect.arrayContaining(['gold-tier']));
    const cache = path.join(sb.configDir, 'data', 'completion', 'sandbox.fetchallsubs.json');
    expect(fs.statSync(cache).mode & 0o777).toBe(0o600);
  });
});

describe('zsh completion', () => {
  it('completes commands, flags, profiles and live values', () => {
    expect(zshOffers(['sand'])).toEqual(['sandbox']);
    expect(zshOffers(['licenses', 'list', '--li'])).toEqual(['--limit']);
    expect(zshOffers(['--profile', 's'])).toEqual(['sandbox']);
    expect(zshOffers(['subs', 'delete', ''])).toEqual(expect.arrayContaining(['gold-tier']));
  });
});

describe('list filters (23.1)', () => {
  it('are flags of the list, with their choices and live values', () => {
    expect(bashOffers(['licenses', 'list', '--st'])).toEqual(['--status']);
    expect(bashOffers(['licenses', 'list', '--status', ''])).toEqual(['unused', 'used', 'banned', 'paused']);
    expect(bashOffers(['users', 'list', '--subscription', 'gold'])).toEqual(['gold-tier']);
    expect(zshOffers(['users', 'list', '--expiring-'])).toEqual(['--expiring-within']);
    expect(fishOffers('kactl users list --subscription gold')).toEqual(['gold-tier']);
  });
});

describe('fish completion', () => {
  it('completes commands and live values', () => {
    expect(fishOffers('kactl doc')).toEqual(['doctor']);
    expect(fishOffers('kactl subs delete gold')).toEqual(['gold-tier']);
  });
});

describe('completion when the server is down', () => {
  it('offers nothing for live values, fast, and never prompts', () => {
    const dir = tempDir();
    const result = spawnSync(process.execPath, [KACTL_BIN, '__complete', '--', 'subs', 'delete', ''], {
      env: cleanEnv(dir, { KACTL_BASE_URL: 'http://127.0.0.1:9', KACTL_SELLER_KEY: 'a'.repeat(32) }),
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
  });
});
