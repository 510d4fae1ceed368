/**
 * Replacing a small file so that a reader sees either the old text or the new, never half of
 * either, even after a crash or a power cut: the text goes to a temporary file beside it (created
 * with the mode asked for), is flushed to disk, and is renamed over the target. A target that is
 * a link is followed, so the file it points to is the one replaced (a config file kept among
 * dotfiles stays a link).
 *
 * The caller holds a lock (src/util/file-lock.ts) around a read-modify-write: this only makes
 * the write itself atomic.
 */
import fs from 'node:fs';

/** Temporary files made by this process: a counter keeps two writes of one process apart. */
let written = 0;

export interface AtomicWriteOptions {
  /** The new file's mode (default 0600: its owner only). */
  mode?: number;
  /**
   * Flush the text to disk before the rename (default true), so a crash cannot leave an empty
   * file behind; a record that only saves work (the seller pacing) skips the wait.
   */
  flush?: boolean;
}

/** Writes `text` to `file` atomically. */
export function writeFileAtomicSync(file: string, text: string, { mode = 0o600, flush = true }: AtomicWriteOptions = {}): void {
  const target = realTarget(file);
  written += 1;
  const temporary = `${target}.${process.pid}-${written}.tmp`;
  try {
    const fd = fs.openSync(temporary, 'wx', mode);
    try {
      // The mode exactly, whatever the umask took away.
      fs.fchmodSync(fd, mode);
      const bytes = Buffer.from(text, 'utf8');
      for (let at = 0; at < bytes.length; ) at += fs.writeSync(fd, bytes, at, bytes.length - at);
      if (flush) fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temporary, target);
  } catch (error) {
    // A full disk or a refused rename leaves no temporary file behind.
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}

/** The file a link points to (followed to the end), or `file` itself when it is no link or is missing. */
function realTarget(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}
