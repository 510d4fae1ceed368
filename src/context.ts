/**
 * The Context: what a command needs from the outside world, built lazily so that a command
 * pays only for what it uses (and `--help` pays for nothing). Commands never reach for
 * process globals; tests build a Context over buffers and a temp config folder.
 *
 * Read it like gh's factory: each member says what it depends on, and nothing is built before
 * a command asks for it. The roots are the SystemDeps (streams, env, signal, clock) and the
 * parsed global options.
 */
import { readEnv, type EnvRecord } from './env.js';
import type { IOStreams, InputStream, LazyInput, OutputStream } from './io/streams.js';
import { createIOStreams } from './io/streams.js';
import type { OutputFormat } from './io/format.js';
import { Output } from './io/output.js';
import type { Prompter } from './io/prompter.js';
import type { ConfigStore } from './config/store.js';
import type { ResolvedSettings } from './config/settings.js';
import type { ProfileData } from './config/types.js';
import type { ClientSessionStore } from './config/client-session.js';
import type { ClientApi } from './api/client-api.js';
import type { SellerApi } from './api/seller-api.js';
import type { Transport } from './api/transport.js';
import type { RetryNotice } from './api/retry.js';
import { countdown, createWaitLine } from './io/wait-line.js';
import { configDir, dataDir } from './config/paths.js';
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
  /** False with `--no-header`: TSV and CSV lists without their header row. */
  header: boolean;
}

export const DEFAULT_GLOBALS: GlobalOptions = { json: false, yes: false, verbose: false, color: true, verify: true, header: true };

export interface SystemDeps {
  stdin: InputStream | LazyInput;
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
  private readonly otherTransports: Transport[] = [];
  private waitLine: ((text: string) => (() => void) | undefined) | undefined;
  /** The pacing state folder could not be written: later seller callers pace in memory. */
  private pacingInMemory = false;
  /** How far a sandbox's domain clock runs from ours (ms), once one has answered. */
  private serverClockOffsetMs = 0;
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

  /**
   * The server's "now" in ms: a sandbox's domain clock (it reports it on every answer; see
   * `kactl sandbox advance`) once one has answered in this run, else `now()`. Time left on
   * subscriptions and keys is counted from this.
   */
  serverNow(): number {
    return this.now() + this.serverClockOffsetMs;
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

  /** Depends on: the SystemDeps streams, `--no-color`. */
  get io(): IOStreams {
    this.streams ??= createIOStreams({ ...this.deps, noColor: !this.globalOptions.color });
    return this.streams;
  }

  /** Depends on: io, `--json`, `-o`, `--no-header`. */
  get output(): Output {
    this.writer ??= new Output(this.io, { json: this.globalOptions.json, format: this.globalOptions.output, header: this.globalOptions.header });
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

  /** The profile store (conf, loaded lazily). Depends on: configDir (env). */
  async config(): Promise<ConfigStore> {
    if (!this.store) {
      const { ConfigStore } = await import('./config/store.js');
      this.store = new ConfigStore(this.configDir);
    }
    return this.store;
  }

  /** flag > env > profile > default, with sources. Depends on: config, env, the global options. */
  async settings(): Promise<ResolvedSettings> {
    if (!this.resolved) {
      const { resolveSettings, resolveProfileName, settingFlagsFrom } = await import('./config/settings.js');
      const store = await this.config();
      const file = store.read();
      const profileName = resolveProfileName(this.globalOptions.profile, this.env, file.active);
      const profile = profileName.value ? file.profiles[profileName.value] : undefined;
      if (profileName.value && !profile && profileName.source !== 'profile') {
        throw new UsageError(`No profile named "${profileName.value}" (from ${profileName.source === 'flag' ? '--profile' : 'KACTL_PROFILE'}).`, {
          hints: [`See the profiles with: kactl profile list`],
        });
      }
      const flags = settingFlagsFrom({ ...this.globalOptions });
      this.resolved = resolveSettings({ flags, env: this.env, profileName, profile });
    }
    return this.resolved;
  }

  /** The profile client sessions are kept in: the selected one, else `default`. Depends on: settings. */
  async sessionProfileName(): Promise<string> {
    return (await this.settings()).profile.value ?? IMPLICIT_PROFILE;
  }

  /**
   * @inquirer prompts (loaded lazily). Depends on: io, signal. It does not check for a terminal:
   * go through src/io/ask.ts, which refuses with InputRequiredError when there is none.
   */
  async prompter(): Promise<Prompter> {
    const { createPrompter } = await import('./io/prompter.js');
    return createPrompter(this.io, this.signal);
  }

  /** One transport (one keep-alive agent) per process. Depends on: settings (timeout), signal, `--verbose`. */
  async transport(): Promise<Transport> {
    this.transportInstance ??= await this.newTransport(this.signal);
    return this.transportInstance;
  }

  private async newTransport(signal: AbortSignal): Promise<Transport> {
    const { Transport } = await import('./api/transport.js');
    const settings = await this.settings();
    const ca = await this.trustedAuthority(settings);
    return new Transport({
      timeoutMs: settings.timeout.value * 1000,
      ...(ca === undefined ? {} : { ca }),
      signal,
      onSandboxNow: (seconds: number) => {
        this.serverClockOffsetMs = seconds * 1000 - this.now();
      },
      ...(this.globalOptions.verbose ? { verbose: (line: string) => this.verbose(line) } : {}),
    });
  }

  /**
   * The certificate authority (PEM) to trust instead of the system's, for the server named beside
   * it only: `KACTL_CA_FILE` for the server `KACTL_BASE_URL` names, a profile's `caFile` for the
   * profile's own base URL. A `--base-url` elsewhere keeps the system's roots.
   */
  private async trustedAuthority(settings: ResolvedSettings): Promise<string | undefined> {
    if (settings.caFile.value === undefined) return undefined;
    const inUse = settings.baseUrl.value;
    const fromEnv = readEnv(this.env, 'KACTL_CA_FILE');
    let chosen: { file: string; owner: string; hint: string } | undefined;
    if (fromEnv !== undefined && inUse !== undefined && (await envBaseUrl(this.env)) === inUse) {
      chosen = { file: fromEnv, owner: 'KACTL_CA_FILE', hint: 'Point KACTL_CA_FILE at the sandbox\'s authority (kactl sandbox ca --path), or unset it.' };
    } else {
      const profile = await this.currentProfile();
      if (profile?.caFile !== undefined && profile.caFile !== '' && profile.baseUrl === inUse) {
        chosen = { file: profile.caFile, owner: `profile "${settings.profile.value ?? '?'}"`, hint: 'Start its sandbox again (kactl sandbox start --tls) to save it anew, or remove the profile.' };
      }
    }
    if (chosen === undefined) return undefined;
    const fs = await import('node:fs');
    try {
      return fs.readFileSync(chosen.file, 'utf8');
    } catch (error) {
      throw new UsageError(`The certificate authority of ${chosen.owner} (${chosen.file}) cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`, {
        hints: [chosen.hint],
      });
    }
  }

  /**
   * The stored client session of the configured server and app, and the rule that ties a
   * session to them (src/config/client-session.ts). Depends on: settings, config.
   */
  async clientSession(): Promise<ClientSessionStore> {
    const settings = await this.settings();
    const { ClientSessionStore, sessionOrigin } = await import('./config/client-session.js');
    const { baseUrl, appName, ownerid } = settings;
    const origin = baseUrl.value && appName.value && ownerid.value ? sessionOrigin(baseUrl.value, appName.value, ownerid.value) : undefined;
    return new ClientSessionStore(await this.config(), await this.sessionProfileName(), origin);
  }

  /** Depends on: settings, transport, clientSession, output (warnings), clock, signal. */
  async clientApi(): Promise<ClientApi> {
    const settings = await this.settings();
    const baseUrl = requireSetting(settings.baseUrl.value, 'server base URL', '--base-url or KACTL_BASE_URL');
    const appName = requireSetting(settings.appName.value, 'application name', '--app-name or KACTL_APP_NAME');
    const ownerid = requireSetting(settings.ownerid.value, 'application owner id', '--ownerid or KACTL_OWNERID');
    const { ClientApi } = await import('./api/client-api.js');
    const sessions = await this.clientSession();
    const { ProfileAnswerMemory } = await import('./config/answer-memory.js');
    const { skippedWrite } = await import('./io/storage-errors.js');
    const config = await this.config();
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
      noVerifyWarning: 'Not checking the server\'s answer signatures (--no-verify).',
      ...(await this.rateLimitCountdown()),
      transport: await this.transport(),
      warn: (line: string) => this.output.warn(line),
      now: this.now,
      signal: this.signal,
      session: { load: () => sessions.load(), save: (session) => sessions.save(session) },
      answerMemory: new ProfileAnswerMemory(config, sessions.profile, (error) => {
        this.output.warn(skippedWrite(error, 'Signed answers are not remembered for the replay check in this run', config.path, this));
      }),
    });
  }

  /**
   * `onWait` replaces the default pacing line (a bulk job shows it beside its progress bar).
   * `signal` replaces Ctrl-C as what aborts the calls (on a transport of their own): for a job
   * that finishes what it has started before it stops (src/state/run-plan.ts).
   * Depends on: settings, transport, dataDir (pacing state), output, clock, signal.
   */
  async sellerApi(options: { onWait?: (ms: number) => void | (() => void); signal?: AbortSignal } = {}): Promise<SellerApi> {
    const settings = await this.settings();
    const baseUrl = requireSetting(settings.baseUrl.value, 'server base URL', '--base-url or KACTL_BASE_URL');
    const sellerKey = requireSetting(settings.sellerKey.value, 'seller key', 'KACTL_SELLER_KEY or `kactl profile add … --seller-key-stdin`');
    const { SellerApi } = await import('./api/seller-api.js');
    const { skippedWrite } = await import('./io/storage-errors.js');
    const path = await import('node:path');
    return new SellerApi({
      baseUrl,
      sellerKey,
      ratePerMinute: settings.sellerRate.value,
      // A read-only or full data folder costs only the record other kactl processes share:
      // said once, and the rest of the run paces in memory.
      ...(this.pacingInMemory ? {} : { stateDir: path.join(this.dataDir, 'pacing') }),
      onPacingStateUnwritable: (error: unknown, stateDir: string) => {
        this.pacingInMemory = true;
        this.output.warn(skippedWrite(error, 'The seller API budget is counted in memory for this run only', stateDir, this));
      },
      transport: options.signal === undefined ? await this.transport() : await this.ownTransport(options.signal),
      warn: (line: string) => this.output.warn(line),
      onWait: options.onWait ?? ((ms: number) => this.showWait(pacingNote(ms))),
      ...(await this.rateLimitCountdown()),
      now: this.now,
      signal: options.signal ?? this.signal,
    });
  }

  /**
   * A wait (pacing) as one line redrawn in place on a terminal, or one note per run without one;
   * returns what clears the line.
   */
  showWait(text: string): (() => void) | undefined {
    this.waitLine ??= createWaitLine(this.io, (line) => this.output.note(`${line} Later waits are not reported.`));
    return this.waitLine(text);
  }

  /** On a terminal, rate-limit waits count down in place; without one the retry note says it once. */
  private async rateLimitCountdown(): Promise<{ countdown?: (notice: RetryNotice, signal?: AbortSignal) => Promise<void> }> {
    if (!this.io.isStderrTTY) return {};
    const { defaultSleep, retryNoticeLine } = await import('./api/retry.js');
    return { countdown: (notice, signal) => countdown(this.io, notice.delayMs, (left) => retryNoticeLine({ ...notice, delayMs: left }), defaultSleep, signal) };
  }

  /** A transport for `sellerApi({ signal })`, closed with the others. */
  private async ownTransport(signal: AbortSignal): Promise<Transport> {
    const transport = await this.newTransport(signal);
    this.otherTransports.push(transport);
    return transport;
  }

  /** Release what the run opened (keep-alive sockets would otherwise hold the process). */
  async close(): Promise<void> {
    const open = [this.transportInstance, ...this.otherTransports.splice(0)].filter((t): t is Transport => t !== undefined);
    await Promise.all(open.map((t) => t.close()));
    this.transportInstance = undefined;
  }

  /** Saved profile data for the profile in use, if any. Depends on: settings, config. */
  async currentProfile(): Promise<ProfileData | undefined> {
    const name = (await this.settings()).profile.value;
    return name ? (await this.config()).profile(name) : undefined;
  }

}

export function pacingNote(ms: number): string {
  return `Pacing: waiting ${(ms / 1000).toFixed(1)} s to stay within the seller API budget.`;
}

/** KACTL_BASE_URL as the settings read it (normalised); undefined when unset or not a URL. */
async function envBaseUrl(env: EnvRecord): Promise<string | undefined> {
  const raw = readEnv(env, 'KACTL_BASE_URL');
  if (raw === undefined) return undefined;
  const { normaliseBaseUrl } = await import('./config/base-url.js');
  try {
    return normaliseBaseUrl(raw);
  } catch {
    return undefined;
  }
}

function requireSetting<T>(value: T | undefined, what: string, how: string): T {
  if (value === undefined || value === '') {
    throw new UsageError(`No ${what} is configured; set ${how}, or choose a profile with --profile.`, {
      hints: ['Start a local sandbox (it saves a profile named "sandbox"): kactl sandbox start'],
    });
  }
  return value;
}
