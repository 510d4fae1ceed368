/**
 * `kactl sandbox exec -- COMMAND` with the real binary: the command's status is kactl's, nothing
 * outlives the run (the port is closed, the command's process gone, the config folder empty),
 * the command sees the sandbox in KACTL_* variables and `kactl client …` works in it with no
 * profile, --seed and --export-on-exit round-trip a state file, SIGINT and SIGTERM stop both, a
 * failed command gets the sandbox's last refusals (with their reasons) on stderr, --tls gives an
 * HTTPS URL and its authority, and wrong flags are one sentence and exit 2. The command runs in a
 * process group of its own: a kactl killed outright takes it along (its watchdog), the next run
 * sweeps what such a kactl left, and on a terminal each Ctrl-C reaches it once, a second one
 * ending its group. `--fault` starts a run with faults, and a failed command names those that fired.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { isAlive } from '../helpers/processes.js';
import { spawnInPty } from '../helpers/pty.js';
import { KACTL_BIN, cleanEnv, runKactl, type SpawnResult } from '../helpers/run-kactl.js';
import { tempDir } from '../helpers/temp-dir.js';

/** Each test spawns kactl inside kactl: room for a loaded two-core machine. */
const SLOW = 120_000;
const PASSWORD = 'pw-exec-alice-0001';

/** A folder with `kactl` in it (this build), to put first on the command's PATH. */
function kactlOnPath(): string {
  const bin = tempDir('kactl-exec-bin-');
  fs.writeFileSync(path.join(bin, 'kactl'), `#!/bin/sh\nexec "${process.execPath}" "${KACTL_BIN}" "$@"\n`, { mode: 0o755 });
  return bin;
}

interface Run {
  configDir: string;
  work: string;
  result: SpawnResult;
}

/** `kactl sandbox exec …` in a fresh config folder, from a work folder of its own, with `kactl` on PATH. */
async function exec(args: readonly string[]): Promise<Run> {
  const configDir = tempDir('kactl-exec-config-');
  const work = tempDir('kactl-exec-work-');
  const result = await runKactl(['sandbox', 'exec', ...args], {
    configDir,
    cwd: work,
    env: { PATH: `${kactlOnPath()}${path.delimiter}${process.env.PATH ?? ''}` },
    timeoutMs: 90_000,
  });
  return { configDir, work, result };
}

/** Every file under `dir`, relative. */
function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => !entry.isDirectory()).map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

async function portClosed(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(5000) });
    return false;
  } catch (error) {
    return ((error as Error).cause as NodeJS.ErrnoException | undefined)?.code === 'ECONNREFUSED';
  }
}

function writeSeed(dir: string): string {
  const file = path.join(dir, 'seed.yaml');
  fs.writeFileSync(
    file,
    [
      'subscriptions:',
      '  - { name: gold, level: 2 }',
      'users:',
      `  - { username: alice, password: ${PASSWORD}, subscription: gold, expiry: 30d }`,
      'licenses:',
      '  - { key: EXEC-SEED-AAAA-0001, level: 2, duration: 7d, note: seeded }',
      'variables:',
      '  motd: { value: hello from the seed }',
      '',
    ].join('\n'),
  );
  return file;
}

describe('kactl sandbox exec', () => {
  it(
    "exits with the command's code and leaves no process, port, file or profile behind",
    async () => {
      const { configDir, work, result } = await exec(['--', 'sh', '-c', 'echo $$ > pid; echo "$KACTL_BASE_URL" > url; exit 3']);
      expect(result.code, result.stderr).toBe(3);
      // The command made no request: nothing was refused, so nothing is said.
      expect(result.stderr).toBe('');
      const url = fs.readFileSync(path.join(work, 'url'), 'utf8').trim();
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await portClosed(`${url}/api/1.3/`)).toBe(true);
      expect(isAlive(Number(fs.readFileSync(path.join(work, 'pid'), 'utf8')))).toBe(false);
      expect(filesUnder(configDir)).toEqual([]);
    },
    SLOW,
  );

  it(
    'gives the command the sandbox in its environment; kactl client init and login, and sandbox logs, work there with no profile',
    async () => {
      const seed = writeSeed(tempDir('kactl-exec-seed-'));
      const script = `env | grep '^KACTL_' | sort > env.txt && echo "$KACTL_CONFIG_DIR" > config-dir && kactl client init && kactl client login --username alice --password ${PASSWORD} && kactl client global-var get motd > var.json && kactl sandbox logs --type login -o ndjson > logs.ndjson`;
      const { configDir, work, result } = await exec(['--seed', seed, '--', 'sh', '-c', script]);
      expect(result.code, result.stderr).toBe(0);
      // The session of that login lived in the run's own config folder, gone now; the caller's is untouched.
      expect(filesUnder(configDir)).toEqual([]);
      const runConfig = fs.readFileSync(path.join(work, 'config-dir'), 'utf8').trim();
      expect(runConfig).not.toBe(configDir);
      expect(fs.existsSync(runConfig)).toBe(false);
      const env = Object.fromEntries(
        fs
          .readFileSync(path.join(work, 'env.txt'), 'utf8')
          .trim()
          .split('\n')
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      );
      expect(Object.keys(env)).toEqual(
        expect.arrayContaining(['KACTL_CONFIG_DIR', 'KACTL_DATA_DIR', 'KACTL_BASE_URL', 'KACTL_APP_NAME', 'KACTL_OWNERID', 'KACTL_APP_VERSION', 'KACTL_APP_SECRET', 'KACTL_PUBLIC_KEY', 'KACTL_SELLER_KEY', 'KACTL_ADMIN_TOKEN']),
      );
      expect(env.KACTL_OWNERID).toMatch(/^[A-Za-z0-9]{10}$/);
      expect(env.KACTL_PUBLIC_KEY).toMatch(/^[0-9a-f]{64}$/);
      expect(env.KACTL_CA_FILE).toBeUndefined();
      expect(fs.readFileSync(path.join(work, 'var.json'), 'utf8')).toContain('hello from the seed');
      // The admin token comes from KACTL_ADMIN_TOKEN: the inspector is readable with no profile.
      const logged = fs.readFileSync(path.join(work, 'logs.ndjson'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; user: string; success: boolean });
      expect(logged).toEqual([expect.objectContaining({ type: 'login', user: 'alice', success: true })]);
      // A passing command: no refusals printed.
      expect(result.stderr).not.toContain('refused');
    },
    SLOW,
  );

  it(
    "prints the last refused requests with their reasons when the command fails, and no secret",
    async () => {
      const seed = writeSeed(tempDir('kactl-exec-seed-'));
      const { result } = await exec(['--seed', seed, '--', 'sh', '-c', 'kactl client init && kactl client login --username alice --password not-alices-password-1']);
      expect(result.code, result.stderr).toBe(1);
      const lines = result.stderr.split('\n');
      const header = lines.findIndex((line) => line.startsWith('The command failed (exit 1); the last request the sandbox refused:'));
      expect(header, result.stderr).toBeGreaterThan(-1);
      expect(lines[header + 1]).toMatch(/✗ 200 {2}1\.3 login +alice +wrong password for alice/);
      // Only what the command did: the seed's own seller calls are not among them.
      expect(result.stderr).not.toContain('seller');
      expect(result.stderr).not.toContain('not-alices-password-1');
    },
    SLOW,
  );

  it(
    '--seed and --export-on-exit round-trip a state file (YAML and JSON)',
    async () => {
      const dir = tempDir('kactl-exec-state-');
      const seed = writeSeed(dir);
      const first = path.join(dir, 'first.yaml');
      const second = path.join(dir, 'second.json');
      const one = await exec(['--seed', seed, '--export-on-exit', first, '--', 'true']);
      expect(one.result.code, one.result.stderr).toBe(0);
      expect(one.result.stderr).toContain(`Exported the sandbox's state to ${first}.`);
      const exported = parse(fs.readFileSync(first, 'utf8')) as Record<string, unknown>;
      expect(exported.licenses).toEqual([{ key: 'EXEC-SEED-AAAA-0001', level: 2, duration: '7d', note: 'seeded' }]);
      expect(exported.users).toEqual([{ username: 'alice', subscriptions: [{ name: 'gold', expiry: expect.stringMatching(/Z$/) }] }]);
      expect(exported.variables).toEqual({ motd: { value: 'hello from the seed', authed: false } });
      // The export seeds a sandbox that exports the same state again.
      const two = await exec(['--seed', first, '--export-on-exit', second, '--', 'true']);
      expect(two.result.code, two.result.stderr).toBe(0);
      expect(JSON.parse(fs.readFileSync(second, 'utf8'))).toEqual(exported);
      expect(filesUnder(one.configDir)).toEqual([]);
    },
    SLOW,
  );

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(
      `${signal} sent to kactl stops the command and the sandbox (exit ${code}), and the export is written`,
      async () => {
        const configDir = tempDir('kactl-exec-config-');
        const work = tempDir('kactl-exec-work-');
        const child = spawn(process.execPath, [KACTL_BIN, 'sandbox', 'exec', '--export-on-exit', 'after.yaml', '--', 'sh', '-c', 'echo "$KACTL_BASE_URL" > url.part; echo $$ > pid; mv url.part url; exec sleep 120'], {
          cwd: work,
          env: cleanEnv(configDir),
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        const exited = new Promise<number | null>((resolve) => child.once('exit', (status) => resolve(status)));
        try {
          for (let tries = 0; !fs.existsSync(path.join(work, 'url')); tries += 1) {
            if (tries > 600) throw new Error(`the command never started; kactl said: ${stderr}`);
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          child.kill(signal);
          expect(await exited, stderr).toBe(code);
          expect(isAlive(Number(fs.readFileSync(path.join(work, 'pid'), 'utf8')))).toBe(false);
          expect(await portClosed(`${fs.readFileSync(path.join(work, 'url'), 'utf8').trim()}/api/1.3/`)).toBe(true);
          expect(filesUnder(configDir)).toEqual([]);
          // The export is still written after the signal.
          expect(parse(fs.readFileSync(path.join(work, 'after.yaml'), 'utf8'))).toHaveProperty('licenses', []);
        } finally {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        }
      },
      SLOW,
    );
  }

  it(
    '--tls serves HTTPS, names the authority, and Node programs and kactl trust it',
    async () => {
      const probe = `fetch(process.env.KACTL_BASE_URL + "/api/1.3/?" + new URLSearchParams({ type: "init", name: process.env.KACTL_APP_NAME, ownerid: process.env.KACTL_OWNERID, ver: process.env.KACTL_APP_VERSION })).then((r) => r.json()).then((b) => process.exit(b.success ? 0 : 9))`;
      const script = `echo "$KACTL_BASE_URL $KACTL_CA_FILE $NODE_EXTRA_CA_CERTS" > seen && "${process.execPath}" -e '${probe}' && kactl client init`;
      const { work, result } = await exec(['--tls', '--', 'sh', '-c', script]);
      expect(result.code, result.stderr).toBe(0);
      const [url, caFile, nodeCa] = fs.readFileSync(path.join(work, 'seen'), 'utf8').trim().split(' ');
      expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(nodeCa).toBe(caFile);
      expect(fs.readFileSync(caFile!, 'utf8')).toContain('BEGIN CERTIFICATE');
    },
    SLOW,
  );

  it(
    '--data serves a store file, registered while it runs (a second sandbox on it is refused), and keeps it',
    async () => {
      const store = path.join(tempDir('kactl-exec-store-'), 'exec.db');
      const script = `kactl sandbox status --json > status.json; kactl sandbox exec --data '${store}' -- true 2> second.txt; echo $? > second-status; kactl licenses create --amount 1 --expiry 30 > key.txt`;
      const { work, configDir, result } = await exec(['--data', store, '--', 'sh', '-c', script]);
      expect(result.code, result.stderr).toBe(0);
      const status = JSON.parse(fs.readFileSync(path.join(work, 'status.json'), 'utf8')) as { data: string; state: string }[];
      expect(status).toEqual([expect.objectContaining({ data: store, state: 'ready' })]);
      expect(fs.readFileSync(path.join(work, 'second-status'), 'utf8').trim()).toBe('2');
      expect(fs.readFileSync(path.join(work, 'second.txt'), 'utf8')).toContain(`error: The store ${store} is already served by the sandbox at`);
      // Unregistered at the end (the command's own seller calls may leave their pacing record); the store keeps what the command made.
      expect(filesUnder(configDir).filter((file) => file.includes('sandboxes'))).toEqual([]);
      const key = fs.readFileSync(path.join(work, 'key.txt'), 'utf8').trim();
      const again = await exec(['--data', store, '--', 'sh', '-c', 'kactl licenses list --json > keys.json']);
      expect(again.result.code, again.result.stderr).toBe(0);
      expect(fs.readFileSync(path.join(again.work, 'keys.json'), 'utf8')).toContain(key);
    },
    SLOW,
  );

  it(
    'refuses wrong flags, an unknown command and a sandbox that cannot start with one sentence',
    async () => {
      const none = await exec([]);
      expect(none.result.code).toBe(2);
      expect(none.result.stderr).toContain("error: Missing required argument 'command'.");
      const rate = await exec(['--rate', 'bad', '--', 'true']);
      expect(rate.result.code).toBe(2);
      expect(rate.result.stderr).toContain("error: Unknown option '--rate'.");
      const status = await exec(['--failure-status', '500', '--', 'true']);
      expect(status.result.code).toBe(2);
      expect(status.result.stderr).toContain('error:');
      const missing = await exec(['--', 'kactl-exec-no-such-command']);
      expect(missing.result.code).toBe(127);
      expect(missing.result.stderr.trim()).toBe('error: kactl-exec-no-such-command: command not found (not a file, and not on PATH).');
      expect(filesUnder(missing.configDir)).toEqual([]);
      // A sandbox that cannot start: exit 4, one sentence, and the command is never run.
      const notAStore = path.join(tempDir('kactl-exec-store-'), 'text.db');
      fs.writeFileSync(notAStore, 'this is a text file, not an SQLite database; it is long enough to hold a header\n'.repeat(4));
      const broken = await exec(['--data', notAStore, '--', 'sh', '-c', 'touch ran']);
      expect(broken.result.code).toBe(4);
      expect(broken.result.stderr.trim()).toBe('error: The sandbox could not start: file is not a database.');
      expect(fs.existsSync(path.join(broken.work, 'ran'))).toBe(false);
    },
    SLOW,
  );
});

/** Polls `check` every 100 ms until it holds; false after `ms`. */
async function eventually(check: () => boolean, ms = 30_000): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; ) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return check();
}

/** Waits for a file the command writes (it writes `name.part`, then renames it). */
async function fileFrom(dir: string, name: string, said: () => string): Promise<string> {
  const file = path.join(dir, name);
  if (!(await eventually(() => fs.existsSync(file), 60_000))) throw new Error(`the command never wrote ${name}; kactl said: ${said()}`);
  return fs.readFileSync(file, 'utf8').trim();
}

describe('kactl sandbox exec: what outlives kactl', () => {
  it(
    "kactl killed outright (SIGKILL): its watchdog ends the command's whole group and removes the run's folder",
    async () => {
      const configDir = tempDir('kactl-exec-config-');
      const work = tempDir('kactl-exec-work-');
      const tmp = tempDir('kactl-exec-tmp-');
      const script = 'sleep 300 & echo $! > bg; echo "$KACTL_CONFIG_DIR" > dir; echo $$ > pid.part; mv pid.part pid; wait';
      const kactl = spawn(process.execPath, [KACTL_BIN, 'sandbox', 'exec', '--', 'sh', '-c', script], { cwd: work, env: cleanEnv(configDir, { TMPDIR: tmp }), stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      kactl.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const pids: number[] = [];
      try {
        pids.push(Number(await fileFrom(work, 'pid', () => stderr)), Number(fs.readFileSync(path.join(work, 'bg'), 'utf8')));
        const folder = fs.readFileSync(path.join(work, 'dir'), 'utf8').trim();
        expect(path.dirname(folder)).toBe(tmp);
        expect(pids.every(isAlive)).toBe(true);
        kactl.kill('SIGKILL');
        expect(await eventually(() => !pids.some(isAlive)), 'the command (or its background child) outlived kactl').toBe(true);
        expect(await eventually(() => !fs.existsSync(folder)), "the run's folder outlived kactl").toBe(true);
        // Named after its kactl, so a later run can tell whether that kactl still runs.
        expect(path.basename(folder)).toMatch(new RegExp(`^kactl-exec-${kactl.pid}-`));
      } finally {
        kactl.kill('SIGKILL');
        for (const pid of pids.filter(isAlive)) process.kill(pid, 'SIGKILL');
      }
    },
    SLOW,
  );

  it(
    'the next run removes the folders of runs whose kactl has gone, and no other',
    async () => {
      const tmp = tempDir('kactl-exec-tmp-');
      const { pid: gone } = spawnSync('true');
      const stale = [path.join(tmp, `kactl-exec-${gone}-AbC123`), path.join(tmp, `kactl-exec-${process.pid}-XyZ789`)];
      const kept = [path.join(tmp, 'kactl-exec-bin-AbC123'), path.join(tmp, 'kactl-exec-Q1w2E3')];
      for (const folder of [...stale, ...kept]) {
        fs.mkdirSync(folder);
        fs.writeFileSync(path.join(folder, 'config.json'), '{"profiles":{"default":{"session":{"id":"left-behind"}}}}');
      }
      // A link named like a run folder is not ours to follow or remove.
      fs.symlinkSync(kept[0]!, path.join(tmp, `kactl-exec-${gone}-LiNk00`));
      const configDir = tempDir('kactl-exec-config-');
      const result = await runKactl(['sandbox', 'exec', '--', 'true'], { configDir, env: { TMPDIR: tmp }, timeoutMs: 90_000 });
      expect(result.code, result.stderr).toBe(0);
      for (const folder of stale) expect(fs.existsSync(folder), folder).toBe(false);
      for (const folder of kept) expect(fs.existsSync(path.join(folder, 'config.json')), folder).toBe(true);
      expect(fs.lstatSync(path.join(tmp, `kactl-exec-${gone}-LiNk00`)).isSymbolicLink()).toBe(true);
    },
    SLOW,
  );
});

describe('kactl sandbox exec: faults', () => {
  it(
    '--fault starts the run with a fault; a failed command names every fault that fired, by id, cleared ones too',
    async () => {
      const seed = writeSeed(tempDir('kactl-exec-seed-'));
      const script = `kactl sandbox fault add --type init html > /dev/null && ! kactl client init 2> /dev/null && kactl sandbox fault clear 2 > /dev/null && kactl client init && kactl client login --username alice --password ${PASSWORD}`;
      const { result } = await exec(['--seed', seed, '--fault', 'forge-signature:login', '--', 'sh', '-c', script]);
      expect(result.code, result.stderr).toBe(5);
      const lines = result.stderr.split('\n');
      const header = lines.indexOf("The command failed (exit 5) while 2 faults changed the sandbox's answers on purpose:");
      expect(header, result.stderr).toBeGreaterThan(-1);
      expect(lines[header + 1]).toBe('  fault #1 forge-signature on type=login: fired 1 time');
      expect(lines[header + 2]).toMatch(/^ {2}fault #2 html( 502)? \(cleared during the command\): fired 1 time or more$/);
      expect(result.stderr).not.toContain(PASSWORD);
    },
    SLOW,
  );

  it(
    "kactl inside does not retry (KACTL_RETRIES=0): a rate-limit fault is answered at once, not waited out",
    async () => {
      const { result } = await exec(['--fault', 'rate-limit:init', '--', 'sh', '-c', 'echo "retries=$KACTL_RETRIES" && kactl client init']);
      expect(result.code, result.stderr).toBe(6);
      expect(result.stdout).toContain('retries=0');
      expect(result.stderr).toContain('error: Rate limited, and no retries are allowed.');
      expect(result.stderr).not.toContain('trying again');
      expect(result.stderr).toContain('  fault #1 rate-limit on type=init: fired 1 time');
    },
    SLOW,
  );

  it(
    'refuses a --fault the sandbox would refuse, before anything starts (exit 2)',
    async () => {
      for (const [flag, said] of [
        ['bogus', 'Unknown fault kind "bogus"'],
        ['status', 'needs a CODE'],
        ['forge-signature:', 'names no type after the colon'],
        ['delay=1y', 'takes a duration'],
        // A misspelt type would hold a fault that never fires: checked against the catalogs too.
        ['forge-signature:logn', '--type "logn" is no client API type (did you mean login'],
      ] as const) {
        const { result, work } = await exec(['--fault', flag, '--', 'sh', '-c', 'touch ran']);
        expect(result.code, result.stderr).toBe(2);
        expect(result.stderr).toContain(said);
        expect(fs.existsSync(path.join(work, 'ran'))).toBe(false);
      }
    },
    SLOW,
  );
});

describe('kactl sandbox exec on a terminal', () => {
  it(
    "Ctrl-C reaches the command once; a second one ends the command's group, even one that ignores SIGINT, and kactl exits 130",
    async () => {
      const configDir = tempDir('kactl-exec-config-');
      const work = tempDir('kactl-exec-work-');
      // Counts each SIGINT it gets and otherwise ignores it.
      fs.writeFileSync(
        path.join(work, 'count-ints.cjs'),
        "const fs = require('fs');\nprocess.on('SIGINT', () => fs.appendFileSync('ints', 'INT\\n'));\nfs.writeFileSync('pid.part', String(process.pid));\nfs.renameSync('pid.part', 'pid');\nsetInterval(() => {}, 1000);\n",
      );
      // An interactive shell holds the terminal, as at a real prompt: kactl runs as its foreground
      // job, and what it leaves behind when it exits is not ended by a hang-up of the terminal.
      const terminal = spawnInPty('bash', ['--norc', '--noprofile', '-i'], { configDir, cwd: work });
      let pid = 0;
      const ints = (): number => (fs.existsSync(path.join(work, 'ints')) ? fs.readFileSync(path.join(work, 'ints'), 'utf8').split('\n').filter(Boolean).length : 0);
      try {
        terminal.type(`"${process.execPath}" "${KACTL_BIN}" sandbox exec -- "${process.execPath}" count-ints.cjs; echo "kactl-exited=$?"\r`);
        pid = Number(await fileFrom(work, 'pid', () => terminal.screen()));
        terminal.type('\x03');
        expect(await eventually(() => ints() > 0, 15_000), terminal.screen()).toBe(true);
        // Room for a second delivery (the terminal's and kactl's) to arrive, were there one.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        expect(ints(), 'the command got the one Ctrl-C more than once').toBe(1);
        expect(isAlive(pid)).toBe(true);
        terminal.type('\x03');
        await terminal.waitFor('kactl-exited=130', 15_000);
        expect(await eventually(() => !isAlive(pid), 10_000), 'the command outlived the second Ctrl-C').toBe(true);
      } finally {
        terminal.kill();
        if (pid > 0 && isAlive(pid)) process.kill(pid, 'SIGKILL');
      }
    },
    SLOW,
  );
});
