/**
 * Whether the authority's folder and files are ours alone, checked before anything in them is
 * read or served (docs/security.md, 29.2). A certificate authority someone else planted would
 * have kactl serve their certificates and tell the user to trust their authority machine-wide,
 * and a key someone else can read is theirs to sign with. The rules are bin/cache-folder.js's:
 *
 * - `ca/` is a folder (not a link) owned by us and closed to everyone else (mode & 077 = 0);
 * - every folder above it is owned by us or root and writable by nobody else unless sticky (as
 *   /tmp is), so nobody can rename `ca/` away and put another in its place;
 * - each file is opened without following a link and judged on the open file: a plain file of
 *   ours with one hard link (a second link is a name someone else may hold), the key closed to
 *   everyone else (0600), the certificate writable by nobody else.
 *
 * Where there are no Unix owners (Windows) only the link rules apply.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT_UID = 0;

/** One thing wrong with the authority's files: what, and the one command that puts it right. */
export interface AuthorityProblem {
  readonly what: string;
  readonly remedy: string;
}

function uid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}

function mode(stat: fs.Stats): string {
  return (stat.mode & 0o7777).toString(8).padStart(4, '0');
}

const removeIt = (dir: string): string => `remove it (rm -r '${dir}'; kactl makes a new authority at the next --tls start)`;

/** The first folder above `dir` that others could change, or undefined when none can. */
function openAncestor(dir: string, me: number): AuthorityProblem | undefined {
  for (let above = path.dirname(dir); ; above = path.dirname(above)) {
    const stat = fs.lstatSync(above);
    const owner = stat.uid === me || stat.uid === ROOT_UID;
    const othersWrite = (stat.mode & 0o022) !== 0 && (stat.mode & 0o1000) === 0;
    if (!stat.isDirectory() || !owner || othersWrite) {
      const why = !owner ? `belongs to another user (uid ${stat.uid})` : `can be changed by other users (mode ${mode(stat)}, not sticky)`;
      return { what: `${above}, a folder above it, ${why}`, remedy: `keep the data folder (KACTL_DATA_DIR) in a folder only you and root can change` };
    }
    if (path.dirname(above) === above) return undefined;
  }
}

/** What is wrong with the folder `dir` (`<data folder>/ca`), or undefined. It must exist. */
export function folderProblem(dir: string): AuthorityProblem | undefined {
  const real = path.join(fs.realpathSync.native(path.dirname(dir)), path.basename(dir));
  const stat = fs.lstatSync(real);
  if (stat.isSymbolicLink()) return { what: `${dir} is a symbolic link`, remedy: removeIt(dir) };
  if (!stat.isDirectory()) return { what: `${dir} is not a folder`, remedy: removeIt(dir) };
  const me = uid();
  if (me === undefined) return undefined;
  if (stat.uid !== me) return { what: `${dir} belongs to another user (uid ${stat.uid})`, remedy: removeIt(dir) };
  if ((stat.mode & 0o077) !== 0) return { what: `${dir} is open to other users (mode ${mode(stat)})`, remedy: `chmod 700 '${dir}'` };
  return openAncestor(real, me);
}

/** What is wrong with an open authority file, or undefined. */
function fileProblem(file: string, stat: fs.Stats, secret: boolean): AuthorityProblem | undefined {
  const dir = path.dirname(file);
  if (!stat.isFile()) return { what: `${file} is not a plain file`, remedy: removeIt(dir) };
  if (stat.nlink !== 1) return { what: `${file} has ${stat.nlink} hard links (another name for it may be someone else's)`, remedy: removeIt(dir) };
  const me = uid();
  if (me === undefined) return undefined;
  if (stat.uid !== me) return { what: `${file} belongs to another user (uid ${stat.uid})`, remedy: removeIt(dir) };
  if (secret && (stat.mode & 0o077) !== 0) return { what: `${file} is open to other users (mode ${mode(stat)})`, remedy: `chmod 600 '${file}', and make a new authority if anyone may have read it (kactl sandbox ca --rotate)` };
  if ((stat.mode & 0o022) !== 0) return { what: `${file} can be written by other users (mode ${mode(stat)})`, remedy: removeIt(dir) };
  return undefined;
}

/** Why a file cannot be opened as an authority file: a link, or the system's reason. */
function openFailure(file: string, error: unknown): AuthorityProblem | 'missing' {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'missing';
  if (code === 'ELOOP') return { what: `${file} is a symbolic link`, remedy: removeIt(path.dirname(file)) };
  return { what: `${file} cannot be read (${code ?? (error as Error).message})`, remedy: removeIt(path.dirname(file)) };
}

/**
 * Reads an authority file, or returns what is wrong with it (`missing` when there is none). The
 * file is opened without following a link and judged on what was opened, so what is checked is
 * what is read.
 */
export function readAuthorityFile(file: string, secret: boolean): { text: string } | AuthorityProblem | 'missing' {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    return openFailure(file, error);
  }
  try {
    return fileProblem(file, fs.fstatSync(fd), secret) ?? { text: fs.readFileSync(fd, 'utf8') };
  } finally {
    fs.closeSync(fd);
  }
}

/** Whether a path exists as itself (a dangling or any other link counts: it is there). */
export function entryExists(file: string): boolean {
  try {
    fs.lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/** The folder a new authority is made in may be written: it and every folder above it are safe. */
export function dataFolderProblem(dataDir: string): AuthorityProblem | undefined {
  const me = uid();
  if (me === undefined) return undefined;
  const real = fs.realpathSync.native(dataDir);
  const stat = fs.lstatSync(real);
  const owner = stat.uid === me || stat.uid === ROOT_UID;
  if (!owner || ((stat.mode & 0o022) !== 0 && (stat.mode & 0o1000) === 0)) {
    const why = !owner ? `belongs to another user (uid ${stat.uid})` : `can be changed by other users (mode ${mode(stat)}, not sticky)`;
    return { what: `the data folder ${dataDir} ${why}`, remedy: 'keep the data folder (KACTL_DATA_DIR) in a folder only you and root can change' };
  }
  return openAncestor(real, me);
}
