// Cold start of the CLI against baselines started the same way in the same run, interleaved:
// every round runs each case once, medians over rounds are printed. Asserts nothing.
//   node bench/cold-start.mjs [--node PATH] [--runs N]     (KACTL_BENCH_NODE=PATH works too)
// Targets: --version ≤ ×1.3 and help ≤ ×1.6 of `node -e 0`; a networked command ≤ ×1.5 (×1.8 on
// Node 20) of the yardstick: a bare node:http script making the same single request and printing
// the body, as CommonJS (bench/lib/bare-request.cjs), as kactl's own entry and bundle are. The
// same script as an ES module starts ~20 ms later on Node 22 and later, which would flatter every
// ratio: the ratio to it is printed too, for information.
// The measured processes (CLI and baselines) run on the chosen node; the sandbox they talk to runs
// on a node that loads this checkout's better-sqlite3 (the running one, else the chosen one), so
// any Node line can be measured without a rebuild.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchOptions, median, printRows } from './lib/options.mjs';
import { sqliteLoads } from './lib/nodes.mjs';
import { KACTL, ROOT, getJson, startSandboxProcess } from './lib/sandbox-process.mjs';

const options = benchOptions(undefined, { sqlite: false });
const runs = options.runs ?? (options.quick ? 7 : 15);
const node = options.node;
const sandboxNode = [process.execPath, node].find((candidate) => sqliteLoads(candidate));
if (sandboxNode === undefined) throw new Error(`better-sqlite3 in this node_modules loads neither on ${process.execPath} nor on ${node}: run \`npm rebuild better-sqlite3\` for one of them`);
const NETWORK_TARGET = options.nodeVersion.startsWith('v20.') ? 1.8 : 1.5;
const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kactl-bench-'));
// NODE_EXTRA_CA_CERTS makes every node start read a CA file (~28 ms on Node 20), NODE_OPTIONS may
// preload anything: both are left out, with the rest of the caller's environment.
const env = { PATH: process.env.PATH, HOME: configDir, KACTL_CONFIG_DIR: configDir, KACTL_DATA_DIR: path.join(configDir, 'data'), NO_COLOR: '1' };
const bareCjs = path.join(ROOT, 'bench', 'lib', 'bare-request.cjs');
const bareEsm = path.join(ROOT, 'bench', 'lib', 'bare-request.mjs');

function run(args, input, extraEnv = {}) {
  const result = spawnSync(node, args, { env: { ...env, ...extraEnv }, input, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed (${result.status}): ${result.stderr}`);
  return result.stdout;
}

// A sandbox in its own process, saved as the active profile, with 5 keys, 5 users and a
// logged-in client session: the networked commands' server.
const sandbox = await startSandboxProcess(sandboxNode, env);
const { baseUrl, app, sellerKey } = sandbox.info;
const seller = (params) => `${baseUrl}/api/seller/?${new URLSearchParams({ sellerkey: sellerKey, ...params })}`;
const created = await getJson(seller({ type: 'add', expiry: '30', mask: '******-******', level: '1', amount: '10', format: 'json' }));
const keys = created.keys ?? [created.key];
for (let i = 0; i < 5; i += 1) {
  run([KACTL, 'client', 'init', '--new']);
  run([KACTL, 'client', 'register', '--username', `user${i}`, '--password-stdin', '--key', keys[i]], 'secret-pw\n');
}
const session = JSON.parse(fs.readFileSync(path.join(configDir, 'config.json'), 'utf8')).profiles.sandbox.session;
const client = (params) => `${baseUrl}/api/1.3/?${new URLSearchParams({ ...params, name: app.name, ownerid: app.ownerid })}`;

const nodeE = ['node -e 0', ['-e', '0']];
/** The yardstick of a request: the bare CommonJS script making it. */
function yardstick(what, url) {
  return [`node:http ${what}`, [bareCjs, url]];
}
/** A networked command against the yardstick (its target), and against the ES module twin (for information). */
function networked(label, args, what, url) {
  return [
    { label, args, baseline: yardstick(what, url), target: NETWORK_TARGET },
    { label: `${label} ÷ ES module yardstick`, args, command: label, baseline: [`node:http ${what}, ES module`, [bareEsm, url]] },
  ];
}
const cases = [
  { label: 'kactl --version', args: [KACTL, '--version'], baseline: nodeE, target: 1.3 },
  { label: 'kactl --help', args: [KACTL, '--help'], baseline: nodeE, target: 1.6 },
  { label: 'kactl licenses --help', args: [KACTL, 'licenses', '--help'], baseline: nodeE, target: 1.6 },
  { label: 'kactl licenses create --help', args: [KACTL, 'licenses', 'create', '--help'], baseline: nodeE, target: 1.6 },
  { label: 'kactl client --help', args: [KACTL, 'client', '--help'], baseline: nodeE, target: 1.6 },
  { label: 'kactl client login --help', args: [KACTL, 'client', 'login', '--help'], baseline: nodeE, target: 1.6 },
  { label: 'kactl sandbox start --help', args: [KACTL, 'sandbox', 'start', '--help'], baseline: nodeE, target: 1.6 },
  { label: 'kactl profile --help', args: [KACTL, 'profile', '--help'], baseline: nodeE, target: 1.6 },
  ...networked('kactl licenses list', [KACTL, 'licenses', 'list'], 'GET fetchallkeys', seller({ type: 'fetchallkeys', format: 'json' })),
  ...networked('kactl client check', [KACTL, 'client', 'check'], 'GET 1.3 check', client({ type: 'check', sessionid: session.id })),
  ...networked('kactl users list -o json', [KACTL, 'users', 'list', '-o', 'json'], 'GET fetchallusers', seller({ type: 'fetchallusers', format: 'json' })),
  // For the reader, no target: the first run after an install or a build, before V8's code cache
  // holds the bundle (Node's own cache on 22+, bin/code-cache.js on 20; both in bin/cache-folder.js's folder).
  {
    label: 'kactl licenses list, no code cache',
    args: [KACTL, 'licenses', 'list'],
    env: { NODE_DISABLE_COMPILE_CACHE: '1' },
    baseline: yardstick('GET fetchallkeys', seller({ type: 'fetchallkeys', format: 'json' })),
  },
  // The two yardsticks against each other: what an ES module entry costs on this node.
  { label: 'bare node:http GET fetchallkeys, ES module', args: [bareEsm, seller({ type: 'fetchallkeys', format: 'json' })], baseline: yardstick('GET fetchallkeys', seller({ type: 'fetchallkeys', format: 'json' })) },
];

// Every distinct command line, baselines included, runs once a round in the same order.
const commands = new Map();
for (const c of cases) {
  commands.set(c.baseline[0], { args: c.baseline[1] });
  // A row that measures a command already listed under another label reuses its times.
  if (c.command === undefined) commands.set(c.label, { args: c.args, env: c.env });
}
const times = new Map([...commands.keys()].map((label) => [label, []]));
for (const command of commands.values()) run(command.args, undefined, command.env); // warm the file and compile caches; fail early
for (let round = 0; round < runs; round += 1) {
  for (const [label, command] of commands) {
    const start = process.hrtime.bigint();
    const result = spawnSync(node, command.args, { env: { ...env, ...command.env }, stdio: 'ignore' });
    times.get(label).push(Number(process.hrtime.bigint() - start) / 1e6);
    if (result.status !== 0) throw new Error(`${label} failed (${result.status})`);
  }
}
await sandbox.stop();
fs.rmSync(configDir, { recursive: true, force: true });

console.log(`cold start: ${runs} interleaved rounds, medians; node ${options.nodeVersion} (${node}); ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}`);
const rows = cases.map((c) => {
  const value = median(times.get(c.command ?? c.label));
  const baseline = median(times.get(c.baseline[0]));
  return { label: c.label, value, baseline, baselineLabel: c.baseline[0], ratio: value / baseline, target: c.target };
});
const misses = printRows(rows, { unit: 'ms' });
console.log(misses === 0 ? 'cold start: every target met' : `cold start: ${misses} target(s) missed`);
