/**
 * Temporary folders that clean themselves up after the test file. The hook is registered when
 * this module is imported (collection time): vitest ignores hooks added from inside a running
 * hook or test, which is where tempDir() is usually called.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];

function removeAll(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

afterAll(removeAll);
// A worker that exits without running hooks (a crash, a timeout) still cleans up.
process.once('exit', removeAll);

export function tempDir(prefix = 'kactl-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}
