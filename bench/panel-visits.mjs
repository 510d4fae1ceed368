// Customer panel under anonymous visits: requests a second the real sandbox (`kactl sandbox
// start`, its own process) answers for the sign-in page to visitors without a cookie, measured
// before and after 60,000 more such visits, in the same run. Each visit used to store a
// session for 30 minutes and every new one walked all of them (issue 21 item 8: ~1,000 → ~160
// requests a second); the figure after should stay near the one before. Also prints the
// sandbox's RSS before and after. Asserts nothing.
//   node bench/panel-visits.mjs [--node PATH] [--runs N] [--quick]   (KACTL_BENCH_NODE=PATH)
// --quick makes 10,000 visits instead of 60,000.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { benchOptions, median, printRows } from './lib/options.mjs';
import { getJson, startSandboxProcess } from './lib/sandbox-process.mjs';

const options = benchOptions();
const runs = options.runs ?? 3;
const VISITS = options.quick ? 10_000 : 60_000;
const MEASURED = 3_000;
const CONCURRENCY = 16;
const TARGET = 0.8;

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kactl-bench-'));
const env = { PATH: process.env.PATH, HOME: workDir, KACTL_CONFIG_DIR: workDir, KACTL_DATA_DIR: path.join(workDir, 'data'), NO_COLOR: '1' };
const sandbox = await startSandboxProcess(options.node, env, ['--no-profile']);
const { baseUrl, app } = sandbox.info;
const init = await getJson(`${baseUrl}/api/1.3/?${new URLSearchParams({ type: 'init', ver: app.version, name: app.name, ownerid: app.ownerid })}`);
const panel = new URL(init.appinfo.customerPanelLink);
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

/** One anonymous visit (no cookie): the sign-in page. */
function visit() {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: panel.hostname, port: panel.port, path: panel.pathname, agent }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`panel answered ${res.statusCode}`));
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', reject);
  });
}

/** `count` visits from CONCURRENCY parallel visitors; requests a second. */
async function visits(count) {
  let left = count;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left > 0) {
        left -= 1;
        await visit();
      }
    }),
  );
  return count / (Number(process.hrtime.bigint() - started) / 1e9);
}

function rssMiB(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
  } catch {
    return NaN;
  }
}

await visits(500); // warm-up
const before = [];
for (let i = 0; i < runs; i++) before.push(await visits(MEASURED));
const rssBefore = rssMiB(sandbox.pid);
await visits(VISITS);
const after = [];
for (let i = 0; i < runs; i++) after.push(await visits(MEASURED));
const rssAfter = rssMiB(sandbox.pid);
agent.destroy();
await sandbox.stop();
fs.rmSync(workDir, { recursive: true, force: true });

const beforeRate = median(before);
const afterRate = median(after);
console.log(`panel sign-in page to anonymous visitors (${options.nodeVersion}, ${CONCURRENCY} at once, medians of ${runs} × ${MEASURED} requests)`);
const misses = printRows(
  [
    {
      label: `after ${VISITS.toLocaleString('en')} more visits`,
      value: afterRate,
      baseline: beforeRate,
      baselineLabel: 'same sandbox before them',
      ratio: afterRate / beforeRate,
      target: TARGET,
      higherIsBetter: true,
    },
  ],
  { unit: 'req/s', digits: 0 },
);
console.log(`sandbox RSS: ${rssBefore.toFixed(1)} MiB before, ${rssAfter.toFixed(1)} MiB after`);
console.log(misses === 0 ? 'panel visits: every target met' : `panel visits: ${misses} target(s) missed`);
