/**
 * The profile store: one JSON file read and written through conf (atomic writes, mode 0600).
 * conf re-reads the file on every access and writes the whole object back, so two processes
 * doing read-modify-write at once could each lose the other's change; every change here runs
 * inside a cross-process lock instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import Conf from 'conf';
import type { ConfigFile, ProfileData } from './types.js';
import { withFileLockSync } from '../util/file-lock.js';

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

function normalise(raw: unknown): ConfigFile {
  const data = (raw && typeof raw === 'object' ? raw : {}) as Partial<ConfigFile>;
  const profiles = data.profiles && typeof data.profiles === 'object' ? data.profiles : {};
  return typeof data.active === 'string' ? { active: data.active, profiles } : { profiles };
}

export class ConfigStore {
  private readonly conf: Conf<Record<string, unknown>>;
  readonly path: string;
  private readonly lockPath: string;

  constructor(readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true, mode: DIR_MODE });
    this.conf = new Conf({ cwd: dir, configName: 'config', projectSuffix: '', configFileMode: FILE_MODE });
    this.path = this.conf.path;
    this.lockPath = path.join(dir, '.config.lock');
  }

  /** The whole file as it is on disk now. */
  read(): ConfigFile {
    return normalise(this.conf.store);
  }

  /**
   * Change the file under the lock: `change` gets a fresh copy read inside the lock and edits
   * it in place. Returns what was written.
   */
  update(change: (config: ConfigFile) => void): ConfigFile {
    return withFileLockSync(this.lockPath, () => {
      const config = this.read();
      change(config);
      this.conf.store = config as unknown as Record<string, unknown>;
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
