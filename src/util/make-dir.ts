/**
 * `mkdir -p` that fails with the real reason. Node's recursive mkdir reports ENOENT when a
 * missing folder cannot be created under a read-only or forbidden parent; the caller would then
 * say "no such file" where the truth is "read-only file system". On such a failure the first
 * missing folder is created again on its own, which fails with the parent's real errno.
 */
import fs from 'node:fs';
import path from 'node:path';

export function makeDir(dir: string, mode = 0o700): void {
  try {
    fs.mkdirSync(dir, { recursive: true, mode });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    let missing = path.resolve(dir);
    while (!fs.existsSync(path.dirname(missing)) && path.dirname(missing) !== missing) missing = path.dirname(missing);
    // Throws what the parent really refuses with (EROFS, EACCES…); if it now works, so does the rest.
    fs.mkdirSync(missing, { mode });
    fs.mkdirSync(dir, { recursive: true, mode });
  }
}
