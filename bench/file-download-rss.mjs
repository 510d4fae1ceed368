// `node bench/file-download-rss.mjs [--mb N] [--json]` (after `npm run build`): how much the
// sandbox's resident memory grows while it serves one client `file` download of N MiB (default
// 70). The sandbox runs as `kactl sandbox start` would (the built bundle, its own process); the
// file comes from a loopback HTTP server here. Growth = peak RSS during the download (VmHWM,
// reset just before) minus RSS before it, read from /proc (Linux only). The answer is checked:
// contents equal the file, and the Ed25519 signature verifies.
import { spawn } from 'node:child_process';
import { createPublicKey, randomBytes, verify } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const mbAt = argv.indexOf('--mb');
const mb = mbAt >= 0 ? Number(argv[mbAt + 1]) : 70;
const asJson = argv.includes('--json');
if (!Number.isFinite(mb) || mb <= 0 || mb > 75) throw new Error('--mb must be a number of MiB from 1 to 75');

const { openStore } = await import(path.join(root, 'dist/server/store/store.js'));
const { seedStore } = await import(path.join(root, 'dist/server/store/seed.js'));
const { createFile } = await import(path.join(root, 'dist/server/domain/files.js'));

const bytes = randomBytes(Math.round(mb * 1024 * 1024));
const origin = http.createServer((req, res) => res.end(req.url === '/big.bin' ? bytes : bytes.subarray(0, 1024)));
await new Promise((resolve) => origin.listen(0, '127.0.0.1', resolve));
const originUrl = `http://127.0.0.1:${origin.address().port}`;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kactl-download-rss-'));
const data = path.join(dir, 'sandbox.db');
const now = Math.floor(Date.now() / 1000);
const store = openStore(data);
const app = seedStore(store, {}, now);
const small = createFile(store, app.id, { url: `${originUrl}/small.bin`, size: '1 KB', authed: false }, now).id;
const big = createFile(store, app.id, { url: `${originUrl}/big.bin`, size: `${mb} MB`, authed: false }, now).id;
store.close();

const child = spawn(process.execPath, [path.join(root, 'bin/kactl.js'), 'sandbox', 'start', '--port', '0', '--data', data, '--json', '--no-rate-limit', '--no-profile'], {
  env: { PATH: process.env.PATH, HOME: dir, NO_COLOR: '1', KACTL_CONFIG_DIR: dir },
  stdio: ['ignore', 'pipe', 'inherit'],
});
try {
  const info = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line)));
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
  const call = async (params) => {
    const res = await fetch(`${info.baseUrl}/api/1.3/`, { method: 'POST', body: new URLSearchParams({ name: info.app.name, ownerid: info.app.ownerid, ...params }) });
    return { res, body: Buffer.from(await res.arrayBuffer()) };
  };
  const init = JSON.parse((await call({ type: 'init', ver: info.app.version })).body.toString());
  if (!init.success) throw new Error(`init failed: ${init.message}`);
  const warm = JSON.parse((await call({ type: 'file', sessionid: init.sessionid, fileid: small })).body.toString());
  if (warm.contents !== bytes.subarray(0, 1024).toString('hex')) throw new Error('warm-up download is wrong');

  const status = () => fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kib = (text, field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN) * 1024;
  const before = kib(status(), 'VmRSS');
  try {
    fs.writeFileSync(`/proc/${child.pid}/clear_refs`, '5'); // resets VmHWM to the current RSS
  } catch {
    // Not allowed here: VmHWM then also counts the start-up peak, so the growth is an upper bound.
  }
  const { res, body } = await call({ type: 'file', sessionid: init.sessionid, fileid: big });
  const peak = kib(status(), 'VmHWM');

  const answer = JSON.parse(body.toString('latin1'));
  if (answer.success !== true || !Buffer.from(answer.contents, 'hex').equals(bytes)) throw new Error(`the download is wrong: ${answer.message}`);
  const key = createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(info.publicKey, 'hex')]), format: 'der', type: 'spki' });
  const timestamp = res.headers.get('x-signature-timestamp') ?? '';
  const signed = verify(null, Buffer.concat([Buffer.from(timestamp, 'ascii'), body]), key, Buffer.from(res.headers.get('x-signature-ed25519') ?? '', 'hex'));
  if (!signed) throw new Error('the download answer does not verify');

  const result = { fileBytes: bytes.length, rssBefore: before, rssPeak: peak, growth: peak - before, ratio: Number(((peak - before) / bytes.length).toFixed(2)) };
  const m = (n) => `${(n / 1024 / 1024).toFixed(0)} MiB`;
  console.log(asJson ? JSON.stringify(result) : `file download of ${m(bytes.length)}: sandbox RSS ${m(before)} → peak ${m(peak)}, growth ${m(result.growth)} (${result.ratio}× the file)`);
} finally {
  child.kill('SIGTERM');
  origin.close();
  await new Promise((resolve) => child.once('exit', resolve));
  fs.rmSync(dir, { recursive: true, force: true });
}
