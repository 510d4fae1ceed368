// `npm run bench`: every benchmark, with the same options (--node PATH, --runs N, --quick;
// KACTL_BENCH_NODE=PATH works too). The node that runs them only starts processes: the measured
// ones (CLI, baselines, sandbox) run on the chosen node.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
let status = 0;
for (const script of ['cold-start.mjs', 'sandbox-throughput.mjs', 'panel-visits.mjs', 'restore.mjs']) {
  const result = spawnSync(process.execPath, [path.join(here, script), ...process.argv.slice(2)], { stdio: 'inherit' });
  if (result.status !== 0) status = 1;
  console.log('');
}
process.exit(status);
