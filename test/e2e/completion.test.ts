/**
 * The completion scripts run in the real shells (bash, zsh, fish from Debian packages): each is
 * loaded as a user would, asked for the candidates of a command line, and must offer commands,
 * flags, option choices, profile names, live subscription names from a sandbox, and the values
 * of positional arguments that name something kactl or the server knows (profiles, running
 * sandboxes, users, variables, channels, keys, operation types).
 *
 * Subscription names are the server's to choose: one with a control character or a leading `-`
 * is never offered, and the rest are inserted quoted — typed with Tab in each shell on a real
 * terminal, then printed, `$(…)` stays text and runs nothing. One Tab never waits for a rate
 * limit (Retry-After), another process's pacing budget or a retry.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyFingerprint } from '../../src/api/pacer.js';
import { startE2ESandbox, type E2ESandbox } from '../helpers/e2e.js';
import { spawnInPty } from '../helpers/pty.js';
import { KACTL_BIN, cleanEnv } from '../helpers/run-kactl.js';
import { tempDir } from '../helpers/temp-dir.js';

/** Names a server could give subscriptions; only the last two may be offered, quoted. */
const HOSTILE = ['ev\nnewline', 'ev\u001b[31mred', 'ev\u0007bell', '--seller-key=evil', 'cmd $(touch PWNED)', 'star*'];

let sb: E2ESandbox;
let binDir: string;

beforeAll(async () => {
  sb = await startE2ESandbox();
  await sb.ok(['subs', 'create', '--name', 'gold-tier', '--level', '3']);
  for (const name of HOSTILE) await sb.ok(['subs', 'create', `--name=${name}`, '--level', '1']);
  // Records the positional arguments name: a channel, a global variable, a user with a variable, a key.
  await sb.ok(['chats', 'create', '--name', 'lobby', '--delay-seconds', '1']);
  await sb.ok(['vars', 'create', '--name', 'download-url', '--data', 'https://example.test/app']);
  await sb.ok(['users', 'create', '--username', 'carol', '--password', 'carol-pass-1', '--sub', 'default', '--expiry', '30']);
  await sb.ok(['uservars', 'set', 'carol', '--name', 'theme', '--data', 'dark']);
  await sb.ok(['licenses', 'create', '--mask', 'TABKEY-0001', '--expiry', '30']);
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
    // An argument's choices: the shells, the fault kinds.
    expect(bashOffers(['completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    expect(bashOffers(['sandbox', 'fault', 'add', '--type', 'login', 'st'])).toEqual(['stale-timestamp', 'status']);
    expect(bashOffers(['sandbox', 'fault', 'add', 'status', ''])).toEqual([]);
    expect(bashOffers(['__comp'])).toEqual([]);
  });

  it('offers profile names and live subscription names from the sandbox', () => {
    expect(bashOffers(['--profile', ''])).toEqual(['sandbox']);
    expect(bashOffers(['subs', 'delete', 'go'])).toEqual(['gold-tier']);
    expect(bashOffers(['users', 'extend', '--user', 'bob', '--sub', ''])).toEqual(expect.arrayContaining(['gold-tier']));
    const cache = path.join(sb.configDir, 'data', 'completion', 'sandbox.fetchallsubs.json');
    expect(fs.statSync(cache).mode & 0o777).toBe(0o600);
  });

  it('offers the running sandbox\'s fault ids to clear', async () => {
    const { id } = await sb.json<{ id: number }>(['sandbox', 'fault', 'add', '--type', 'chatget', 'reset']);
    expect(bashOffers(['sandbox', 'fault', 'clear', ''])).toEqual([String(id)]);
    await sb.ok(['sandbox', 'fault', 'clear']);
  });
});

describe('positional arguments that name something kactl or the server knows (bash)', () => {
  it('profiles: profile use, show, remove', () => {
    expect(bashOffers(['profile', 'use', 'sa'])).toEqual(['sandbox']);
    expect(bashOffers(['profile', 'show', ''])).toEqual(['sandbox']);
    expect(bashOffers(['profile', 'remove', ''])).toEqual(['sandbox']);
    // One argument only: nothing after it.
    expect(bashOffers(['profile', 'use', 'sandbox', ''])).toEqual([]);
  });

  it('running sandboxes: sandbox stop', () => {
    expect(bashOffers(['sandbox', 'stop', ''])).toEqual(['sandbox']);
  });

  it("seller records: users, variables, keys, channels; a key is never kept in the cache", () => {
    expect(bashOffers(['users', 'get', 'ca'])).toEqual(['carol']);
    expect(bashOffers(['uservars', 'get', ''])).toEqual(['carol']);
    expect(bashOffers(['vars', 'delete', 'down'])).toEqual(['download-url']);
    expect(bashOffers(['chats', 'clear', ''])).toEqual(['lobby']);
    expect(bashOffers(['licenses', 'get', 'TAB'])).toEqual(['TABKEY-0001']);
    expect(fs.readdirSync(path.join(sb.configDir, 'data', 'completion')).filter((file) => file.includes('fetchallkeys'))).toEqual([]);
  });

  it('client commands: channels, global and user variables, operation types', () => {
    expect(bashOffers(['client', 'chat', 'read', ''])).toEqual(['lobby']);
    expect(bashOffers(['client', 'chat', 'send', 'lobby', ''])).toEqual([]);
    expect(bashOffers(['client', 'global-var', 'get', ''])).toEqual(['download-url']);
    expect(bashOffers(['client', 'var', 'get', ''])).toEqual(['theme']);
    expect(bashOffers(['client', 'call', 'fetchS'])).toEqual(['fetchStats']);
    expect(bashOffers(['seller', 'call', 'fetchallk'])).toEqual(['fetchallkeys']);
    expect(bashOffers(['client', 'magic-link', ''])).toEqual(['wait']);
  });

  it('names kactl knows: SDKs, schema kinds', () => {
    expect(bashOffers(['sandbox', 'connect', 'py'])).toEqual(['python']);
    expect(bashOffers(['schema', ''])).toEqual(['state', 'flows']);
  });
});

describe('zsh completion', () => {
  it('completes commands, flags, profiles and live values', () => {
    expect(zshOffers(['sand'])).toEqual(['sandbox']);
    expect(zshOffers(['licenses', 'list', '--li'])).toEqual(['--limit']);
    expect(zshOffers(['--profile', 's'])).toEqual(['sandbox']);
    expect(zshOffers(['subs', 'delete', ''])).toEqual(expect.arrayContaining(['gold-tier']));
  });

  it('completes positional arguments: profiles, sandboxes, channels, variables', () => {
    expect(zshOffers(['profile', 'use', 's'])).toEqual(['sandbox']);
    expect(zshOffers(['sandbox', 'stop', ''])).toEqual(['sandbox']);
    expect(zshOffers(['client', 'chat', 'read', ''])).toEqual(['lobby']);
    expect(zshOffers(['vars', 'get', ''])).toEqual(['download-url']);
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

  it('completes positional arguments: profiles, sandboxes, channels, users', () => {
    expect(fishOffers('kactl profile use sa')).toEqual(['sandbox']);
    expect(fishOffers('kactl sandbox stop ')).toEqual(['sandbox']);
    expect(fishOffers('kactl client chat read lo')).toEqual(['lobby']);
    expect(fishOffers('kactl users ban ca')).toEqual(['carol']);
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

/** What `kactl __complete` prints for `words`, run as the scripts run it. */
function complete(words: string[], env: Record<string, string> = {}, configDir = sb.configDir) {
  return spawnSync(process.execPath, [KACTL_BIN, '__complete', '--', ...words], {
    env: cleanEnv(configDir, { CI: '1', ...env }),
    encoding: 'utf8',
    input: '',
    // Ended here only if it waits (a paced wait is a minute); kactl would then exit 0 quietly,
    // so `error` (ETIMEDOUT) is what tells.
    timeout: 20_000,
  });
}

describe('candidates the server chose', () => {
  it('offers none with a control character or a leading "-"', async () => {
    // The server holds them all, as given.
    const held = await sb.json<{ name: string }[]>(['subs', 'list']);
    expect(held.map((sub) => sub.name)).toEqual(expect.arrayContaining(HOSTILE));
    const all = complete(['subs', 'delete', '']);
    expect(all.status).toBe(0);
    expect(lines(all.stdout).sort()).toEqual(['cmd $(touch PWNED)', 'default', 'gold-tier', 'star*']);
    expect(all.stdout).not.toMatch(/\p{Cc}(?<!\n)/u);
  });

  // Typed as a person types: the line, Tab, then Ctrl-A and a printf before it, then Enter. The
  // printed argument must be the name itself, and nothing it holds may run.
  const SHELLS: { name: string; program: string; args: string[]; setup: string[] }[] = [
    { name: 'bash', program: 'bash', args: ['--norc', '--noprofile', '-i'], setup: ["PS1='READY> '", 'source <(kactl completion bash)'] },
    { name: 'zsh', program: 'zsh', args: ['-f', '-i'], setup: ["PROMPT='READY> '", 'autoload -Uz compinit && compinit -u -D', 'source <(kactl completion zsh)'] },
    { name: 'fish', program: 'fish', args: ['--no-config', '-i'], setup: ["function fish_prompt; echo -n 'READY> '; end", 'kactl completion fish | source'] },
  ];
  for (const shell of SHELLS) {
    it(`${shell.name} inserts them quoted: $(…) and * stay text`, async () => {
      const cwd = tempDir();
      fs.writeFileSync(path.join(cwd, 'star-file'), '');
      const term = spawnInPty(shell.program, shell.args, { configDir: sb.configDir, cwd, env: { PATH: `${binDir}:${process.env.PATH}` } });
      try {
        for (const line of shell.setup) term.type(`${line}\r`);
        term.type("echo 'SET''UP DONE'\r");
        await term.waitFor('SETUP DONE', 20_000);
        for (const [typed, printed] of [['cm', '<cmd $(touch PWNED)>'], ['sta', '<star*>']] as const) {
          term.type(`kactl subs delete ${typed}\t`);
          await new Promise((resolve) => setTimeout(resolve, 1_500));
          term.type("\u0001printf '<%s>\\n' \r");
          await term.waitFor(printed, 20_000);
        }
        expect(fs.existsSync(path.join(cwd, 'PWNED'))).toBe(false);
      } finally {
        term.kill();
      }
    }, 60_000);
  }
});

describe('one Tab never waits', () => {
  it('not for a Retry-After of 50 s, nor a retry', async () => {
    let calls = 0;
    const limited = http.createServer((req, res) => {
      calls += 1;
      req.resume();
      res.writeHead(429, { 'retry-after': '50', 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: false, message: 'Slow down.' }));
    });
    await new Promise<void>((resolve) => limited.listen(0, '127.0.0.1', resolve));
    try {
      const env = { KACTL_BASE_URL: `http://127.0.0.1:${(limited.address() as AddressInfo).port}`, KACTL_SELLER_KEY: 'r'.repeat(32) };
      const result = await new Promise<{ status: number | null; stdout: string }>((resolve) => {
        // Not spawnSync: the server above answers from this process.
        const child = spawn(process.execPath, [KACTL_BIN, '__complete', '--', 'subs', 'delete', ''], { env: cleanEnv(tempDir(), { CI: '1', ...env }) });
        let stdout = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        child.once('exit', (status) => {
          clearTimeout(timer);
          resolve({ status, stdout });
        });
      });
      expect(result.status).toBe(0);
      expect(result.stdout).toBe('');
      expect(calls).toBe(1);
    } finally {
      await new Promise<void>((resolve) => limited.close(() => resolve()));
    }
  }, 60_000);

  it('not for a pacing budget another kactl process used up', () => {
    const dir = tempDir();
    const key = 'p'.repeat(32);
    // The record every kactl process shares: 120 calls in the last seconds, the whole budget.
    const pacing = path.join(dir, 'data', 'pacing');
    fs.mkdirSync(pacing, { recursive: true, mode: 0o700 });
    const now = Date.now();
    fs.writeFileSync(path.join(pacing, `seller-pace-${keyFingerprint(key)}.json`), JSON.stringify({ version: 1, calls: Array.from({ length: 120 }, (_, i) => now - i * 10) }));
    const result = complete(['subs', 'delete', ''], { KACTL_BASE_URL: sb.info.baseUrl, KACTL_SELLER_KEY: key }, dir);
    expect(result.error).toBeUndefined();
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
  }, 60_000);
});
