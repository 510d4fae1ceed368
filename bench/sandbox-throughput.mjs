// Sandbox throughput: requests a second the real sandbox (`kactl sandbox start`, its own
// process) answers to wrk (another process), against a bare node:http server answering fixed
// JSON of the same size, measured by the same harness in the same run, interleaved: every round
// runs each case once, medians over rounds are printed. Also prints the sandbox's RSS before the
// measured rounds and again after 200,000 more signed checks. Asserts nothing.
// A 1.3 answer is measured against bare node:http plus one Ed25519 signature per answer (the
// part of a signed answer no sandbox code can remove), a 1.2 answer and a seller list against
// bare node:http with a fixed body of the same size.
// The request inspector records every request (src/server/inspector/): two more sandboxes, set
// up alike and given only a 1.3 check and init, one as started by default (recording) and one
// with `--log-limit 0` (off), show what it costs, printed as ratios, with no target.
//   node bench/sandbox-throughput.mjs [--node PATH] [--runs N] [--quick]   (KACTL_BENCH_NODE=PATH)
// Needs wrk (Debian: apt-get install wrk). Targets (issue 31): 1.3 check ≥ ×0.8 and init ≥ ×0.7
// of the signed floor, 1.2 check ≥ ×0.5 of bare node:http, fetchallkeys ≥ ×0.4 of its baseline.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchOptions, median, printRows } from './lib/options.mjs';
import { ROOT, getJson, startSandboxProcess } from './lib/sandbox-process.mjs';

const options = benchOptions();
const runs = options.runs ?? 3;
const seconds = options.quick ? 1 : 3;
const connections = 16;
const RSS_REQUESTS = 200_000;

if (spawnSync('wrk', ['--version']).error) {
  console.log('sandbox throughput: skipped, wrk is not installed (Debian: apt-get install wrk)');
  process.exit(0);
}

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kactl-bench-'));
const env = { PATH: process.env.PATH, HOME: workDir, KACTL_CONFIG_DIR: workDir, KACTL_DATA_DIR: path.join(workDir, 'data'), NO_COLOR: '1' };

// --- the sandbox, with 1,000 keys and a logged-in 1.3 session and an open 1.2 session
const sandbox = await startSandboxProcess(options.node, env, ['--no-profile']);
const { baseUrl, app, sellerKey } = sandbox.info;
const seller = (params) => `${baseUrl}/api/seller/?${new URLSearchParams({ sellerkey: sellerKey, ...params })}`;
const client = (version, params) => `${baseUrl}/api/${version}/?${new URLSearchParams({ ...params, name: app.name, ownerid: app.ownerid })}`;
for (let made = 0; made < 1000; made += 100) {
  const created = await getJson(seller({ type: 'add', expiry: '30', mask: '******-******-******', level: '1', amount: '100', format: 'json' }));
  if (!created.success) throw new Error(`creating keys failed: ${created.message}`);
}
const keys = (await getJson(seller({ type: 'fetchallkeys', format: 'json' }))).keys;
if (keys?.length !== 1000) throw new Error(`expected 1,000 keys, got ${keys?.length}`);
const init13 = await getJson(client('1.3', { type: 'init', ver: app.version }));
const registered = await getJson(client('1.3', { type: 'register', sessionid: init13.sessionid, username: 'bench', pass: 'secret-pw', key: keys[0].key }));
if (!registered.success) throw new Error(`register failed: ${registered.message}`);
const init12 = await getJson(client('1.2', { type: 'init', ver: app.version, enckey: 'bench-enckey-0123' }));
if (!init12.success) throw new Error(`1.2 init failed: ${init12.message}`);
const registered12 = await getJson(client('1.2', { type: 'register', sessionid: init12.sessionid, username: 'bench12', pass: 'secret-pw', key: keys[1].key }));
if (!registered12.success) throw new Error(`1.2 register failed: ${registered12.message}`);

// --- two more sandboxes alike but for the request inspector (on, the default; off), each with a logged-in 1.3 session
async function inspectorSandbox(args) {
  const started = await startSandboxProcess(options.node, env, ['--no-profile', ...args]);
  const { info } = started;
  const url = (params) => `${info.baseUrl}/api/1.3/?${new URLSearchParams({ ...params, name: info.app.name, ownerid: info.app.ownerid })}`;
  const key = (await getJson(`${info.baseUrl}/api/seller/?${new URLSearchParams({ sellerkey: info.sellerKey, type: 'add', expiry: '30', level: '1', amount: '1', format: 'json' })}`)).key;
  const session = (await getJson(url({ type: 'init', ver: info.app.version }))).sessionid;
  const registered = await getJson(url({ type: 'register', sessionid: session, username: 'bench', pass: 'secret-pw', key }));
  if (!registered.success) throw new Error(`register failed: ${registered.message}`);
  return { ...started, check: url({ type: 'check', sessionid: session }), init: url({ type: 'init', ver: info.app.version }) };
}
const inspectorOn = await inspectorSandbox([]);
const inspectorOff = await inspectorSandbox(['--log-limit', '0']);

// --- the baselines: the same node, fixed bodies of the sizes the sandbox answers with
const fetchAllKeysBody = Buffer.from(await (await fetch(seller({ type: 'fetchallkeys', format: 'json' }))).arrayBuffer());
async function startBare(name, body, server = 'bare-server.mjs') {
  const file = path.join(workDir, `${name}.json`);
  fs.writeFileSync(file, body);
  const child = spawn(options.node, [path.join(ROOT, 'bench', 'lib', server), file], { stdio: ['ignore', 'pipe', 'inherit'] });
  process.once('exit', () => child.kill('SIGKILL'));
  const port = await new Promise((resolve) => child.stdout.once('data', (chunk) => resolve(Number(String(chunk).trim()))));
  return { url: `http://127.0.0.1:${port}/`, bytes: body.length, stop: () => child.kill('SIGINT') };
}
const checkBody = Buffer.from(await (await fetch(client('1.3', { type: 'check', sessionid: init13.sessionid }))).arrayBuffer());
const bareSmall = await startBare('small', checkBody);
const bareLarge = await startBare('large', fetchAllKeysBody);
const bareSigned = await startBare('signed', checkBody, 'bare-signed-server.mjs');
const SIGNED_BASELINE = 'bare node:http + one Ed25519 signature per answer';

const cases = [
  { label: 'bare node:http, fixed JSON', url: bareSmall.url },
  { label: 'bare node:http, fixed JSON (fetchallkeys size)', url: bareLarge.url },
  { label: SIGNED_BASELINE, url: bareSigned.url },
  { label: 'sandbox 1.3 check (signed, logged in)', url: client('1.3', { type: 'check', sessionid: init13.sessionid }), baseline: SIGNED_BASELINE, target: 0.8, sandbox: true },
  { label: 'sandbox 1.3 init (signed, new session)', url: client('1.3', { type: 'init', ver: app.version }), baseline: SIGNED_BASELINE, target: 0.7, sandbox: true },
  { label: 'sandbox 1.2 check (HMAC, logged in)', url: client('1.2', { type: 'check', sessionid: init12.sessionid }), baseline: 'bare node:http, fixed JSON', target: 0.5, sandbox: true },
  { label: 'sandbox seller fetchallkeys (1,000 keys)', url: seller({ type: 'fetchallkeys', format: 'json' }), baseline: 'bare node:http, fixed JSON (fetchallkeys size)', target: 0.4, sandbox: true },
  { label: '1.3 check, inspector on', url: inspectorOn.check },
  { label: '1.3 check, inspector off', url: inspectorOff.check },
  { label: '1.3 init, inspector on', url: inspectorOn.init },
  { label: '1.3 init, inspector off', url: inspectorOff.init },
];
/** Inspector on (the default) against off, same request to sandboxes set up alike: informational, no target. */
const INSPECTOR_PAIRS = [
  ['1.3 check, inspector on', '1.3 check, inspector off'],
  ['1.3 init, inspector on', '1.3 init, inspector off'],
];

function wrk(url, duration) {
  const result = spawnSync('wrk', ['-t1', `-c${connections}`, `-d${duration}s`, url], { encoding: 'utf8' });
  const rate = Number(/Requests\/sec:\s+([\d.]+)/.exec(result.stdout)?.[1]);
  const requests = Number(/(\d+) requests in/.exec(result.stdout)?.[1]);
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(result.stdout)?.[1];
  if (!Number.isFinite(rate)) throw new Error(`wrk failed: ${result.stderr || result.stdout}`);
  if (errors) throw new Error(`${url}: ${errors} error answers`);
  return { rate, requests };
}

function rssMb(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

let sandboxRequests = 0;
const rates = new Map(cases.map((c) => [c.label, []]));
for (const c of cases) wrk(c.url, 1); // warm up (JIT, caches) before the measured rounds
for (let round = 0; round < runs; round += 1) {
  for (const c of cases) {
    const { rate, requests } = wrk(c.url, seconds);
    rates.get(c.label).push(rate);
    if (c.sandbox) sandboxRequests += requests;
  }
}
// Memory: 200,000 more signed checks (`kactl sandbox start` serves in the CLI process itself).
// Measured after the rounds, whose inits each add a session row to the store by design.
const checkCase = cases.find((c) => c.label.startsWith('sandbox 1.3 check'));
const rssStart = rssMb(sandbox.pid);
let rssRequests = 0;
while (rssRequests < RSS_REQUESTS) {
  const left = RSS_REQUESTS - rssRequests;
  rssRequests += wrk(checkCase.url, Math.max(1, Math.ceil(left / median(rates.get(checkCase.label))))).requests;
}
const rssEnd = rssMb(sandbox.pid);

await sandbox.stop();
await inspectorOn.stop();
await inspectorOff.stop();
bareSmall.stop();
bareLarge.stop();
bareSigned.stop();
fs.rmSync(workDir, { recursive: true, force: true });

console.log(
  `sandbox throughput: wrk -t1 -c${connections}, ${seconds} s a case, ${runs} interleaved rounds, medians; node ${options.nodeVersion} (${options.node}); ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}`,
);
console.log(`baseline bodies: ${bareSmall.bytes} bytes (a 1.3 check answer), ${bareLarge.bytes} bytes (the fetchallkeys answer)`);
const rows = cases
  .filter((c) => c.baseline)
  .map((c) => {
    const value = median(rates.get(c.label));
    const baseline = median(rates.get(c.baseline));
    return { label: c.label, value, baseline, baselineLabel: c.baseline, ratio: value / baseline, target: c.target, higherIsBetter: true };
  });
const misses = printRows(rows, { unit: 'req/s', digits: 0 });
const plainRate = median(rates.get('bare node:http, fixed JSON'));
console.log(`${SIGNED_BASELINE} answers ×${(median(rates.get(SIGNED_BASELINE)) / plainRate).toFixed(2)} of bare node:http (informational: what a signature costs)`);
console.log('request inspector on (the default) against off (--log-limit 0), two sandboxes set up alike; informational:');
printRows(
  INSPECTOR_PAIRS.map(([on, offLabel]) => ({ label: on, value: median(rates.get(on)), baseline: median(rates.get(offLabel)), baselineLabel: 'inspector off', ratio: median(rates.get(on)) / median(rates.get(offLabel)) })),
  { unit: 'req/s', digits: 0 },
);
console.log(
  `sandbox RSS: ${rssStart.toFixed(1)} MB after the rounds (${sandboxRequests.toLocaleString('en')} requests), ${rssEnd.toFixed(1)} MB after ${rssRequests.toLocaleString('en')} more 1.3 checks`,
);
console.log(misses === 0 ? 'sandbox throughput: every target met' : `sandbox throughput: ${misses} target(s) missed`);
