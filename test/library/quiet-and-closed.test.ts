/**
 * A library call writes nothing to stdout or stderr and never ends the process, and a closed
 * sandbox leaves nothing that keeps the process alive: a child process runs the built
 * kactl/sandbox (test/fixtures/library-child.mjs) and must end by itself, silent. Right after
 * `close()` resolves no handle of the sandbox is open any more (no listening socket still
 * closing), as a test runner's open-handle check sees it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { requireFreshBuild } from '../helpers/built.js';
import { tempDir } from '../helpers/temp-dir.js';

const root = path.resolve(import.meta.dirname, '..', '..');

it('prints nothing, and once closed keeps no handle, right after close(): the process ends by itself', async () => {
  requireFreshBuild();
  const entry = path.join(root, 'dist', 'lib', 'sandbox.mjs');
  const report = path.join(tempDir('kactl-lib-child-'), 'report.json');
  const child = spawn(process.execPath, [path.join(root, 'test', 'fixtures', 'library-child.mjs'), entry, report], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // No process.exit anywhere: the process must end on its own once the script is done.
  const killer = setTimeout(() => child.kill('SIGKILL'), 45_000);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (c, s) => resolve([c, s])));
  clearTimeout(killer);
  expect({ code, signal, stderr }).toEqual({ code: 0, signal: null, stderr: '' });
  expect(stdout).toBe('');
  const { baseline, resources } = JSON.parse(fs.readFileSync(report, 'utf8')) as { baseline: string[]; resources: string[] };
  expect(resources).toEqual(baseline);
  expect(baseline.filter((name) => name !== 'PipeWrap' && name !== 'TTYWrap')).toEqual([]);
});
