/**
 * Keys the server made that stdout or the `--out` file could not take are never dropped: they go
 * to a new file in the data folder's `recovery/` (0600, like the keys' own file), else in the
 * system's temporary folder, else on stderr. Keys stdout refused go to stderr at once, beside
 * the error that says so.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Context } from '../../context.js';
import { makeDir } from '../../util/make-dir.js';
import type { KeySink } from './key-sink.js';

function stamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
}

/** A new file (never over another, never through a link) holding the keys, synced. */
function writeRecovery(dir: string, keys: readonly string[], now: number): string {
  makeDir(dir);
  const file = path.join(dir, `licenses-${stamp(now)}-${randomBytes(3).toString('hex')}.txt`);
  const fd = fs.openSync(file, 'wx', 0o600);
  try {
    const bytes = Buffer.from(`${keys.join('\n')}\n`);
    for (let done = 0; done < bytes.length; ) done += fs.writeSync(fd, bytes, done);
    fs.fsyncSync(fd);
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(file, { force: true });
    throw error;
  }
  fs.closeSync(fd);
  return file;
}

/** Puts `keys` somewhere safe; returns where, for the message ("in /path", "on stderr above"). */
export function rescueKeys(ctx: Context, keys: readonly string[], sink: KeySink): string {
  if (!sink.isStdout) {
    for (const dir of [path.join(ctx.dataDir, 'recovery'), os.tmpdir()]) {
      try {
        return `in ${writeRecovery(dir, keys, ctx.now())}`;
      } catch {
        // The same full disk, or another refusal: the next place.
      }
    }
  }
  ctx.io.err(`The ${keys.length} key${keys.length === 1 ? '' : 's'} ${sink.name} could not take:\n${keys.join('\n')}\n`);
  return 'on stderr above';
}
