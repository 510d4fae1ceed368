/**
 * The profile store: one JSON file, written through conf (atomic writes, mode 0600). conf
 * writes the whole object back, so two processes doing read-modify-write at once could each
 * lose the other's change; every change here runs inside a cross-process lock instead.
 *
 * Reads parse the file directly, as conf would (JSON.parse; a missing file is empty): conf
 * itself brings ajv and semver along, which cost a read-only command more than its request.
 * conf is loaded the first time something is written.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type Conf from 'conf';
import type { ConfigFile, ProfileData } from './types.js';
import { withFileLockSync } from '../util/file-lock.js';
import { makeDir } from '../util/make-dir.js';

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

function normalise(raw: unknown): ConfigFile {
  const data = (raw && typeof raw === 'object' ? raw : {}) as Partial<ConfigFile>;
  const profiles = data.profiles && typeof data.profiles === 'object' ? data.profiles : {};
  return typeof data.active === 'string' ? { active: data.active, profiles } : { profiles };
}

export class ConfigStore {
  private writer: Conf<Record<string, unknown>> | undefined;
  readonly path: string;
  private readonly lockPath: string;

  constructor(readonly dir: string) {
    // The folder is made by the first write: reading needs none, so a folder that cannot be
    // made (a read-only home) fails only the commands that save something, with its reason.
    // conf's own name for the file (cwd + configName + .json).
    this.path = path.join(dir, 'config.json');
    this.lockPath = path.join(dir, '.config.lock');
  }

  /** The whole file as it is on disk now. */
  read(): ConfigFile {
    let text: string;
    try {
      text = fs.readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return normalise({});
      throw error;
    }
    return normalise(JSON.parse(text));
  }

  private conf(): Conf<Record<string, unknown>> {
    if (!this.writer) {
      // Synchronous on purpose (every caller of update() is); a bundle inlines conf here.
      const { default: ConfClass } = loadConf();
      this.writer = new ConfClass({ cwd: this.dir, configName: 'config', projectSuffix: '', configFileMode: FILE_MODE });
    }
    return this.writer;
  }

  /**
   * Change the file under the lock: `change` gets a fresh copy read inside the lock and edits
   * it in place. Returns what was written.
   */
  update(change: (config: ConfigFile) => void): ConfigFile {
    makeDir(this.dir, DIR_MODE);
    return withFileLockSync(this.lockPath, () => {
      const config = this.read();
      change(config);
      this.conf().store = config as unknown as Record<string, unknown>;
      // conf writes new files 0600, but a file made by an older tool keeps its mode until now.
      fs.chmodSync(this.path, FILE_MODE);
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
}

/**
 * conf, loaded synchronously where the first write needs it (require of an ES module: Node
 * >= 20.19, the engines floor). Resolved at run time from node_modules, never bundled.
 */
function loadConf(): { default: typeof Conf } {
  return createRequire(import.meta.url)('conf') as { default: typeof Conf };
}
