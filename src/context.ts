/**
 * The Context: what a command needs from the outside world, built lazily so that a command
 * pays only for what it uses (and `--help` pays for nothing). Commands never reach for
 * process globals; tests build a Context over buffers and a temp config folder.
 */
import type { EnvRecord } from './env.js';
import type { IOStreams, InputStream, OutputStream } from './io/streams.js';
import { createIOStreams } from './io/streams.js';
import type { OutputFormat } from './io/format.js';
import { Output } from './io/output.js';
import type { Prompter } from './io/prompter.js';
import type { ConfigStore } from './config/store.js';
import type { ResolvedSettings, SettingFlags } from './config/settings.js';
import type { ProfileData, StoredSession } from './config/types.js';
import type { ClientApi } from './api/client-api.js';
import type { SellerApi } from './api/seller-api.js';
import type { Transport } from './api/transport.js';
import { configDir, dataDir } from './config/paths.js';
import { sessionOrigin } from './config/session-origin.js';
import { UsageError } from './errors.js';

/** Options every command accepts (program-level and, hidden, on every leaf command). */
export interface GlobalOptions {
  profile?: string;
  json: boolean;
  output?: OutputFormat;
  yes: boolean;
  verbose: boolean;
  color: boolean;
  verify: boolean;
  baseUrl?: string;
  /** Seconds. */
  timeout?: number;
  appName?: string;
  ownerid?: string;
  appVersion?: string;
  publicKey?: string;
}

export const DEFAULT_GLOBALS: GlobalOptions = { json: false, yes: false, verbose: false, color: true, verify: true };

export interface SystemDeps {
  stdin: InputStream;
  stdout: OutputStream;
  stderr: OutputStream;
  env: EnvRecord;
  /** Aborted on Ctrl-C / SIGTERM. */
  signal: AbortSignal;
  now: () => number;
  /** Node version, platform and architecture (`kactl version`, `kactl doctor`). */
  runtime?: RuntimeInfo;
}

export interface RuntimeInfo {
  readonly node: string;
  readonly platform: string;
  readonly arch: string;
}

/** The profile that holds sessions when none is selected (a script using only env variables). */
export const IMPLICIT_PROFILE = 'default';

export class Context {
  readonly env: EnvRecord;
  readonly signal: AbortSignal;
  readonly now: () => number;
  readonly runtime: RuntimeInfo;
  private globalOptions: GlobalOptions = DEFAULT_GLOBALS;
  private streams: IOStreams | undefined;
  private writer: Output | undefined;
  private store: ConfigStore | undefined;
  private resolved: ResolvedSettings | undefined;
  private transportInstance: Transport | undefined;
  /** Set by a command that ends without an error but must not exit 0 (rare). */
  exitCode = 0;
  /** `kactl licenses create`: the command being run, for usage lines in errors. */
  currentCommand = 'kactl';

  constructor(private readonly deps: SystemDeps) {
    this.env = deps.env;
    this.signal = deps.signal;
    this.now = deps.now;
    this.runtime = deps.runtime ?? { node: 'unknown', platform: 'unknown', arch: 'unknown' };
  }

  get globals(): GlobalOptions {
    return this.globalOptions;
  }

  /** Called once the command line is parsed; IO and output depend on `--no-color`, `--json`, `-o`. */
  setGlobals(globals: GlobalOptions): void {
    if (globals.json && globals.output !== undefined && globals.output !== 'json') {
      throw new UsageError(`--json and -o ${globals.output} ask for different formats; give one of them.`);
    }
    this.globalOptions = globals;
    this.streams = undefined;
    this.writer = undefined;
    this.resolved = undefined;
  }

  get io(): IOStreams {
    this.streams ??= createIOStreams({ ...this.deps, noColor: !this.globalOptions.color });
    return this.streams;
  }

  get output(): Output {
    this.writer ??= new Output(this.io, { json: this.globalOptions.json, format: this.globalOptions.output });
    return this.writer;
  }

  /** A `--verbose` line on stderr (already redacted by the caller). */
  verbose(line: string): void {
    if (this.globalOptions.verbose) this.io.err(`${line}\n`);
  }

  get configDir(): string {
    return configDir(this.env);
  }

  get dataDir(): string {
    return dataDir(this.env);
  }

  async config(): Promise<ConfigStore> {
    if (!this.store) {
      const { ConfigStore } = await import('./config/store.js');
      this.store = new ConfigStore(this.configDir);
    }
    return this.store;
  }

  async settings(): Promise<ResolvedSettings> {
    if (!this.resolved) {
      const { resolveSettings, resolveProfileName } = await import('./config/settings.js');
      const store = await this.config();
      const file = store.read();
      const profileName = resolveProfileName(this.globalOptions.profile, this.env, file.active);
      const profile = profileName.value ? file.profiles[profileName.value] : undefined;
      if (profileName.value && !profile && profileName.source !== 'profile') {
        throw new UsageError(`No profile named "${profileName.value}" (from ${profileName.source === 'flag' ? '--profile' : 'KACTL_PROFILE'}).`, {
          hints: [`See the profiles with: kactl profile list`],
        });
      }
      const flags: SettingFlags = {};
      const g = this.globalOptions;
      if (g.baseUrl !== undefined) flags.baseUrl = g.baseUrl;
      if (g.appName !== undefined) flags.appName = g.appName;
      if (g.ownerid !== undefined) flags.ownerid = g.ownerid;
      if (g.appVersion !== undefined) flags.appVersion = g.appVersion;
      if (g.publicKey !== undefined) flags.publicKey = g.publicKey;
      if (g.timeout !== undefined) flags.timeout = g.timeout;
      this.resolved = resolveSettings({ flags, env: this.env, profileName, profile });
    }
    return this.resolved;
  }

  /** The profile client sessions are kept in: the selected one, else `default`. */
  async sessionProfileName(): Promise<string> {
    return (await this.settings()).profile.value ?? IMPLICIT_PROFILE;
  }

  async prompter(): Promise<Prompter> {
    const { createPrompter } = await import('./io/prompter.js');
    return createPrompter(this.io, this.signal);
  }

  /** One transport (one keep-alive agent) per process. */
  async transport(): Promise<Transport> {
    if (!this.transportInstance) {
      const { Transport } = await import('./api/transport.js');
      const settings = await this.settings();
      this.transportInstance = new Transport({
        timeoutMs: settings.timeout.value * 1000,
        signal: this.signal,
        ...(this.globalOptions.verbose ? { verbose: (line: string) => this.verbose(line) } : {}),
      });
    }
    return this.transportInstance;
  }

  async clientApi(): Promise<ClientApi> {
    const settings = await this.settings();
    const baseUrl = requireSetting(settings.baseUrl.value, 'server base URL', '--base-url or KACTL_BASE_URL');
    const appName = requireSetting(settings.appName.value, 'application name', '--app-name or KACTL_APP_NAME');
    const ownerid = requireSetting(settings.ownerid.value, 'application owner id', '--ownerid or KACTL_OWNERID');
    const { ClientApi } = await import('./api/client-api.js');
    const store = await this.config();
    const profileName = await this.sessionProfileName();
    const origin = sessionOrigin(baseUrl, appName, ownerid);
    return new ClientApi({
      baseUrl,
      appName,
      ownerid,
      appVersion: settings.appVersion.value,
      ...(settings.api.value ? { api: settings.api.value } : {}),
      method: settings.method.value,
      ...(settings.publicKey.value ? { publicKey: settings.publicKey.value } : {}),
      ...(settings.secret.value ? { secret: settings.secret.value } : {}),
      signatureWindowSec: settings.signatureWindow.value,
      verify: this.globalOptions.verify,
      transport: await this.transport(),
      warn: (line: string) => this.output.warn(line),
      now: this.now,
      signal: this.signal,
      session: {
        // A session belongs to one server and app: switching either must not reuse it.
        load: () => {
          const session = store.profile(profileName)?.session;
          return session?.origin === origin ? session : undefined;
        },
        save: (session: StoredSession | undefined) => {
          store.updateProfile(profileName, { session: session ? { ...session, origin } : undefined });
        },
      },
    });
  }

  /** `onWait` replaces the default pacing note (a bulk job shows it above its progress bar). */
  async sellerApi(options: { onWait?: (ms: number) => void } = {}): Promise<SellerApi> {
    const settings = await this.settings();
    const baseUrl = requireSetting(settings.baseUrl.value, 'server base URL', '--base-url or KACTL_BASE_URL');
    const sellerKey = requireSetting(settings.sellerKey.value, 'seller key', 'KACTL_SELLER_KEY or `kactl profile add … --seller-key-stdin`');
    const { SellerApi } = await import('./api/seller-api.js');
    const path = await import('node:path');
    return new SellerApi({
      baseUrl,
      sellerKey,
      ratePerMinute: settings.sellerRate.value,
      stateDir: path.join(this.dataDir, 'pacing'),
      transport: await this.transport(),
      warn: (line: string) => this.output.warn(line),
      onWait: options.onWait ?? ((ms: number) => this.output.note(pacingNote(ms))),
      now: this.now,
      signal: this.signal,
    });
  }

  /** Release what the run opened (keep-alive sockets would otherwise hold the process). */
  async close(): Promise<void> {
    await this.transportInstance?.close();
    this.transportInstance = undefined;
  }

  /** Saved profile data for the profile in use, if any. */
  async currentProfile(): Promise<ProfileData | undefined> {
    const name = (await this.settings()).profile.value;
    return name ? (await this.config()).profile(name) : undefined;
  }

}

export function pacingNote(ms: number): string {
  return `Pacing: waiting ${(ms / 1000).toFixed(1)} s to stay within the seller API budget.`;
}

function requireSetting<T>(value: T | undefined, what: string, how: string): T {
  if (value === undefined || value === '') {
    throw new UsageError(`No ${what} is configured; set ${how}, or choose a profile with --profile.`, {
      hints: ['Start a local sandbox (it saves a profile named "sandbox"): kactl sandbox start'],
    });
  }
  return value;
}
