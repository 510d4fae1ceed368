/**
 * .ci/summary.mjs: CI's last lines, from vitest's JSON reports: a line per run with the time per
 * file kind under it, then the total "N passed, N failed" as the very last line.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';

const SUMMARY = path.resolve(import.meta.dirname, '../../.ci/summary.mjs');

function fileResult(name: string, startTime: number, seconds: number, status = 'passed'): object {
  return { name: `/repo/test/${name}`, startTime, endTime: startTime + seconds * 1000, status, message: '', assertionResults: [{ status }] };
}

function summarise(...reports: (object | undefined)[]): { code: number | null; lines: string[] } {
  const dir = tempDir();
  const files = reports.map((report, i) => {
    const file = path.join(dir, `results-${i}.json`);
    if (report !== undefined) fs.writeFileSync(file, JSON.stringify(report));
    return file;
  });
  const result = spawnSync(process.execPath, [SUMMARY, ...files], { encoding: 'utf8' });
  return { code: result.status, lines: result.stdout.trim().split('\n').map((line) => line.replace(dir, 'DIR')) };
}

describe('.ci/summary.mjs', () => {
  it('prints each run with its time per file kind, then the total', () => {
    const report = {
      numPassedTests: 5,
      numFailedTests: 0,
      testResults: [
        fileResult('e2e/walk.test.ts', 1000, 12.5),
        fileResult('unit/a.test.ts', 0, 1.25),
        fileResult('server/b.test.ts', 0, 3),
        fileResult('unit/c/d.test.ts', 0, 0.75),
        fileResult('browser/pages.test.ts', 0, 4),
      ],
    };
    const { code, lines } = summarise(report, report);
    expect(lines).toEqual([
      'DIR/results-0.json: 5 passed, 0 failed',
      '  time in tests by kind: unit 2.0 s (2 files), server 3.0 s (1 file), e2e 12.5 s (1 file), browser 4.0 s (1 file)',
      'DIR/results-1.json: 5 passed, 0 failed',
      '  time in tests by kind: unit 2.0 s (2 files), server 3.0 s (1 file), e2e 12.5 s (1 file), browser 4.0 s (1 file)',
      '10 passed, 0 failed',
    ]);
    expect(code).toBe(0);
  });

  it('fails on a missing report, and counts a file that did not load as a failure', () => {
    const broken = { numPassedTests: 1, numFailedTests: 0, testResults: [fileResult('unit/a.test.ts', 0, 1), { ...fileResult('e2e/x.test.ts', 0, 0, 'failed'), assertionResults: [] }] };
    const { code, lines } = summarise(broken, undefined);
    expect(lines.at(-1)).toBe('1 passed, 1 failed');
    expect(lines).toContain('DIR/results-1.json: no report');
    expect(code).toBe(1);
  });

  it('names each failed test with the first line of its error, and a file that did not load', () => {
    const report = {
      numPassedTests: 1,
      numFailedTests: 1,
      testResults: [
        {
          ...fileResult('e2e/life.test.ts', 0, 2, 'failed'),
          assertionResults: [
            { status: 'passed', fullName: 'life starts' },
            { status: 'failed', fullName: 'life › stops the sandbox', failureMessages: ['\u001b[31mAssertionError\u001b[39m: expected 1 to be 0\n    at stack (x.ts:1:1)'] },
          ],
        },
        { ...fileResult('server/crash.test.ts', 0, 0, 'failed'), message: '\nWorker exited unexpectedly\nmore', assertionResults: [] },
      ],
    };
    const { code, lines } = summarise(report);
    expect(lines).toContain('  failed: test/e2e/life.test.ts › life › stops the sandbox: AssertionError: expected 1 to be 0');
    expect(lines).toContain('  failed: test/server/crash.test.ts: Worker exited unexpectedly');
    expect(lines.at(-1)).toBe('1 passed, 2 failed');
    expect(code).toBe(1);
  });
});
