/**
 * What kactl says when this machine will not let it write: one sentence naming the stream or the
 * path, what the system said, and what to change (docs/contracts.md, "Exit codes": 1). A path in
 * kactl's config or data folder names the variable that moves that folder, since pointing it
 * elsewhere is the fix that needs no administrator.
 */
import path from 'node:path';
import { SetupError } from '../errors.js';

/** The errors of a disk or stream that refuses to be written, in words. */
const PHRASES: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'file too large',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EIO: 'input/output error',
};

/** The errno code when `error` is one of the refusals above. */
export function storageErrno(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && Object.hasOwn(PHRASES, code) ? code : undefined;
}

/** `no space left on the device (ENOSPC)`; the message itself for anything else. */
export function systemSays(error: unknown): string {
  const code = storageErrno(error);
  if (code !== undefined) return `${PHRASES[code]} (${code})`;
  const errno = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof errno === 'string' && !message.includes(errno) ? `${message} (${errno})` : message;
}

export interface KactlFolders {
  readonly configDir: string;
  readonly dataDir: string;
}

interface Folder {
  readonly label: string;
  readonly dir: string;
  readonly variable: string;
}

function inside(file: string, dir: string): boolean {
  const relative = path.relative(dir, file);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** kactl's folder that holds `file` (the data folder first: by default it is inside the config one). */
export function folderOf(file: string, folders: KactlFolders): Folder | undefined {
  if (inside(file, folders.dataDir)) return { label: 'data folder', dir: folders.dataDir, variable: 'KACTL_DATA_DIR' };
  if (inside(file, folders.configDir)) return { label: 'config folder', dir: folders.configDir, variable: 'KACTL_CONFIG_DIR' };
  return undefined;
}

/** `Can't write …` for ENOSPC-like errors, `Can't use …` for a refusal that may be a read. */
function verbFor(error: unknown): string {
  const code = storageErrno(error);
  return code === 'EACCES' || code === 'EPERM' || code === 'EIO' ? "Can't use" : "Can't write";
}

/** Standard output refused a write (`> /dev/full`, a full disk, a terminal that went away). */
export function stdoutFailure(error: unknown): SetupError {
  return new SetupError(`Can't write to standard output: ${systemSays(error)}.`, { cause: error, stream: 'stdout' });
}

/**
 * A refusal at `file` as one sentence: kactl's folders name their variable, any other path (an
 * `--out` file, a `--data` store) is named alone.
 */
export function pathFailure(error: unknown, file: string, folders: KactlFolders): SetupError {
  const folder = folderOf(file, folders);
  if (folder === undefined) return new SetupError(`${verbFor(error)} ${file}: ${systemSays(error)}.`, { cause: error });
  const at = file === folder.dir ? '' : `, at ${file}`;
  return new SetupError(`${verbFor(error)} kactl's ${folder.label} ${folder.dir} (${systemSays(error)}${at}); set ${folder.variable} to a folder you can write.`, { cause: error });
}

/**
 * The sentence for a file-system error that reached main without one (a lock, a profile write, a
 * registry entry), or undefined when `error` is not such a refusal.
 */
export function storageFailure(error: unknown, folders: KactlFolders): SetupError | undefined {
  if (storageErrno(error) === undefined) return undefined;
  const { path: file, dest } = error as NodeJS.ErrnoException & { dest?: string };
  const where = typeof dest === 'string' && folderOf(dest, folders) !== undefined ? dest : file;
  return typeof where === 'string' ? pathFailure(error, where, folders) : undefined;
}

/** The one-line warning when a data folder write that only saves time or effort is skipped. */
export function skippedWrite(error: unknown, what: string, file: string, folders: KactlFolders): string {
  const folder = folderOf(file, folders);
  const fix = folder === undefined ? '' : `; set ${folder.variable} to a folder you can write`;
  return `${what} (${file}: ${systemSays(error)})${fix}.`;
}
