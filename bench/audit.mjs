// `kactl sandbox audit` on the sound example (issue 30): the whole audit (every scenario of API
// 1.3) of `node examples/audit/sound.mjs`, against a baseline measured in the same run: the
// example run bare, as many times, one after another (node's start, kactl/client's load and two
// requests; what the audit cannot spend less than). The difference is the audit's own cost: the
// sandbox, a snapshot restore and the arming of each scenario, the request log read after each.
// Target: the whole audit under 15 s on the machine it runs on (issue 30). Rounds are
// interleaved; medians are printed. Asserts nothing.
//   node bench/audit.mjs [--node PATH] [--runs N] [--quick]   (after `npm run build`)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchOptions, median } from './lib/options.mjs';
import { KACTL, ROOT } from './lib/sandbox-process.mjs';

const options = benchOptions();
const runs = options.runs ?? (options.quick ? 1 : 3);
const TARGET_MS = 15_000;
const EXAMPLE = ['examples/audit/sound.mjs'];

function environment() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kactl-bench-audit-'));
  return { dir, env: { PATH: process.env.PATH, HOME: dir, KACTL_CONFIG_DIR: dir, NO_COLOR: '1' } };
}

/** One whole audit: its wall time and the report's own figures. */
function wholeAudit() {
  const { dir, env } = environment();
  const started = performance.now();
  const result = spawnSync(options.node, [KACTL, 'sandbox', 'audit', '-o', 'json', '--', options.node, ...EXAMPLE], { cwd: ROOT, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - started;
  fs.rmSync(dir, { recursive: true, force: true });
  if (result.status !== 0) throw new Error(`the audit of the sound example did not pass (exit ${result.status}):\n${result.stdout.slice(0, 2000)}\n${result.stderr.slice(0, 2000)}`);
  const report = JSON.parse(result.stdout);
  const ran = report.scenarios.filter((scenario) => scenario.outcome !== null);
  return { ms, scenarios: report.scenarios.length, programMs: ran.reduce((sum, scenario) => sum + scenario.durationMs, 0) };
}

/** The example run bare `times` times in a row against nothing (every run refused at once, as in `unreachable`). */
function bareRuns(times) {
  const { dir, env } = environment();
  const started = performance.now();
  for (let i = 0; i < times; i += 1) {
    spawnSync(options.node, EXAMPLE, { cwd: ROOT, env: { ...env, KEYAUTH_URL: 'http://127.0.0.1:9/api/1.3/', KEYAUTH_PUBLIC_KEY: '0'.repeat(64) }, encoding: 'utf8' });
  }
  const ms = performance.now() - started;
  fs.rmSync(dir, { recursive: true, force: true });
  return ms;
}

const audits = [];
const bare = [];
const inPrograms = [];
let scenarios = 0;
for (let round = 0; round < runs; round += 1) {
  const audit = wholeAudit();
  scenarios = audit.scenarios;
  audits.push(audit.ms);
  inPrograms.push(audit.programMs);
  bare.push(bareRuns(audit.scenarios));
}

const total = median(audits);
const baseline = median(bare);
console.log(`kactl sandbox audit of the sound example (${options.nodeVersion}, ${scenarios} scenarios, median of ${runs})`);
console.log(`whole audit                   ${(total / 1000).toFixed(1).padStart(6)} s   target < ${TARGET_MS / 1000} s  ${total < TARGET_MS ? 'ok' : 'MISS'}`);
console.log(`  of which the program's runs ${(median(inPrograms) / 1000).toFixed(1).padStart(6)} s   (as the report times them)`);
console.log(`the example run bare ${scenarios} times ${(baseline / 1000).toFixed(1).padStart(6)} s   baseline: ×${(total / baseline).toFixed(2)}`);
console.log(`the audit's own cost, a scenario ${((total - baseline) / scenarios).toFixed(0).padStart(6)} ms`);
