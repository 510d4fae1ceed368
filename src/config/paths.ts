/**
 * Where kactl keeps its files. The same folders the conf package picks with `projectSuffix: ''`
 * (env-paths rules), but computed from the injected environment so tests and `profile show`
 * see exactly what the command will use.
 */
import os from 'node:os';
import path from 'node:path';
import type { EnvRecord } from '../env.js';
import { DATA_DIR_IN_CONFIG_DIR, readEnv } from '../env.js';

const APP = 'kactl';

function nonEmpty(env: EnvRecord, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

function home(env: EnvRecord): string {
  return nonEmpty(env, 'HOME') ?? os.homedir();
}

function platformDirs(env: EnvRecord): { config: string; data: string } {
  const h = home(env);
  if (process.platform === 'darwin') {
    const library = path.join(h, 'Library');
    return { config: path.join(library, 'Preferences', APP), data: path.join(library, 'Application Support', APP) };
  }
  if (process.platform === 'win32') {
    const appData = nonEmpty(env, 'APPDATA') ?? path.join(h, 'AppData', 'Roaming');
    const localAppData = nonEmpty(env, 'LOCALAPPDATA') ?? path.join(h, 'AppData', 'Local');
    return { config: path.join(appData, APP, 'Config'), data: path.join(localAppData, APP, 'Data') };
  }
  return {
    config: path.join(nonEmpty(env, 'XDG_CONFIG_HOME') ?? path.join(h, '.config'), APP),
    data: path.join(nonEmpty(env, 'XDG_DATA_HOME') ?? path.join(h, '.local', 'share'), APP),
  };
}

/** The folder holding config.json: `$KACTL_CONFIG_DIR`, else the XDG config folder. */
export function configDir(env: EnvRecord): string {
  return readEnv(env, 'KACTL_CONFIG_DIR') ?? platformDirs(env).config;
}

/**
 * The folder for backups, pacing state and the default sandbox store: `$KACTL_DATA_DIR`, else
 * `$KACTL_CONFIG_DIR/data` when that is set (so one variable isolates a test run), else the
 * XDG data folder. `kactl help environment` says the same from ENV_VARS (src/env.ts), which
 * names the subfolder with the same constant.
 */
export function dataDir(env: EnvRecord): string {
  const explicit = readEnv(env, 'KACTL_DATA_DIR');
  if (explicit) return explicit;
  const config = readEnv(env, 'KACTL_CONFIG_DIR');
  return config ? path.join(config, DATA_DIR_IN_CONFIG_DIR) : platformDirs(env).data;
}
