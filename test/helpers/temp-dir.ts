/** Temporary folders that clean themselves up after the test file. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];
let registered = false;

export function tempDir(prefix = 'kactl-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  if (!registered) {
    registered = true;
    afterAll(() => {
      for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
    });
  }
  return dir;
}
