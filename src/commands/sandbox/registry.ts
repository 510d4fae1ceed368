/**
 * The running sandboxes of this data folder: one small JSON file per sandbox in
 * `<data folder>/sandboxes/`, written by the serving process itself (foreground or `--detach`)
 * and removed by it when it has closed its store. `status` lists them, `stop` signals them, and
 * `start` refuses a data file another live sandbox already serves (SQLite would let two servers
 * share it, each with its own clock and rate limits: a confusing half-shared state).
 *
 * A file store's entry is named after a hash of its absolute path and created exclusively, so
 * two starts racing for one file cannot both win. An entry whose process has gone (killed with
 * SIGKILL, machine restarted) is stale and swept away when read.
 *
 * An entry is believed only as far as it checks out: its pid must be one kactl may signal (an
 * integer above 1: -1 would signal every process, 0 our own group, 1 init), and the process
 * with that pid must still have the identity the sandbox recorded for itself (start time and
 * command line, process-identity.ts). Anything else is a stale or foreign entry: never listed,
 * never signalled. Its id is its file name, never a value read from the file.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { KactlError, UsageError } from '../../errors.js';
import { isIdentity, isSignallablePid, processIdentity, sameIdentity, sandboxIdentity, type ProcessIdentity } from './process-identity.js';
import { makeDir } from '../../util/make-dir.js';
import { writeFileAtomicSync } from '../../util/atomic-file.js';

export const MEMORY_STORE = ':memory:';

export interface SandboxEntry {
  /** File name without `.json`. */
  readonly id: string;
  readonly pid: number;
  /** `starting` until the server listens and its profile is saved. */
  readonly state: 'starting' | 'ready';
  /** Absolute path of the store, or `:memory:`. */
  readonly data: string;
  readonly baseUrl?: string;
  /** The profile it saved (none with --no-profile). */
  readonly profile?: string | null;
  /** Whether the profile name was picked automatically (`sandbox-<port>`), so `stop` may remove it. */
  readonly autoProfile?: boolean;
  /**
   * SHA-256 (hex) of the admin token the sandbox saved in its profile (never the token): a
   * profile is removed on the entry's account only while it still holds that token.
   */
  readonly adminTokenDigest?: string | null;
  /** The serving process's start time and command line digest, recorded by itself. */
  readonly process: ProcessIdentity;
  /** HTTPS (`--tls`) only: the authority's certificate file, and the host name the certificate names. */
  readonly caFile?: string | null;
  readonly hostname?: string | null;
  /** Where a `--detach` sandbox writes its log; null in the foreground. */
  readonly logFile?: string | null;
  /** ISO 8601. */
  readonly startedAt: string;
}

export function registryDir(dataDir: string): string {
  return path.join(dataDir, 'sandboxes');
}

export function entryId(data: string, pid: number): string {
  if (data === MEMORY_STORE) return `memory-${pid}`;
  return `file-${createHash('sha256').update(data).digest('hex').slice(0, 16)}`;
}

function entryPath(dataDir: string, id: string): string {
  return path.join(registryDir(dataDir), `${id}.json`);
}

/** An entry is a few hundred bytes; anything much larger is not one (and is not read whole). */
const MAX_ENTRY_BYTES = 64 * 1024;

const optional = (value: unknown, type: 'string' | 'boolean'): boolean => value === undefined || value === null || typeof value === type;

function isEntry(value: unknown): value is Omit<SandboxEntry, 'id'> {
  const entry = value as Record<string, unknown> | null;
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return false;
  return (
    isSignallablePid(entry.pid) &&
    (entry.state === 'starting' || entry.state === 'ready') &&
    typeof entry.data === 'string' &&
    typeof entry.startedAt === 'string' &&
    isIdentity(entry.process) &&
    ['baseUrl', 'profile', 'adminTokenDigest', 'caFile', 'hostname', 'logFile'].every((key) => optional(entry[key], 'string')) &&
    optional(entry.autoProfile, 'boolean')
  );
}

function readEntry(file: string): SandboxEntry | undefined {
  try {
    if (fs.statSync(file).size > MAX_ENTRY_BYTES) return undefined;
    const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    return isEntry(parsed) ? { ...parsed, id: path.basename(file, '.json') } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the entry's pid is still the very process that registered it. */
export function isSameSandbox(entry: SandboxEntry): boolean {
  return sameIdentity(sandboxIdentity(entry.pid), entry.process);
}

function live(entry: SandboxEntry | undefined): entry is SandboxEntry {
  return entry !== undefined && isSameSandbox(entry);
}

/** Live entries, oldest first; stale ones are removed on the way, and told to `onStale`. */
export function listSandboxes(dataDir: string, onStale?: (entry: SandboxEntry) => void): SandboxEntry[] {
  let names: string[];
  try {
    names = fs.readdirSync(registryDir(dataDir)).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  const entries: SandboxEntry[] = [];
  for (const name of names) {
    const file = path.join(registryDir(dataDir), name);
    const entry = readEntry(file);
    if (live(entry)) {
      entries.push(entry);
    } else if (entry !== undefined || isOld(file)) {
      fs.rmSync(file, { force: true });
      if (entry !== undefined) onStale?.(entry);
    }
  }
  return entries.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}

/** An unreadable entry may be one being written right now; only an old one is garbage. */
function isOld(file: string): boolean {
  try {
    return Date.now() - fs.statSync(file).mtimeMs > 10_000;
  } catch {
    return false;
  }
}

function describe(entry: SandboxEntry): string {
  return entry.baseUrl ? `the sandbox at ${entry.baseUrl} (pid ${entry.pid})` : `a sandbox that is starting (pid ${entry.pid})`;
}

/**
 * Records that `pid` (this process) is starting a sandbox on `data`, with its identity. Refuses
 * (exit 2) when a live sandbox already serves that file; a dead one's entry is replaced, and
 * told to `onStale`.
 */
export function claimSandbox(dataDir: string, entry: Omit<SandboxEntry, 'id' | 'state' | 'process'>, onStale?: (entry: SandboxEntry) => void): SandboxEntry {
  const own = processIdentity(entry.pid);
  if (own === undefined) {
    throw new KactlError(
      `kactl cannot read its own start time and command line (pid ${entry.pid}), which \`sandbox stop\` needs to tell this sandbox from a process that later reuses its pid.`,
      'FAILURE',
    );
  }
  if (!own.isSandbox) {
    throw new UsageError('`sandbox stop` could not recognise this process by its command line: run it as `kactl sandbox start` (the script named kactl or kactl.js).');
  }
  const { identity } = own;
  const id = entryId(entry.data, entry.pid);
  const file = entryPath(dataDir, id);
  const claimed: SandboxEntry = { ...entry, id, state: 'starting', process: identity };
  makeDir(registryDir(dataDir));
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(claimed), { flag: 'wx', mode: 0o600 });
      return claimed;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readEntry(file);
    if (live(holder)) {
      throw new UsageError(`The store ${entry.data} is already served by ${describe(holder)}.`, {
        hints: [`Stop it with: kactl sandbox stop${holder.profile ? ` ${holder.profile}` : ` ${holder.pid}`}   (or give another --data)`],
      });
    }
    fs.rmSync(file, { force: true });
    if (holder !== undefined) onStale?.(holder);
  }
  throw new UsageError(`Another kactl is starting a sandbox on ${entry.data} right now; try again in a moment.`);
}

/** Rewrites our entry (atomically: readers never see half a file). */
export function updateSandbox(dataDir: string, entry: SandboxEntry): void {
  // Not flushed to disk: an entry only describes a live process, which a crash ends too.
  writeFileAtomicSync(entryPath(dataDir, entry.id), JSON.stringify(entry), { flush: false });
}

/** Removes our entry, unless another process holds it by now. */
export function releaseSandbox(dataDir: string, entry: SandboxEntry): void {
  const file = entryPath(dataDir, entry.id);
  if (readEntry(file)?.pid === entry.pid) fs.rmSync(file, { force: true });
}

/** Removes an entry whatever it says (stop, after its process has gone without cleaning up). */
export function forgetSandbox(dataDir: string, entry: SandboxEntry): void {
  fs.rmSync(entryPath(dataDir, entry.id), { force: true });
}

/** Whether the entry is still there (the process removes it once its store is closed). */
export function isRegistered(dataDir: string, entry: SandboxEntry): boolean {
  return readEntry(entryPath(dataDir, entry.id))?.pid === entry.pid;
}
