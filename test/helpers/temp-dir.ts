/**
 * Temporary folders that clean themselves up after the test file (test/helpers/cleanup.ts runs
 * the removal; tempDir() is usually called from inside a hook or test, where vitest would
 * ignore a hook added then).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanUpAfterEachFile } from './cleanup.js';

const made: string[] = [];

function removeAll(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

cleanUpAfterEachFile(removeAll);
// A worker that exits without running hooks (a crash, a timeout) still cleans up.
process.once('exit', removeAll);

export function tempDir(prefix = 'kactl-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}
