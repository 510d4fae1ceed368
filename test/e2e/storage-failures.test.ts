/**
 * What the real kactl does when this machine will not let it finish: a full stdout (/dev/full),
 * a nearly full disk under `--out` (a small tmpfs), read-only config and data folders (a
 * read-only bind mount), a network failure or a Ctrl-C while a bulk `licenses create` call is in
 * flight. Each time: one sentence, no stack trace, and every key the server made is somewhere
 * the message names (stdout, the file, stderr, a recovery file), with the right amount to make
 * next. Mounting needs root (CI has it); elsewhere those cases skip with the reason printed.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2ESandbox, type E2ESandbox } from '../helpers/e2e.js';
import { KACTL_BIN, cleanEnv, type SpawnResult } from '../helpers/run-kactl.js';
import { tempDir } from '../helpers/temp-dir.js';
import { fillDisk, makeReadOnly, mountSupport, smallDisk } from '../helpers/mounts.js';
import { lossyProxy } from '../helpers/lossy-proxy.js';

let sb: E2ESandbox;

beforeAll(async () => {
  sb = await startE2ESandbox();
});
afterAll(async () => {
  await sb.stop();
});

async function serverKeys(): Promise<Set<string>> {
  return new Set((await sb.json<{ key: string }[]>(['licenses', 'list'])).map((row) => row.key));
}

/** The keys the server made since `before`. */
async function madeSince(before: Set<string>): Promise<Set<string>> {
  return new Set([...(await serverKeys())].filter((key) => !before.has(key)));
}

/** Keys are six groups of six characters (the default mask). */
const KEY_LINE = /^[A-Za-z0-9]{6}(-[A-Za-z0-9]{6}){5}$/;
const keysIn = (text: string): string[] => text.split('\n').filter((line) => KEY_LINE.test(line));

function expectOneSentence(stderr: string): void {
  expect(stderr).not.toMatch(/\n\s+at |unexpected failure|Unhandled|node:internal/);
  expect(stderr.match(/^error: /gm) ?? []).toHaveLength(1);
}

/** kactl with stdout on `stdoutPath` (a file or a device) and stderr captured. */
function kactlTo(stdoutPath: string, args: readonly string[], env: Record<string, string> = {}): Promise<SpawnResult> {
  const out = fs.openSync(stdoutPath, 'w');
  const child = spawn(process.execPath, [KACTL_BIN, ...args], { env: cleanEnv(sb.configDir, env), stdio: ['ignore', out, 'pipe'] });
  fs.closeSync(out);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout: '', stderr })));
}

describe.skipIf(!fs.existsSync('/dev/full'))('a standard output that refuses writes (> /dev/full; Linux only)', () => {
  it('licenses create: the keys made go to stderr, one sentence, exit 1', async () => {
    const before = await serverKeys();
    const result = await kactlTo('/dev/full', ['licenses', 'create', '--amount', '5', '--expiry', '1']);
    expect(result.code).toBe(1);
    expectOneSentence(result.stderr);
    expect(result.stderr).toContain("error: Can't write to standard output: no space left on the device (ENOSPC).");
    expect(result.stderr).toContain('The 5 keys made are on stderr above');
    expect(new Set(keysIn(result.stderr))).toEqual(await madeSince(before));
  });

  it('licenses list and --json: one sentence, exit 1, no JSON error where stdout failed', async () => {
    for (const args of [['licenses', 'list'], ['licenses', 'list', '--json']]) {
      const result = await kactlTo('/dev/full', args);
      expect(result.code, args.join(' ')).toBe(1);
      expectOneSentence(result.stderr);
      expect(result.stderr).toContain("Can't write to standard output: no space left on the device (ENOSPC).");
    }
  });
});

describe.skipIf(mountSupport() !== undefined)('a nearly full disk under --out (tmpfs)', () => {
  it('every key the server made is in the file or the recovery file named, and the advice is the server count', async () => {
    const disk = smallDisk(64 * 1024);
    // Room for the first 100 keys (4,200 bytes) and part of the next 100, as in the report.
    fillDisk(disk, 8 * 1024);
    const file = path.join(disk, 'keys.txt');
    const before = await serverKeys();
    const result = await sb.kactl(['licenses', 'create', '--amount', '300', '--expiry', '1', '--out', file], { timeoutMs: 60_000 });
    const made = await madeSince(before);
    expect(result.code).toBe(1);
    expectOneSentence(result.stderr);
    expect(result.stderr).toContain(`Can't write ${file}: no space left on the device (ENOSPC).`);
    const inFile = fs.readFileSync(file, 'utf8');
    // Whole lines only: a half-written key would be a key nobody can use.
    expect(inFile === '' || inFile.endsWith('\n')).toBe(true);
    const recovery = /in (\S+recovery\S+\.txt)/.exec(result.stderr)?.[1];
    expect(recovery, result.stderr).toBeDefined();
    expect((fs.statSync(recovery!).mode & 0o777).toString(8)).toBe('600');
    const accounted = [...keysIn(inFile), ...keysIn(fs.readFileSync(recovery!, 'utf8')), ...keysIn(result.stderr)];
    expect(new Set(accounted)).toEqual(made);
    expect(result.stderr).toContain(`Created ${made.size} of 300 licenses; ${300 - made.size} are missing.`);
    expect(result.stderr).toContain(`Run again with --amount ${300 - made.size} to make the rest.`);
  });
});

describe.skipIf(mountSupport() !== undefined)('read-only and full config and data folders', () => {
  /**
   * A copy of the sandbox's config folder whose profile paces seller calls as for the hosted
   * service (the test sandbox's own profile does not pace: it has no limit), so that commands
   * write pacing state in the data folder.
   */
  function pacedConfig(): string {
    const dir = tempDir('kactl-config-');
    const config = JSON.parse(fs.readFileSync(path.join(sb.configDir, 'config.json'), 'utf8')) as { profiles: Record<string, Record<string, unknown>> };
    config.profiles.sandbox!.sellerRate = 120;
    fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config), { mode: 0o600 });
    fs.mkdirSync(path.join(dir, 'data'), { mode: 0o700 });
    return dir;
  }

  /** The paced config folder, with its data folder inside, made read-only. */
  function readOnlyConfig(): string {
    const dir = pacedConfig();
    makeReadOnly(dir);
    return dir;
  }

  it('a command that saves a profile names the config folder and KACTL_CONFIG_DIR, exit 1', async () => {
    const dir = readOnlyConfig();
    const result = await sb.kactl(['profile', 'use', 'sandbox'], { env: { KACTL_CONFIG_DIR: dir, HOME: dir } });
    expect(result.code).toBe(1);
    expectOneSentence(result.stderr);
    expect(result.stderr).toContain(`error: Can't write kactl's config folder ${dir} (read-only file system (EROFS), at ${path.join(dir, '.config.lock')}); set KACTL_CONFIG_DIR to a folder you can write.`);
  });

  it('read-only commands keep working: pacing is kept in memory, with one warning', async () => {
    const dir = readOnlyConfig();
    const result = await sb.kactl(['licenses', 'list', '--json'], { env: { KACTL_CONFIG_DIR: dir, HOME: dir } });
    expect(result.code, result.stderr).toBe(0);
    expect(Array.isArray(JSON.parse(result.stdout))).toBe(true);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^warning: The seller API budget is counted in memory for this run only \(.*pacing: read-only file system \(EROFS\)\); set KACTL_DATA_DIR to a folder you can write\.$/);
  });

  it('a full data folder: licenses list still works, doctor fails on the space and the write', async () => {
    const data = smallDisk(64 * 1024);
    fillDisk(data, 0);
    const config = pacedConfig();
    const env = { KACTL_CONFIG_DIR: config, HOME: config, KACTL_DATA_DIR: data };
    const listed = await sb.kactl(['licenses', 'list', '--json'], { env });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stderr).toContain('no space left on the device (ENOSPC)');
    expect(listed.stderr).toContain('set KACTL_DATA_DIR');
    const doctor = await sb.kactl(['doctor', '--json'], { env });
    expect(doctor.code).toBe(1);
    const checks = JSON.parse(doctor.stdout) as { check: string; status: string; detail: string }[];
    expect(checks.find((c) => c.check === 'free space')).toMatchObject({ status: 'fail' });
    expect(checks.find((c) => c.check === 'data folder')).toMatchObject({ status: 'fail' });
    expect(checks.find((c) => c.check === 'data folder')!.detail).toContain('ENOSPC');
  });

  it('doctor fails a read-only config folder it used to pass', async () => {
    const dir = readOnlyConfig();
    const doctor = await sb.kactl(['doctor', '--json'], { env: { KACTL_CONFIG_DIR: dir, HOME: dir } });
    expect(doctor.code).toBe(1);
    const checks = JSON.parse(doctor.stdout) as { check: string; status: string; detail: string }[];
    expect(checks.find((c) => c.check === 'config folder')).toEqual({
      check: 'config folder',
      status: 'fail',
      detail: `${dir} cannot be written: read-only file system (EROFS); set KACTL_CONFIG_DIR to a folder you can write`,
    });
    expect(checks.find((c) => c.check === 'data folder')!.detail).toContain('set KACTL_DATA_DIR');
    // Nothing was left behind by the probes elsewhere.
    expect(fs.readdirSync(sb.configDir).filter((name) => name.startsWith('.kactl-doctor'))).toEqual([]);
  });
});

describe('a bulk licenses create whose call is cut short', () => {
  it('a network failure after the server made the keys: they are read back, printed and counted', async () => {
    const before = await serverKeys();
    const proxy = await lossyProxy(sb.info.baseUrl, 'add', 2, 'drop');
    try {
      const result = await sb.kactl(['licenses', 'create', '--amount', '300', '--expiry', '1', '--base-url', proxy.baseUrl], { timeoutMs: 60_000 });
      const made = await madeSince(before);
      expect(made.size).toBe(200);
      expect(result.code).toBe(1);
      expectOneSentence(result.stderr);
      expect(new Set(keysIn(result.stdout))).toEqual(made);
      expect(result.stderr).toContain('Created 200 of 300 licenses; 100 are missing.');
      expect(result.stderr).toContain('Run again with --amount 100 to make the rest.');
      expect(proxy.calls()).toBe(2);
    } finally {
      await proxy.close();
    }
  });

  it('Ctrl-C while a call is in flight: the call finishes, its keys are printed, exit 130', async () => {
    const before = await serverKeys();
    const proxy = await lossyProxy(sb.info.baseUrl, 'add', 2, 'hold');
    try {
      const child = spawn(process.execPath, [KACTL_BIN, 'licenses', 'create', '--amount', '300', '--expiry', '1', '--base-url', proxy.baseUrl], {
        env: cleanEnv(sb.configDir),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      // The server has made the second call's keys; its answer is on its way when Ctrl-C comes.
      await proxy.served;
      child.kill('SIGINT');
      // The answer goes out once kactl has taken the Ctrl-C in (or after 5 s, if it never says so).
      for (let waited = 0; waited < 5000 && !stderr.includes('Stopping after the call in flight'); waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      proxy.release();
      expect(await exited).toBe(130);
      const made = await madeSince(before);
      expect(made.size).toBe(200);
      expect(new Set(keysIn(stdout))).toEqual(made);
      expect(stderr).toContain('Stopping after the call in flight, so the keys it makes are not lost; Ctrl-C again stops at once.');
      expect(stderr).toContain('Interrupted after 200 of 300 licenses.');
      expect(stderr).toContain('Run again with --amount 100 to make the rest.');
      expect(stderr).not.toMatch(/\n\s+at /);
      expect(proxy.calls()).toBe(2);
    } finally {
      await proxy.close();
    }
  });
});

describe('a better-sqlite3 built for another Node (NODE_MODULE_VERSION mismatch)', () => {
  // Preloaded: the module's binary then fails to load with the error and text Node gives for one
  // built for another Node (test/fixtures/foreign-sqlite.mjs).
  const foreign = { NODE_OPTIONS: `--import ${fileURLToPath(new URL('../fixtures/foreign-sqlite.mjs', import.meta.url))}` };

  it('sandbox start says so in one sentence with the rebuild command, exit 1', async () => {
    const result = await sb.kactl(['sandbox', 'start', '--port', '0', '--data', ':memory:', '--no-profile'], { env: foreign });
    expect(result.code).toBe(1);
    expectOneSentence(result.stderr);
    expect(result.stderr).toMatch(
      new RegExp(`^error: The sandbox's database module \\(better-sqlite3\\) does not work in Node ${process.versions.node}: it was built for another Node \\(NODE_MODULE_VERSION \\d+; Node ${process.versions.node} needs ${process.versions.modules}\\); rebuild it with: cd '.+' && npm rebuild better-sqlite3$`, 'm'),
    );
  });

  it('doctor fails it, with the same command', async () => {
    const result = await sb.kactl(['doctor', '--json'], { env: foreign });
    expect(result.code).toBe(1);
    const checks = JSON.parse(result.stdout) as { check: string; status: string; detail: string }[];
    const module = checks.find((c) => c.check === 'sandbox module');
    expect(module?.status).toBe('fail');
    expect(module?.detail).toContain('npm rebuild better-sqlite3');
    // Without the mismatch, the same check passes.
    const fine = JSON.parse((await sb.kactl(['doctor', '--json'])).stdout) as { check: string; status: string }[];
    expect(fine.find((c) => c.check === 'sandbox module')?.status).toBe('pass');
  });
});
