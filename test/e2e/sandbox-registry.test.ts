/**
 * Registry entries that do not name a sandbox (src/commands/sandbox/registry.ts): a pid that is
 * not one process (-1 would signal every process of the user), a pid now used by another
 * process whose command line looks like a sandbox's, an entry naming someone's real profile.
 * `status` lists none of them, `stop` signals none of them, and no profile goes on their account.
 *
 * The entries are planted in folders of their own that no clean-up hook of any test reads: a
 * hook that SIGKILLs registered pids must never meet pid -1.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KACTL_BIN, cleanEnv, runKactl } from '../helpers/run-kactl.js';
import { tempDir } from '../helpers/temp-dir.js';
import { isAlive } from '../helpers/processes.js';
import { sandboxIdentity } from '../../src/commands/sandbox/process-identity.js';

const decoys: ChildProcess[] = [];
afterAll(() => {
  for (const decoy of decoys) if (decoy.exitCode === null && decoy.signalCode === null) decoy.kill('SIGKILL');
});

const kactl = (configDir: string, args: string[], input?: string) => runKactl(args, { configDir, ...(input === undefined ? {} : { input }), timeoutMs: 60_000 });

async function status(configDir: string): Promise<{ pid: unknown; profile: unknown }[]> {
  const result = await kactl(configDir, ['sandbox', 'status', '--json']);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as { pid: unknown; profile: unknown }[];
}

/** Writes `<config>/data/sandboxes/<name>.json` as a sandbox would have (a ready one, by default). */
function plant(configDir: string, name: string, fields: Record<string, unknown>): void {
  const dir = path.join(configDir, 'data', 'sandboxes');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const entry = {
    id: name,
    state: 'ready',
    data: path.join(configDir, 'data', `${name}.db`),
    baseUrl: 'http://127.0.0.1:9',
    profile: null,
    autoProfile: false,
    startedAt: new Date().toISOString(),
    process: { start: 'linux:00000000-0000-0000-0000-000000000000:1', command: '0'.repeat(64) },
    ...fields,
  };
  fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(entry), { mode: 0o600 });
}

/** A process of ours that keeps running until killed. */
function decoy(file: string, args: string[], argv0?: string): ChildProcess {
  const child = spawn(file, args, { stdio: 'ignore', ...(argv0 ? { argv0 } : {}) });
  decoys.push(child);
  return child;
}

async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(check()).toBe(true);
}

describe('entries whose pid is not one process', () => {
  it('pid -1, 0, 1, fractions, strings and huge numbers are never listed (so never signalled)', async () => {
    const dir = tempDir('kactl-registry-');
    const pids: unknown[] = [-1, 0, 1, -4242, 1.5, '4242', 2 ** 53, null];
    pids.forEach((pid, index) => plant(dir, `bad-${index}`, { pid }));
    expect(await status(dir)).toEqual([]);
    // The clean-up above removes nothing young (an entry may be half written), so they are still there.
    expect(fs.readdirSync(path.join(dir, 'data', 'sandboxes'))).toHaveLength(pids.length);
  });
});

describe('a pid reused by another process', () => {
  const linux = process.platform === 'linux';

  it.skipIf(!linux)('is neither listed nor signalled, whatever its command line says; only the recorded start time and command pass', async () => {
    const dir = tempDir('kactl-registry-');
    const configFile = path.join(dir, 'config.json');
    fs.writeFileSync(configFile, JSON.stringify({ profiles: { mine: { baseUrl: 'https://example.test' } } }), { mode: 0o600 });

    // A `sleep` whose argv holds "sandbox" (what kactl used to check), and a process whose
    // command line is a kactl `sandbox start`'s, word for word.
    const sleeper = decoy('sleep', ['600'], 'kactl-sandbox');
    const lookalike = decoy(process.execPath, ['-e', 'setInterval(() => {}, 1e9)', KACTL_BIN, 'sandbox', 'start', '--data', ':memory:']);
    await waitFor(() => sandboxIdentity(lookalike.pid!) !== undefined);
    const real = sandboxIdentity(lookalike.pid!)!;
    expect(fs.readFileSync(`/proc/${sleeper.pid}/cmdline`, 'utf8')).toContain('sandbox');

    // What a dead sandbox's entry would say once its pid is reused: another start time.
    plant(dir, 'sleeper', { pid: sleeper.pid, profile: 'mine' });
    plant(dir, 'same-command-other-start', { pid: lookalike.pid, process: { ...real, start: `${real.start}0` } });
    plant(dir, 'same-start-other-command', { pid: lookalike.pid, process: { ...real, command: 'f'.repeat(64) } });
    plant(dir, 'no-identity', { pid: lookalike.pid, process: undefined });

    expect(await status(dir)).toEqual([]);
    const stopAll = await kactl(dir, ['sandbox', 'stop', '--all']);
    expect(stopAll.code, stopAll.stderr).toBe(0);
    expect(stopAll.stderr).toContain('No sandbox is running.');
    const byPid = await kactl(dir, ['sandbox', 'stop', String(sleeper.pid)]);
    expect(byPid.code).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(isAlive(sleeper.pid!)).toBe(true);
    expect(isAlive(lookalike.pid!)).toBe(true);

    // The control: the same process with the identity it really has is a registered sandbox,
    // and `stop` signals it. The id inside the file is ignored (the file name is the id).
    plant(dir, 'control', { pid: lookalike.pid, process: real, id: '../../config' });
    const listed = await status(dir);
    expect(listed.map((row) => row.pid)).toEqual([lookalike.pid]);
    const stopped = await kactl(dir, ['sandbox', 'stop', String(lookalike.pid)]);
    expect(stopped.code, stopped.stderr).toBe(0);
    await waitFor(() => !isAlive(lookalike.pid!));
    expect(isAlive(sleeper.pid!)).toBe(true);
    expect(fs.existsSync(configFile)).toBe(true);
    // Stale entries are swept; one that is no entry at all only once it is old (it may be half written).
    expect(fs.readdirSync(path.join(dir, 'data', 'sandboxes')).filter((name) => name.endsWith('.json'))).toEqual(['no-identity.json']);
  });
});

describe('a sandbox run under a name that is not kactl', () => {
  it('is refused (exit 2): `stop` could never tell it from another process', async () => {
    const dir = tempDir('kactl-registry-');
    const renamed = path.join(dir, 'ka');
    fs.symlinkSync(KACTL_BIN, renamed);
    const result = spawnSync(process.execPath, [renamed, 'sandbox', 'start', '--data', ':memory:', '--port', '0'], { env: cleanEnv(dir), encoding: 'utf8', timeout: 60_000 });
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('error: `sandbox stop` could not recognise this process by its command line: run it as `kactl sandbox start` (the script named kactl or kactl.js).');
    expect(await status(dir)).toEqual([]);
  });
});

describe('a stale entry naming a profile', () => {
  it("removes nothing unless the profile still holds that sandbox's admin token", async () => {
    const dir = tempDir('kactl-registry-');
    const added = await kactl(dir, ['profile', 'add', 'prod', '--force', '--base-url', 'https://prod.example.test', '--app-name', 'MyApp', '--ownerid', 'AbCdEf1234', '--seller-key-stdin'], 'prod-seller-key-0123456789abcdef\n');
    expect(added.code, added.stderr).toBe(0);
    const readConfig = () => JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')) as { active?: string; profiles: Record<string, { baseUrl: string }> };
    const before = readConfig();
    const prod = before.profiles.prod!;

    // A pid that has certainly gone: a process we ran and reaped.
    const gone = spawnSync('true').pid;
    plant(dir, 'stale-prod', { pid: gone, profile: 'prod', autoProfile: true, baseUrl: prod.baseUrl, adminTokenDigest: 'a'.repeat(64) });
    plant(dir, 'stale-prod-no-digest', { pid: gone, profile: 'prod', autoProfile: true, baseUrl: prod.baseUrl });
    expect(await status(dir)).toEqual([]);
    expect(readConfig()).toEqual(before);
    // Stale entries are swept.
    expect(fs.readdirSync(path.join(dir, 'data', 'sandboxes')).filter((name) => name.endsWith('.json'))).toEqual([]);
  });
});
