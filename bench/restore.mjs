// Restore at bulk speed (issue 20): two figures, each against a baseline measured in the same run.
//  1. Against a sandbox without a rate limit (nothing to pace for): `kactl restore` of a backup
//     of 1,000 deleted keys, against `kactl licenses create --amount 1000` (the same keys' worth
//     of work made in calls of 100). The sandbox takes several given keys in one `add` and says so
//     in getsettings, so restore makes them a hundred a call too. Rounds are interleaved; medians
//     are printed. Target ≤ ×2 in wall-clock time. Printed beside it, for a loaded machine: the
//     CPU time (user + system) of the kactl process and of the sandbox during each command, which
//     the machine's load hardly moves.
//  2. Against a sandbox with its rate limit (the profile paced at 120 calls a minute): the time
//     `kactl restore` said it would take before it started, against the time it took. Each key
//     of that backup is given a note of its own, so none go together: one paced call a key, the
//     way restore runs against a server that takes one key a call. Target: within 20 %. One
//     round (it waits out the seller budget, about a minute).
//   node bench/restore.mjs [--node PATH] [--runs N] [--quick]   (KACTL_BENCH_NODE=PATH)
// --quick: 2 rounds and a shorter paced restore. Asserts nothing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchOptions, median, printRows } from './lib/options.mjs';
import { KACTL, ROOT, startSandboxProcess } from './lib/sandbox-process.mjs';

const options = benchOptions();
const runs = options.runs ?? (options.quick ? 2 : 3);
const KEYS = 1000;
const PACED_KEYS = options.quick ? 130 : 150;
const CPU_PRELOAD = pathToFileURL(path.join(ROOT, 'bench', 'lib', 'cpu-usage.mjs')).href;

function folder() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kactl-bench-restore-'));
  return { dir, env: { PATH: process.env.PATH, HOME: dir, KACTL_CONFIG_DIR: dir, KACTL_DATA_DIR: path.join(dir, 'data'), NO_COLOR: '1' } };
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

/** CPU ms (user + system, all threads) a running process has used so far; undefined off Linux. */
function processCpuMs(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, in clock ticks.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/**
 * Runs kactl to the end (exit 0 required); returns wall-clock ms, kactl's own CPU ms, the
 * sandbox's CPU ms during the command (when `server` is given and /proc has it), and the output.
 */
function kactl(env, args, server) {
  const cpuFile = path.join(env.HOME, 'cpu.json');
  fs.rmSync(cpuFile, { force: true });
  const serverBefore = server === undefined ? undefined : processCpuMs(server.pid);
  const started = performance.now();
  const result = spawnSync(options.node, ['--import', CPU_PRELOAD, KACTL, ...args], { env: { ...env, KACTL_BENCH_CPU_FILE: cpuFile }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - started;
  const serverAfter = server === undefined ? undefined : processCpuMs(server.pid);
  if (result.status !== 0) throw new Error(`kactl ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  const cpu = JSON.parse(fs.readFileSync(cpuFile, 'utf8'));
  return {
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    serverCpuMs: serverBefore === undefined || serverAfter === undefined ? undefined : serverAfter - serverBefore,
    stdout: result.stdout,
    stderr: result.stderr,
  };
}

/** The backup the last delete wrote, from its "Backup of … written to FILE" line. */
function deleteAll(env) {
  const { stderr } = kactl(env, ['licenses', 'delete', '--all', '--yes']);
  const file = /written to (\S+)/.exec(stderr)?.[1];
  if (file === undefined) throw new Error(`no backup line in: ${stderr}`);
  return file;
}

/** `about 1m 2s` → 62 000 ms (the words estimateLine prints). */
function spokenMs(text) {
  if (/under a second/.test(text)) return 500;
  const units = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 };
  return [...text.matchAll(/(\d+)([dhms])/g)].reduce((sum, [, n, unit]) => sum + Number(n) * units[unit], 0);
}

// --- 1. unpaced: restore 1,000 deleted keys vs create 1,000 keys
const fast = folder();
const unpaced = await startSandboxProcess(options.node, fast.env);
const create = [];
const restore = [];
for (let round = 0; round < runs; round += 1) {
  create.push(kactl(fast.env, ['licenses', 'create', '--amount', String(KEYS), '--expiry', '30', '--note', `round ${round}`, '--out', path.join(fast.dir, `keys-${round}.txt`)], unpaced));
  const backup = deleteAll(fast.env);
  restore.push(kactl(fast.env, ['restore', backup, '--yes'], unpaced));
  const back = JSON.parse(kactl(fast.env, ['licenses', 'list', '--json']).stdout);
  if (back.length !== KEYS) throw new Error(`restore put back ${back.length} of ${KEYS} keys`);
  deleteAll(fast.env);
}
// Once more, not timed: the calls restore makes, from --verbose (one `→ GET …type=add…` line a call).
kactl(fast.env, ['licenses', 'create', '--amount', String(KEYS), '--expiry', '30']);
const counted = kactl(fast.env, ['--verbose', 'restore', deleteAll(fast.env), '--yes']);
const restoreCalls = counted.stderr.split('\n').filter((line) => /^→ .*[?&]type=add(&|$)/.test(line)).length;
await unpaced.stop();

// --- 2. paced: the estimate printed before the restore against the time it took
const slow = folder();
const paced = await startSandboxProcess(options.node, slow.env, [], { rateLimit: true });
kactl(slow.env, ['licenses', 'create', '--amount', String(PACED_KEYS), '--expiry', '30']);
const backup = deleteAll(slow.env);
// One note a key: no two keys go in one call, so each is a paced call of its own.
const saved = JSON.parse(fs.readFileSync(backup, 'utf8'));
saved.records = saved.records.map((key, i) => ({ ...key, note: `key ${i}` }));
fs.writeFileSync(backup, JSON.stringify(saved));
const run = kactl(slow.env, ['restore', backup, '--yes']);
const said = /(\d+) calls? at (\d+) a minute: (about [^.]+|under a second)\./.exec(run.stderr);
await paced.stop();
if (said === null) throw new Error(`the paced restore printed no estimate: ${run.stderr}`);
const estimateMs = spokenMs(said[3]);

const ms = (list, field) => median(list.map((r) => r[field]));
console.log(`restore bench (node ${options.nodeVersion}, ${runs} rounds, medians; load average ${os.loadavg().map((n) => n.toFixed(1)).join(' ')})`);
const rows = [
  { label: `restore ${KEYS} deleted keys, unpaced (${restoreCalls} add calls)`, value: ms(restore, 'ms'), baseline: ms(create, 'ms'), baselineLabel: `licenses create --amount ${KEYS}`, ratio: ms(restore, 'ms') / ms(create, 'ms'), target: 2 },
  { label: '  CPU of the kactl process', value: ms(restore, 'cpuMs'), baseline: ms(create, 'cpuMs'), baselineLabel: 'the same for create', ratio: ms(restore, 'cpuMs') / ms(create, 'cpuMs') },
];
if (restore.every((r) => r.serverCpuMs !== undefined) && create.every((r) => r.serverCpuMs !== undefined)) {
  rows.push({ label: '  CPU of the sandbox meanwhile', value: ms(restore, 'serverCpuMs'), baseline: ms(create, 'serverCpuMs'), baselineLabel: 'the same for create', ratio: ms(restore, 'serverCpuMs') / Math.max(1, ms(create, 'serverCpuMs')) });
}
const misses = printRows(rows, { unit: 'ms', digits: 0 });
const ratio = run.ms / estimateMs;
const within = Math.abs(ratio - 1) <= 0.2;
console.log(
  `restore ${PACED_KEYS} keys at ${said[2]} a minute (${said[1]} calls, one a key)  took ${(run.ms / 1000).toFixed(1)} s  estimate ${(estimateMs / 1000).toFixed(1)} s (${said[3]})  ×${ratio.toFixed(2)}  target within 20 %  ${within ? 'ok' : 'MISS'}`,
);
process.exitCode = misses > 0 || !within ? 1 : 0;
