/**
 * Doctor's checks of this machine, before any server is asked: the files that hold secrets are
 * private, the config and data folders take a write (a probe file, really written and removed),
 * the data folder has room, and the sandbox's native module loads in this Node. Each is what a
 * later command would otherwise fail on half way.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { systemSays } from '../../io/storage-errors.js';
import { makeDir } from '../../util/make-dir.js';
import { fail, pass, type CheckResult } from './results.js';
import { loadNativeModule, nativeModuleFailure } from '../../server/store/native-module.js';


/** Below this, a backup of a large app or the sandbox store's write-ahead log may not fit. */
export const MIN_FREE_BYTES = 32 * 1024 * 1024;

/** What may live in the data folder, all of it kactl's: the store, the registry, pacing, backups, caches. */
const DATA_ENTRIES = ['sandbox.db', 'sandbox.db-wal', 'sandbox.db-shm', 'sandboxes', 'pacing', 'backups', 'completion', 'recovery'];

function statOf(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch {
    return undefined;
  }
}

interface Rule {
  /** The mode to set. */
  readonly mode: number;
  /** Bits that must not be set. */
  readonly forbidden: number;
}

/** Files hold keys, sessions, the store's secrets: nobody else may read them. */
const PRIVATE_FILE: Rule = { mode: 0o600, forbidden: 0o077 };
/** Folders kactl made itself (0700), holding files made with the umask's mode (SQLite's -wal). */
const PRIVATE_FOLDER: Rule = { mode: 0o700, forbidden: 0o077 };
/**
 * The config folder may be one the user made (`mkdir`, 0755): reading it shows only a file name,
 * and config.json is 0600. Others writing to it could swap config.json.
 */
const CONFIG_FOLDER: Rule = { mode: 0o700, forbidden: 0o022 };

/** The folder and its direct entries (a lock is a folder), each with its rule. */
function privateTree(dir: string): [string, Rule][] {
  const found: [string, Rule][] = [[dir, PRIVATE_FOLDER]];
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return found;
  }
  for (const name of names) {
    const file = path.join(dir, name);
    found.push([file, statOf(file)?.isDirectory() ? PRIVATE_FOLDER : PRIVATE_FILE]);
  }
  return found;
}

/**
 * Files that hold secrets must be 0600 and kactl's own folders 0700: config.json, and in the data
 * folder the sandbox store (with its -wal and -shm), the registry of running sandboxes and their
 * logs, the pacing state, backups, completion caches and recovered keys.
 */
export function checkPermissions(configDir: string, dataDir: string): CheckResult {
  const wanted: [string, Rule][] = [
    [configDir, CONFIG_FOLDER],
    [path.join(configDir, 'config.json'), PRIVATE_FILE],
  ];
  const data = statOf(dataDir);
  // A data folder shared on purpose (KACTL_DATA_DIR=/tmp, sticky) is not kactl's to chmod.
  if (data !== undefined && (data.mode & 0o1000) === 0) wanted.push([dataDir, PRIVATE_FOLDER]);
  for (const name of DATA_ENTRIES) {
    const file = path.join(dataDir, name);
    const stat = statOf(file);
    if (stat === undefined) continue;
    if (stat.isDirectory()) wanted.push(...privateTree(file));
    else wanted.push([file, PRIVATE_FILE]);
  }
  const wrong = wanted
    .map(([file, rule]) => ({ file, rule, actual: statOf(file)?.mode }))
    .filter(({ actual, rule }) => actual !== undefined && (actual & rule.forbidden) !== 0);
  if (wrong.length > 0) {
    const first = wrong[0]!;
    const more = wrong.length > 1 ? ` and ${wrong.length - 1} more` : '';
    const mode = (first.actual! & 0o777).toString(8).padStart(4, '0');
    return fail('permissions', `${first.file} is ${mode}${more}; run: chmod ${first.rule.mode.toString(8)} ${first.file}`);
  }
  return pass('permissions', `config and data private to you (${configDir}, ${dataDir})`);
}

/** The folders `makeDir(dir)` would create, outermost first. */
function missingFolders(dir: string): string[] {
  const missing: string[] = [];
  for (let current = path.resolve(dir); !fs.existsSync(current) && path.dirname(current) !== current; current = path.dirname(current)) {
    missing.unshift(current);
  }
  return missing;
}

/**
 * Writes, syncs and removes a probe file in `dir`, creating the folder as kactl would and
 * removing what it created: doctor leaves nothing behind.
 */
export function checkWritable(check: string, dir: string, variable: string): CheckResult {
  const created = missingFolders(dir);
  const probe = path.join(dir, `.kactl-doctor-${randomBytes(4).toString('hex')}`);
  try {
    makeDir(dir);
    const fd = fs.openSync(probe, 'wx', 0o600);
    try {
      fs.writeSync(fd, 'kactl doctor: can this folder be written?\n');
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    return pass(check, `${dir} takes a write`);
  } catch (error) {
    return fail(check, `${dir} cannot be written: ${systemSays(error)}; set ${variable} to a folder you can write`);
  } finally {
    const remove = (undo: () => void): void => {
      try {
        undo();
      } catch {
        // Never made (the folder could not be), or no longer empty: left as it is.
      }
    };
    remove(() => fs.rmSync(probe, { force: true }));
    // Only while empty: another kactl may have saved something in a folder doctor made.
    for (const folder of created.reverse()) remove(() => fs.rmdirSync(folder));
  }
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${Math.floor(bytes / 1024)} KiB`;
}

/** Room left for the data folder (where it is, or where it would be created). */
export function checkFreeSpace(dataDir: string, minimum = MIN_FREE_BYTES): CheckResult {
  let existing = path.resolve(dataDir);
  while (!fs.existsSync(existing) && path.dirname(existing) !== existing) existing = path.dirname(existing);
  let free: number;
  try {
    const stats = fs.statfsSync(existing);
    free = stats.bavail * stats.bsize;
  } catch (error) {
    return fail('free space', `${existing}: ${systemSays(error)}`);
  }
  const text = `${formatBytes(free)} free for ${dataDir}`;
  if (free >= minimum) return pass('free space', text);
  return fail('free space', `only ${text} (kactl wants ${formatBytes(minimum)} for backups and the sandbox store); free some space or set KACTL_DATA_DIR to a folder on another disk`);
}

/** The sandbox's better-sqlite3 loads and opens a database in this Node. */
export async function checkNativeModule(nodeVersion: string): Promise<CheckResult> {
  try {
    loadNativeModule();
    return pass('sandbox module', `better-sqlite3 loads in Node ${nodeVersion}`);
  } catch (error) {
    return fail('sandbox module', (nativeModuleFailure(error, nodeVersion)?.message ?? `better-sqlite3 does not load: ${systemSays(error)}`).replace(/\.$/, ''));
  }
}
