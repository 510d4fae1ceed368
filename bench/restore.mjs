// Restore at bulk speed (issue 20): two figures, each against a baseline measured in the same run.
//  1. Against a sandbox without a rate limit (nothing to pace for): `kactl restore` of a backup
//     of 1,000 deleted keys, against `kactl licenses create --amount 1000` (the same keys' worth
//     of work made in calls of 100). Rounds are interleaved; medians are printed. Target ≤ ×2.
//  2. Against a sandbox with its rate limit (the profile paced at 120 calls a minute): the time
//     `kactl restore` said it would take before it started, against the time it took. Target:
//     within 20 %. One round (it waits out the seller budget, about a minute).
//   node bench/restore.mjs [--node PATH] [--runs N] [--quick]   (KACTL_BENCH_NODE=PATH)
// --quick: 2 rounds and a shorter paced restore. Asserts nothing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchOptions, median, printRows } from './lib/options.mjs';
import { KACTL, startSandboxProcess } from './lib/sandbox-process.mjs';

const options = benchOptions();
const runs = options.runs ?? (options.quick ? 2 : 3);
const KEYS = 1000;
const PACED_KEYS = options.quick ? 130 : 150;

function folder() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kactl-bench-restore-'));
  return { dir, env: { PATH: process.env.PATH, HOME: dir, KACTL_CONFIG_DIR: dir, KACTL_DATA_DIR: path.join(dir, 'data'), NO_COLOR: '1' } };
}

/** Runs kactl to the end; returns wall-clock ms and what it printed (exit 0 required). */
function kactl(env, args) {
  const started = performance.now();
  const result = spawnSync(options.node, [KACTL, ...args], { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`kactl ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return { ms, stdout: result.stdout, stderr: result.stderr };
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
  create.push(kactl(fast.env, ['licenses', 'create', '--amount', String(KEYS), '--expiry', '30', '--note', `round ${round}`, '--out', path.join(fast.dir, `keys-${round}.txt`)]).ms);
  const backup = deleteAll(fast.env);
  restore.push(kactl(fast.env, ['restore', backup, '--yes']).ms);
  const back = JSON.parse(kactl(fast.env, ['licenses', 'list', '--json']).stdout);
  if (back.length !== KEYS) throw new Error(`restore put back ${back.length} of ${KEYS} keys`);
  deleteAll(fast.env);
}
await unpaced.stop();

// --- 2. paced: the estimate printed before the restore against the time it took
const slow = folder();
const paced = await startSandboxProcess(options.node, slow.env, [], { rateLimit: true });
kactl(slow.env, ['licenses', 'create', '--amount', String(PACED_KEYS), '--expiry', '30']);
const backup = deleteAll(slow.env);
const run = kactl(slow.env, ['restore', backup, '--yes']);
const said = /(\d+) calls? at (\d+) a minute: (about [^.]+|under a second)\./.exec(run.stderr);
await paced.stop();
if (said === null) throw new Error(`the paced restore printed no estimate: ${run.stderr}`);
const estimateMs = spokenMs(said[3]);

console.log(`restore bench (node ${options.nodeVersion}, ${runs} rounds, medians)`);
const misses = printRows(
  [
    { label: `restore ${KEYS} deleted keys, unpaced`, value: median(restore), baseline: median(create), baselineLabel: `licenses create --amount ${KEYS}`, ratio: median(restore) / median(create), target: 2 },
  ],
  { unit: 'ms', digits: 0 },
);
const ratio = run.ms / estimateMs;
const within = Math.abs(ratio - 1) <= 0.2;
console.log(
  `restore ${PACED_KEYS} keys at ${said[2]} a minute (${said[1]} calls)  took ${(run.ms / 1000).toFixed(1)} s  estimate ${(estimateMs / 1000).toFixed(1)} s (${said[3]})  ×${ratio.toFixed(2)}  target within 20 %  ${within ? 'ok' : 'MISS'}`,
);
process.exitCode = misses > 0 || !within ? 1 : 0;
