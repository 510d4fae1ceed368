/**
 * The Context's settings and profile access: kactl's folders, the profile store, the resolved
 * settings (flag > env > profile > default), the profile in use and its stored client session.
 * Settings are resolved once per set of global options.
 */
import type { EnvRecord } from '../env.js';
import type { ConfigStore } from '../config/store.js';
import type { ResolvedSettings } from '../config/settings.js';
import type { ProfileData } from '../config/types.js';
import type { ClientSessionStore } from '../config/client-session.js';
import { configDir, dataDir } from '../config/paths.js';
import { UsageError } from '../errors.js';
import type { GlobalOptions } from './globals.js';

/** The profile that holds sessions when none is selected (a script using only env variables). */
export const IMPLICIT_PROFILE = 'default';

export class Profiles {
  private store: ConfigStore | undefined;
  private resolved: ResolvedSettings | undefined;

  constructor(
    private readonly env: EnvRecord,
    private readonly globals: () => GlobalOptions,
  ) {}

  /** The global options changed: settings are resolved again. */
  reset(): void {
    this.resolved = undefined;
  }

  get configDir(): string {
    return configDir(this.env);
  }

  get dataDir(): string {
    return dataDir(this.env);
  }

  /** The profile store (loaded lazily). Depends on: configDir (env). */
  async config(): Promise<ConfigStore> {
    if (!this.store) {
      const { ConfigStore } = await import('../config/store.js');
      this.store = new ConfigStore(this.configDir);
    }
    return this.store;
  }

  /** flag > env > profile > default, with sources. Depends on: config, env, the global options. */
  async settings(): Promise<ResolvedSettings> {
    if (!this.resolved) {
      const { resolveSettings, resolveProfileName, settingFlagsFrom } = await import('../config/settings.js');
      const store = await this.config();
      const file = store.read();
      const globals = this.globals();
      const profileName = resolveProfileName(globals.profile, this.env, file.active);
      const profile = profileName.value ? file.profiles[profileName.value] : undefined;
      if (profileName.value && !profile && profileName.source !== 'profile') {
        throw new UsageError(`No profile named "${profileName.value}" (from ${profileName.source === 'flag' ? '--profile' : 'KACTL_PROFILE'}).`, {
          hints: [`See the profiles with: kactl profile list`],
        });
      }
      const flags = settingFlagsFrom({ ...globals });
      this.resolved = resolveSettings({ flags, env: this.env, profileName, profile });
    }
    return this.resolved;
  }

  /** The profile client sessions are kept in: the selected one, else `default`. Depends on: settings. */
  async sessionProfileName(): Promise<string> {
    return (await this.settings()).profile.value ?? IMPLICIT_PROFILE;
  }

  /** Saved profile data for the profile in use, if any. Depends on: settings, config. */
  async currentProfile(): Promise<ProfileData | undefined> {
    const name = (await this.settings()).profile.value;
    return name ? (await this.config()).profile(name) : undefined;
  }

  /**
   * The stored client session of the configured server and app, and the rule that ties a
   * session to them (src/config/client-session.ts). Depends on: settings, config.
   */
  async clientSession(): Promise<ClientSessionStore> {
    const settings = await this.settings();
    const { ClientSessionStore, sessionOrigin } = await import('../config/client-session.js');
    const { baseUrl, appName, ownerid } = settings;
    const origin = baseUrl.value && appName.value && ownerid.value ? sessionOrigin(baseUrl.value, appName.value, ownerid.value) : undefined;
    return new ClientSessionStore(await this.config(), await this.sessionProfileName(), origin);
  }
}
