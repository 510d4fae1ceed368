// Sandbox throughput: requests a second for signed client API answers and seller calls, against
// a bare node:http server answering fixed JSON in the same run (the ceiling of node:http on this
// machine). Prints figures and ratios; asserts nothing.
//   npm run build && node bench/sandbox-throughput.mjs [seconds-per-case] [concurrency]
import http from 'node:http';
import { Agent, request } from 'undici';
import { startSandbox } from '../dist/server/start.js';

const seconds = Number(process.argv[2] ?? 3);
const concurrency = Number(process.argv[3] ?? 16);
const agent = new Agent({ connections: concurrency, pipelining: 1 });

async function measure(label, makeUrl) {
  let done = 0;
  let failed = 0;
  const deadline = Date.now() + seconds * 1000;
  const worker = async () => {
    while (Date.now() < deadline) {
      const res = await request(makeUrl(), { dispatcher: agent });
      await res.body.arrayBuffer();
      if (res.statusCode >= 500) failed += 1;
      done += 1;
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const rate = done / ((performance.now() - start) / 1000);
  return { label, rate, failed };
}

const bare = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"success":true,"message":"ok"}');
});
await new Promise((resolve) => bare.listen(0, '127.0.0.1', resolve));
const bareUrl = `http://127.0.0.1:${bare.address().port}/`;

const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, data: ':memory:', rateLimit: false });
const { baseUrl, app, sellerKey } = sandbox.info;
const client = (params) => `${baseUrl}/api/1.3/?${new URLSearchParams({ ...params, name: app.name, ownerid: app.ownerid })}`;
const init = await (await request(client({ type: 'init', ver: app.version }), { dispatcher: agent })).body.json();

const results = [
  await measure('bare node:http, fixed JSON (baseline)', () => bareUrl),
  await measure('sandbox 1.3 check (signed)', () => client({ type: 'check', sessionid: init.sessionid })),
  await measure('sandbox 1.3 init (signed, writes a session)', () => client({ type: 'init', ver: app.version })),
  await measure('sandbox seller fetchallsubs', () => `${baseUrl}/api/seller/?${new URLSearchParams({ sellerkey: sellerKey, type: 'fetchallsubs' })}`),
];

await sandbox.close();
bare.close();
await agent.close();

const baseline = results[0].rate;
console.log(`sandbox throughput, ${seconds} s a case, ${concurrency} concurrent requests, node ${process.version}`);
for (const { label, rate, failed } of results) {
  console.log(`${label.padEnd(46)} ${rate.toFixed(0).padStart(7)} req/s  ×${(rate / baseline).toFixed(2)} baseline${failed ? `  (${failed} server errors)` : ''}`);
}
