/**
 * The profile store: one JSON file (tab-indented, as kactl has always written it), mode 0600.
 * Every change is a read-modify-write of the whole file, so it runs inside a cross-process lock
 * (two processes would otherwise each lose the other's change) and is written atomically
 * (src/util/atomic-file.ts: a temporary file, flushed, renamed over the file).
 *
 * Reads are cached for the run: a command asks for the file several times (settings, the
 * session, the profile), and reading and parsing it each time is most of what those asks cost.
 * The cache holds while the file on disk is the one it was read from (same inode, size and
 * modification time: every write here makes a new inode), so a change made by another process
 * is seen at the next read.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ConfigFile, ProfileData } from './types.js';
import { writeFileAtomicSync } from '../util/atomic-file.js';
import { withFileLockSync } from '../util/file-lock.js';
import { makeDir } from '../util/make-dir.js';

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

function normalise(raw: unknown): ConfigFile {
  const data = (raw && typeof raw === 'object' ? raw : {}) as Partial<ConfigFile>;
  const profiles = data.profiles && typeof data.profiles === 'object' ? data.profiles : {};
  return typeof data.active === 'string' ? { active: data.active, profiles } : { profiles };
}

/** What identifies one version of the file on disk ('' when there is none). */
function versionOf(stat: fs.Stats | undefined): string {
  return stat === undefined ? '' : `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
}

export class ConfigStore {
  readonly path: string;
  private readonly lockPath: string;
  /** The file as last read or written, and which version of it that was. */
  private cached: { version: string; config: ConfigFile } | undefined;

  constructor(readonly dir: string) {
    // The folder is made by the first write: reading needs none, so a folder that cannot be
    // made (a read-only home) fails only the commands that save something, with its reason.
    this.path = path.join(dir, 'config.json');
    this.lockPath = path.join(dir, '.config.lock');
  }

  /**
   * The whole file as it is on disk now. Shared with later reads of this run: read it, never
   * change it (update() hands out a copy of its own to change).
   */
  read(): ConfigFile {
    const version = versionOf(this.stat());
    if (this.cached?.version === version) return this.cached.config;
    const config = this.readFresh();
    // Cached under the version seen before reading: a write in between only costs a re-read.
    this.cached = { version, config };
    return config;
  }

  /**
   * Change the file under the lock: `change` gets a fresh copy read inside the lock and edits
   * it in place. Returns what was written.
   */
  update(change: (config: ConfigFile) => void): ConfigFile {
    makeDir(this.dir, DIR_MODE);
    return withFileLockSync(this.lockPath, () => {
      const config = this.readFresh();
      change(config);
      const text = JSON.stringify(config, undefined, '\t');
      writeFileAtomicSync(this.path, text, { mode: FILE_MODE });
      // Its own copy: the caller may go on changing what it gets back.
      this.cached = { version: versionOf(this.stat()), config: normalise(JSON.parse(text)) };
      return config;
    });
  }

  profile(name: string): ProfileData | undefined {
    return this.read().profiles[name];
  }

  /** Merge `fields` into the profile (creating it); `undefined` values remove a field. */
  updateProfile(name: string, fields: Partial<ProfileData>): ProfileData {
    let result: ProfileData = {};
    this.update((config) => {
      const merged: ProfileData = { ...config.profiles[name], ...fields };
      for (const key of Object.keys(merged) as (keyof ProfileData)[]) {
        if (merged[key] === undefined) delete merged[key];
      }
      config.profiles[name] = merged;
      result = merged;
    });
    return result;
  }

  private stat(): fs.Stats | undefined {
    return fs.statSync(this.path, { throwIfNoEntry: false });
  }

  private readFresh(): ConfigFile {
    let text: string;
    try {
      text = fs.readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return normalise({});
      throw error;
    }
    return normalise(JSON.parse(text));
  }
}
