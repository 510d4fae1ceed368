/**
 * A sandbox's life outside one test process: `start --detach` (ready and profile saved before it
 * returns), `status`, `stop`, one sandbox per store file, a profile per sandbox, a port in use,
 * a foreground sandbox put in the background with `&`, and the clock as `whoami`-style views see
 * it (time left by the sandbox's clock, `clock --reset`, steps back).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KACTL_BIN, cleanEnv, runKactl } from '../helpers/run-kactl.js';
import { tempDir } from '../helpers/temp-dir.js';
import { isAlive } from '../helpers/processes.js';
import { killRegisteredSandboxes } from '../helpers/leftover-sandboxes.js';
import { totpCode } from '../../src/server/domain/twofa.js';

const configDirs: string[] = [];
const children: ChildProcess[] = [];

/** A fresh, empty config folder (its data folder is `<it>/data`). */
function freshConfig(): string {
  const dir = tempDir('kactl-life-');
  configDirs.push(dir);
  return dir;
}

/** Whatever a failed test left running: every registered sandbox of our folders, and our children. */
function killLeftovers(): void {
  killRegisteredSandboxes(configDirs.map((dir) => path.join(dir, 'data')));
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
afterAll(killLeftovers);

const kactl = (configDir: string, args: string[], input?: string) => runKactl(args, { configDir, ...(input === undefined ? {} : { input }), timeoutMs: 60_000 });

function config(configDir: string): { active?: string; profiles: Record<string, { baseUrl?: string }> } {
  return JSON.parse(fs.readFileSync(path.join(configDir, 'config.json'), 'utf8')) as ReturnType<typeof config>;
}

interface StatusRow {
  profile: string | null;
  pid: number;
  baseUrl: string;
  data: string;
  log: string | null;
}

async function status(configDir: string): Promise<StatusRow[]> {
  const result = await kactl(configDir, ['sandbox', 'status', '--json']);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as StatusRow[];
}

describe('kactl sandbox start --detach', () => {
  it('returns once ready with its profile saved, so the next command works at once (the `&` race)', async () => {
    const dir = freshConfig();
    const started = await kactl(dir, ['sandbox', 'start', '--detach', '--port', '0', '--no-rate-limit']);
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toBe('');
    expect(started.stderr).toMatch(/Sandbox listening on http:\/\/127\.0\.0\.1:\d+ in the background \(pid \d+\)/);
    expect(started.stderr).toContain('Stop it with: kactl sandbox stop sandbox');
    // No wait, no retry: the profile is there and the server answers.
    const created = await kactl(dir, ['licenses', 'create', '--amount', '3', '--expiry', '30']);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout.trim().split('\n')).toHaveLength(3);

    const [row, ...others] = await status(dir);
    expect(others).toEqual([]);
    expect(row).toMatchObject({ profile: 'sandbox', data: path.join(dir, 'data', 'sandbox.db') });
    expect(row!.baseUrl).toBe(config(dir).profiles.sandbox!.baseUrl);
    expect(fs.readFileSync(row!.log!, 'utf8')).toMatch(/type=add → 200/);

    const stopped = await kactl(dir, ['sandbox', 'stop']);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stderr).toContain(`Stopped the sandbox at ${row!.baseUrl} (pid ${row!.pid}); store closed.`);
    expect(await status(dir)).toEqual([]);
    expect(isAlive(row!.pid)).toBe(false);
    expect(fs.readdirSync(path.join(dir, 'data', 'sandboxes')).filter((name) => name.endsWith('.json'))).toEqual([]);
  });

  it('--json prints exactly the ready line of the foreground sandbox', async () => {
    const dir = freshConfig();
    const started = await kactl(dir, ['sandbox', 'start', '--detach', '--port', '0', '--data', ':memory:', '--json']);
    expect(started.code, started.stderr).toBe(0);
    const lines = started.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const info = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(Object.keys(info).sort()).toEqual(['adminToken', 'app', 'baseUrl', 'publicKey', 'sellerKey']);
    expect((await kactl(dir, ['sandbox', 'stop', '--all'])).code).toBe(0);
  });

  it('one sandbox per store file; a second sandbox gets its own profile and leaves "sandbox" alone', async () => {
    const dir = freshConfig();
    expect((await kactl(dir, ['sandbox', 'start', '--detach', '--port', '0'])).code).toBe(0);
    const first = config(dir).profiles.sandbox!.baseUrl!;

    const again = await kactl(dir, ['sandbox', 'start', '--detach', '--port', '0']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`is already served by the sandbox at ${first} (pid `);
    expect(again.stderr).not.toMatch(/\n\s+at /);

    const second = await kactl(dir, ['sandbox', 'start', '--detach', '--port', '0', '--data', ':memory:']);
    expect(second.code, second.stderr).toBe(0);
    const [, port] = /Sandbox listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(second.stderr)!;
    const after = config(dir);
    expect(after.active).toBe('sandbox');
    expect(after.profiles.sandbox!.baseUrl).toBe(first);
    expect(after.profiles[`sandbox-${port}`]!.baseUrl).toBe(`http://127.0.0.1:${port}`);
    expect(second.stderr).toContain(`use it with --profile sandbox-${port}`);

    const taken = await kactl(dir, ['sandbox', 'start', '--port', '0', '--data', ':memory:', '--profile-name', 'sandbox']);
    expect(taken.code).toBe(2);
    expect(taken.stderr).toContain('The profile "sandbox" belongs to the running sandbox at');

    expect((await status(dir)).map((row) => row.profile)).toEqual(['sandbox', `sandbox-${port}`]);
    const ambiguous = await kactl(dir, ['sandbox', 'stop', '--profile', 'nonesuch-but-unused']);
    expect(ambiguous.code).toBe(2);
    expect((await kactl(dir, ['sandbox', 'stop', `sandbox-${port}`])).code).toBe(0);
    // Its automatic profile went with it; the first sandbox still serves its own.
    expect(config(dir).profiles[`sandbox-${port}`]).toBeUndefined();
    expect((await kactl(dir, ['licenses', 'create', '--amount', '1', '--expiry', '1'])).code).toBe(0);
    expect((await kactl(dir, ['sandbox', 'stop', '--all'])).code).toBe(0);
    expect(await status(dir)).toEqual([]);
  });

  it('a sandbox killed outright loses its entry and its automatic profile at the next status', async () => {
    const dir = freshConfig();
    expect((await kactl(dir, ['sandbox', 'start', '--detach', '--port', '0', '--data', ':memory:'])).code).toBe(0);
    const second = await kactl(dir, ['sandbox', 'start', '--detach', '--port', '0', '--data', ':memory:']);
    expect(second.code, second.stderr).toBe(0);
    const [, port] = /Sandbox listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(second.stderr)!;
    const victim = (await status(dir)).find((row) => row.profile === `sandbox-${port}`)!;
    process.kill(victim.pid, 'SIGKILL');
    while (isAlive(victim.pid)) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(config(dir).profiles[`sandbox-${port}`]).toBeDefined();

    expect((await status(dir)).map((row) => row.profile)).toEqual(['sandbox']);
    expect(config(dir).profiles[`sandbox-${port}`]).toBeUndefined();
    expect(config(dir).profiles.sandbox).toBeDefined();
    expect((await kactl(dir, ['sandbox', 'stop', '--all'])).code).toBe(0);
  });

  it('a new sandbox on the store of one killed outright takes over its entry and drops its automatic profile', async () => {
    const dir = freshConfig();
    const store = path.join(dir, 'second.db');
    const portOf = (stderr: string) => /Sandbox listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr)![1]!;
    expect((await kactl(dir, ['sandbox', 'start', '--detach', '--port', '0', '--data', ':memory:'])).code).toBe(0);
    const killed = await kactl(dir, ['sandbox', 'start', '--detach', '--port', '0', '--data', store]);
    expect(killed.code, killed.stderr).toBe(0);
    const oldPort = portOf(killed.stderr);
    const victim = (await status(dir)).find((row) => row.profile === `sandbox-${oldPort}`)!;
    process.kill(victim.pid, 'SIGKILL');
    while (isAlive(victim.pid)) await new Promise((resolve) => setTimeout(resolve, 20));

    const again = await kactl(dir, ['sandbox', 'start', '--detach', '--port', '0', '--data', store]);
    expect(again.code, again.stderr).toBe(0);
    const newPort = portOf(again.stderr);
    const profiles = config(dir).profiles;
    expect(profiles[`sandbox-${newPort}`]!.baseUrl).toBe(`http://127.0.0.1:${newPort}`);
    if (newPort !== oldPort) expect(profiles[`sandbox-${oldPort}`]).toBeUndefined();
    expect((await kactl(dir, ['sandbox', 'stop', '--all'])).code).toBe(0);
  });

  it('a port in use is one sentence with a suggestion and exit 2, in front and with --detach', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = String((blocker.address() as net.AddressInfo).port);
    try {
      for (const args of [['sandbox', 'start', '--port', port], ['sandbox', 'start', '--port', port, '--detach']]) {
        const dir = freshConfig();
        const result = await kactl(dir, args);
        expect(result.code).toBe(2);
        expect(result.stderr.split('\n')[0]).toBe(`error: The port ${port} on 127.0.0.1 is already in use; pick another with --port N, or --port 0 for a free one.`);
        expect(result.stderr).not.toContain('unexpected failure');
        expect(await status(dir)).toEqual([]);
      }
    } finally {
      blocker.close();
    }
  });
});

describe('a profile no sandbox made', () => {
  const profileOf = (dir: string, name: string) => (JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')) as { profiles: Record<string, Record<string, unknown>> }).profiles[name];

  it('is not overwritten by --profile-name or by the default "sandbox" without --force (exit 2, one sentence, nothing served)', async () => {
    const dir = freshConfig();
    for (const name of ['prod', 'sandbox']) {
      const added = await kactl(dir, ['profile', 'add', name, '--force', '--base-url', `https://${name}.example.test`, '--app-name', 'MyApp', '--ownerid', 'AbCdEf1234', '--hwid', `${name}-hwid`, '--seller-key-stdin'], `${name}-seller-key-0123456789abcdef\n`);
      expect(added.code, added.stderr).toBe(0);
    }
    const before = config(dir);
    const attempts = [
      ['sandbox', 'start', '--detach', '--port', '0', '--data', ':memory:', '--profile-name', 'prod'],
      ['sandbox', 'start', '--port', '0', '--data', ':memory:', '--profile-name', 'prod', '--json'],
      ['sandbox', 'start', '--detach', '--port', '0', '--data', ':memory:'],
      ['sandbox', 'start', '--port', '0', '--data', ':memory:'],
    ];
    for (const args of attempts) {
      const refused = await kactl(dir, args);
      expect(refused.code, `${args.join(' ')}\n${refused.stderr}`).toBe(2);
      const name = args.includes('prod') ? 'prod' : 'sandbox';
      expect(refused.stderr.split('\n')[0]).toBe(
        `error: The profile "${name}" was not made by kactl sandbox and would be overwritten: give another --profile-name, or --force to replace it.`,
      );
      expect(refused.stdout).toBe('');
      expect(config(dir)).toEqual(before);
      expect(await status(dir)).toEqual([]);
    }

    // --force replaces it whole: nothing of the old profile (its seller key, its app) is left.
    const forced = await kactl(dir, ['sandbox', 'start', '--detach', '--port', '0', '--data', ':memory:', '--profile-name', 'prod', '--force', '--json']);
    expect(forced.code, forced.stderr).toBe(0);
    const info = JSON.parse(forced.stdout) as { baseUrl: string; sellerKey: string; app: { name: string } };
    expect(profileOf(dir, 'prod')).toMatchObject({ baseUrl: info.baseUrl, sellerKey: info.sellerKey, appName: info.app.name });
    expect(profileOf(dir, 'prod')!.hwid).toBeUndefined();
    expect(profileOf(dir, 'sandbox')).toEqual(before.profiles.sandbox);
    expect((await kactl(dir, ['sandbox', 'stop', '--all'])).code).toBe(0);
  });

  it("a sandbox's own earlier profile is replaced as before, keeping what was added to it", async () => {
    const dir = freshConfig();
    expect((await kactl(dir, ['sandbox', 'start', '--detach', '--port', '0', '--data', ':memory:'])).code).toBe(0);
    expect((await kactl(dir, ['profile', 'add', 'sandbox', '--hwid', 'kept-hwid-0001'])).code).toBe(0);
    expect((await kactl(dir, ['sandbox', 'stop'])).code).toBe(0);
    const again = await kactl(dir, ['sandbox', 'start', '--detach', '--port', '0', '--data', ':memory:', '--json']);
    expect(again.code, again.stderr).toBe(0);
    const info = JSON.parse(again.stdout) as { baseUrl: string };
    expect(profileOf(dir, 'sandbox')).toMatchObject({ baseUrl: info.baseUrl, hwid: 'kept-hwid-0001' });
    expect((await kactl(dir, ['sandbox', 'stop'])).code).toBe(0);
  });
});

describe('secrets of a detached sandbox', () => {
  it.skipIf(process.platform !== 'linux')('--seller-key reaches the background server, but not its command line or environment (/proc/<pid>)', async () => {
    for (const form of ['separate', 'joined'] as const) {
      const dir = freshConfig();
      const key = form === 'separate' ? 'Sk1lledSellerKey0123456789abcdef' : 'J0inedSellerKeyForm0123456789abc';
      const flag = form === 'separate' ? ['--seller-key', key] : [`--seller-key=${key}`];
      const started = await kactl(dir, ['sandbox', 'start', '--detach', '--port', '0', '--data', ':memory:', ...flag, '--json']);
      expect(started.code, started.stderr).toBe(0);
      expect((JSON.parse(started.stdout) as { sellerKey: string }).sellerKey).toBe(key);
      const [row] = await status(dir);
      const cmdline = fs.readFileSync(`/proc/${row!.pid}/cmdline`, 'utf8');
      expect(cmdline).toContain('sandbox\0start\0');
      expect(cmdline).not.toContain(key);
      expect(cmdline).not.toContain('--seller-key');
      expect(fs.readFileSync(`/proc/${row!.pid}/environ`, 'utf8')).not.toContain(key);
      // The sandbox's seller API takes the key it was given.
      const created = await kactl(dir, ['licenses', 'create', '--amount', '1', '--expiry', '1']);
      expect(created.code, created.stderr).toBe(0);
      expect((await kactl(dir, ['sandbox', 'stop'])).code).toBe(0);
    }
  });

  it('a seller key that also appears elsewhere on the command line is refused before anything runs', async () => {
    const dir = freshConfig();
    const key = 'Sk1lledSellerKey0123456789abcdef';
    const refused = await kactl(dir, ['sandbox', 'start', '--detach', '--data', ':memory:', '--app-name', `App-${key}`, '--seller-key', key]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.split('\n')[0]).toBe(
      "error: The seller key also appears elsewhere on the command line; give it only as --seller-key so it can be kept off the background server's command line.",
    );
    expect(await status(dir)).toEqual([]);
  });
});

describe('a foreground sandbox sent to the background with &', () => {
  // An interactive shell's Ctrl-C reaches only the foreground job, never an `&` job: the ready
  // text must not promise Ctrl-C alone, and `kactl sandbox stop` must reach it.
  it('says how else to stop it, and stops on `kactl sandbox stop` and on SIGINT', async () => {
    const dir = freshConfig();
    const script = `
      set -u
      node "${KACTL_BIN}" sandbox start --port 0 --data :memory: 2>"$LOG" &
      for _ in $(seq 100); do grep -q 'Press Ctrl-C' "$LOG" && break; sleep 0.1; done
      node "${KACTL_BIN}" sandbox stop || exit 10
      wait $! || exit 11
      node "${KACTL_BIN}" sandbox start --port 0 --data :memory: 2>>"$LOG" &
      for _ in $(seq 100); do [ "$(grep -c 'Press Ctrl-C' "$LOG")" = 2 ] && break; sleep 0.1; done
      kill -INT $!
      wait $! || exit 12
    `;
    const log = path.join(dir, 'sandbox.log');
    const bash = spawn('bash', ['-c', script], { env: { ...cleanEnv(dir), LOG: log }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(bash);
    let stderr = '';
    bash.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => bash.once('exit', resolve));
    expect(code, `${stderr}\n${fs.readFileSync(log, 'utf8')}`).toBe(0);
    const said = fs.readFileSync(log, 'utf8');
    expect(said).toContain('Press Ctrl-C to stop, or run `kactl sandbox stop sandbox` from any shell.');
    expect(said.match(/Sandbox stopped; store closed\./g)).toHaveLength(2);
    expect(stderr).toMatch(/Stopped the sandbox at http:\/\/127\.0\.0\.1:\d+ \(pid \d+\); store closed\./);
  });
});

describe('the sandbox clock, as the CLI shows it', () => {
  it('after `advance 31d` a fresh 30-day key shows 30 days left, an authenticator code still works; --reset and steps back work', async () => {
    const dir = freshConfig();
    expect((await kactl(dir, ['sandbox', 'start', '--detach', '--port', '0', '--data', ':memory:', '--no-rate-limit'])).code).toBe(0);
    try {
      const advanced = await kactl(dir, ['sandbox', 'advance', '31d']);
      expect(advanced.code, advanced.stderr).toBe(0);
      expect(advanced.stderr).toContain('Back to real time with: kactl sandbox clock --reset');
      const key = (await kactl(dir, ['licenses', 'create', '--amount', '1', '--expiry', '30'])).stdout.trim();
      expect((await kactl(dir, ['client', 'init'])).code).toBe(0);
      const registered = await kactl(dir, ['client', 'register', '--username', 'alice', '--key', key, '--password-stdin', '-o', 'tsv'], 's3cret-pw\n');
      expect(registered.code, registered.stderr).toBe(0);
      // TSV: subscription, level, expiry (ISO), time left in seconds.
      const row = registered.stdout.trim().split('\n').at(-1)!.split('\t');
      const left = Number(row.at(-1));
      expect(left).toBeGreaterThan(30 * 86_400 - 120);
      expect(left).toBeLessThanOrEqual(30 * 86_400);

      // A real authenticator's code (real time) turns 2FA on although the sandbox runs 31 days ahead.
      const first = JSON.parse((await kactl(dir, ['client', '2fa', 'enable', '--json'])).stdout) as { '2fa': { secret_code: string } };
      const enabled = await kactl(dir, ['client', '2fa', 'enable', '--code', totpCode(first['2fa'].secret_code, Math.floor(Date.now() / 1000))]);
      expect(enabled.code, enabled.stderr).toBe(0);
      expect(enabled.stderr).toContain('Two-factor authentication is on');

      expect((await kactl(dir, ['sandbox', 'advance', '0', '--json'])).code).toBe(0);
      const back = JSON.parse((await kactl(dir, ['sandbox', 'advance', '--json', '--', '-1d'])).stdout) as { offset: number };
      expect(back.offset).toBe(30 * 86_400);
      const reset = await kactl(dir, ['sandbox', 'clock', '--reset']);
      expect(reset.code, reset.stderr).toBe(0);
      expect(reset.stderr).toContain('Sandbox clock is back on real time.');
      expect(JSON.parse((await kactl(dir, ['sandbox', 'clock', '--json'])).stdout)).toMatchObject({ offset: 0 });
      const tooFar = await kactl(dir, ['sandbox', 'advance', '40000d']);
      expect(tooFar.code).toBe(2);
    } finally {
      await kactl(dir, ['sandbox', 'stop', '--all']);
    }
  });
});
