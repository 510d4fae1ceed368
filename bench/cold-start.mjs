// Cold start of the CLI, measured against a bare `node` started the same way in the same run.
// Prints medians and ratios; asserts nothing (timings vary by machine and load).
//   node bench/cold-start.mjs [runs]
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

const runs = Number(process.argv[2] ?? 15);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'kactl.js');
const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kactl-bench-'));
const env = { PATH: process.env.PATH, HOME: configDir, KACTL_CONFIG_DIR: configDir, NO_COLOR: '1' };

const cases = [
  ['node -e "" (baseline)', ['-e', '']],
  ['kactl --version', [bin, '--version']],
  ['kactl --help', [bin, '--help']],
  ['kactl licenses --help', [bin, 'licenses', '--help']],
  ['kactl profile list (loads conf)', [bin, 'profile', 'list']],
];

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const results = [];
for (const [label, args] of cases) {
  spawnSync(process.execPath, args, { env }); // warm the file cache
  const times = [];
  for (let i = 0; i < runs; i += 1) {
    const start = process.hrtime.bigint();
    spawnSync(process.execPath, args, { env, stdio: 'ignore' });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  results.push([label, median(times), Math.min(...times)]);
}
fs.rmSync(configDir, { recursive: true, force: true });

const baseline = results[0][1];
console.log(`cold start, ${runs} runs each, node ${process.version}, ${os.cpus().length} cores`);
for (const [label, med, min] of results) {
  console.log(`${label.padEnd(34)} median ${med.toFixed(1).padStart(6)} ms  min ${min.toFixed(1).padStart(6)} ms  ×${(med / baseline).toFixed(2)} baseline`);
}
