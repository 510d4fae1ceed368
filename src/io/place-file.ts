/**
 * Saving a file the user named (`client update`, `client file download --out`) without ever
 * writing through something another local user planted there.
 *
 * The bytes go to a temporary file beside the target, created exclusively (O_CREAT|O_EXCL|
 * O_NOFOLLOW) under a random name: no symbolic link or earlier file at a guessable name (the old
 * `FILE.part`) is followed or reused. When complete it is put in place:
 * - without --force with link(2), which fails when the target exists, a symbolic link included,
 *   and cannot be raced: a file made at the target at any time before is kept and reported;
 * - with --force with rename(2), which replaces the target's entry (a link itself, never what it
 *   points to).
 * A file system without hard links (FAT, some network shares) gets a check right before the
 * rename instead; there a file made between the two is replaced.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { KactlError, UsageError } from '../errors.js';
import { pathFailure, storageErrno, type KactlFolders } from './storage-errors.js';

/** The temporary file being written, beside its target. */
export interface PendingFile {
  readonly path: string;
  readonly handle: FileHandle;
  /**
   * Removes the temporary file at once, synchronously: called from an abort listener, it is gone
   * before a second Ctrl-C can end the process.
   */
  discard(): void;
}

const EXCLUSIVE = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0);

/** `FILE exists; add --force to overwrite it.` */
export function existsError(target: string): UsageError {
  return new UsageError(`${target} exists; add --force to overwrite it.`);
}

/** Refuses early when `target` exists (a dangling symbolic link counts) and --force is not given. */
export async function refuseExisting(target: string, force: boolean): Promise<void> {
  if (force) return;
  const found = await fs.promises.lstat(target).then(
    () => true,
    () => false,
  );
  if (found) throw existsError(target);
}

/** Creates the temporary file for `target` in the same folder (so a rename never crosses disks). */
export async function createBeside(target: string): Promise<PendingFile> {
  const name = `.${path.basename(target).slice(0, 100)}.${randomBytes(8).toString('hex')}.part`;
  const temporary = path.join(path.dirname(target), name);
  const handle = await fs.promises.open(temporary, EXCLUSIVE, 0o666);
  let discarded = false;
  return {
    path: temporary,
    handle,
    discard() {
      if (discarded) return;
      discarded = true;
      try {
        fs.rmSync(temporary, { force: true });
      } catch {
        // Nothing more can be done; the name is random and hidden, and says what it was.
      }
    },
  };
}

/**
 * The one sentence for a save that failed: a full or read-only disk as every write kactl could
 * not make (exit 1), anything else as a path that cannot be written (exit 2).
 */
export function saveFailure(error: unknown, target: string, folders: KactlFolders): KactlError {
  if (error instanceof KactlError) return error;
  if (storageErrno(error) !== undefined) return pathFailure(error, target, folders);
  return new UsageError(`Cannot write ${target} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
}

/** Linux answers link(2) on a file system without hard links with EPERM; others with these. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/** Puts the complete temporary file at `target` (see the top of this file). */
export async function placeFile(temporary: string, target: string, force: boolean): Promise<void> {
  if (force) {
    await fs.promises.rename(temporary, target);
    return;
  }
  try {
    await fs.promises.link(temporary, target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'EEXIST') throw existsError(target);
    if (!NO_HARD_LINKS.has(code)) throw error;
    await refuseExisting(target, false);
    await fs.promises.rename(temporary, target);
    return;
  }
  await fs.promises.rm(temporary, { force: true });
}
