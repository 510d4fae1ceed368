/**
 * The Context: what a command needs from the outside world, built lazily so that a command
 * pays only for what it uses (and `--help` pays for nothing). Commands never reach for
 * process globals; tests build a Context over buffers and a temp config folder.
 *
 * Read it like gh's factory: each member says what it depends on, and nothing is built before
 * a command asks for it. The roots are the SystemDeps (streams, env, signal, clock) and the
 * parsed global options (context/globals.ts). The Context only composes the parts, each in its
 * own file under context/: the streams, output and prompts (terminal.ts), the settings and
 * profiles (profiles.ts), the transports (transports.ts), the wait display (waits.ts) and the
 * API clients (api-clients.ts).
 */
import type { EnvRecord } from './env.js';
import type { IOStreams } from './io/streams.js';
import type { Output } from './io/output.js';
import type { Prompter } from './io/prompter.js';
import type { ConfigStore } from './config/store.js';
import type { ResolvedSettings } from './config/settings.js';
import type { ProfileData } from './config/types.js';
import type { ClientSessionStore } from './config/client-session.js';
import type { ClientApi } from './api/client-api.js';
import type { SellerApi } from './api/seller-api.js';
import type { Transport } from './api/transport.js';
import { UsageError } from './errors.js';
import { DEFAULT_GLOBALS, type GlobalOptions, type RuntimeInfo, type SystemDeps } from './context/globals.js';
import { Terminal } from './context/terminal.js';
import { Profiles } from './context/profiles.js';
import { Transports } from './context/transports.js';
import { Waits } from './context/waits.js';
import { ApiClients, type SellerApiOptions } from './context/api-clients.js';

export { DEFAULT_GLOBALS, type GlobalOptions, type RuntimeInfo, type SystemDeps } from './context/globals.js';
export { IMPLICIT_PROFILE } from './context/profiles.js';
export { pacingNote } from './context/waits.js';

export class Context {
  readonly env: EnvRecord;
  readonly signal: AbortSignal;
  readonly now: () => number;
  readonly runtime: RuntimeInfo;
  private globalOptions: GlobalOptions = DEFAULT_GLOBALS;
  private readonly terminal: Terminal;
  private readonly profiles: Profiles;
  private readonly transports: Transports;
  private readonly waits: Waits;
  private readonly apiClients: ApiClients;
  /** Set by a command that ends without an error but must not exit 0 (rare). */
  exitCode = 0;
  /** `kactl licenses create`: the command being run, for usage lines in errors. */
  currentCommand = 'kactl';

  constructor(deps: SystemDeps) {
    this.env = deps.env;
    this.signal = deps.signal;
    this.now = deps.now;
    this.runtime = deps.runtime ?? { node: 'unknown', platform: 'unknown', arch: 'unknown' };
    const globals = (): GlobalOptions => this.globalOptions;
    this.terminal = new Terminal(deps, globals);
    this.profiles = new Profiles(deps.env, globals);
    this.transports = new Transports({
      env: deps.env,
      signal: deps.signal,
      now: deps.now,
      profiles: this.profiles,
      verbose: () => (this.globalOptions.verbose ? (line: string) => this.verbose(line) : undefined),
    });
    this.waits = new Waits(this.terminal, deps.env);
    this.apiClients = new ApiClients({
      signal: deps.signal,
      now: deps.now,
      globals,
      profiles: this.profiles,
      transports: this.transports,
      waits: this.waits,
      output: () => this.output,
    });
  }

  /**
   * The server's "now" in ms: a sandbox's domain clock once one has answered in this run, else
   * `now()`. Time left on subscriptions and keys is counted from this.
   */
  serverNow(): number {
    return this.transports.serverNow();
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
    this.terminal.reset();
    this.profiles.reset();
  }

  get io(): IOStreams {
    return this.terminal.io;
  }

  get output(): Output {
    return this.terminal.output;
  }

  /** A `--verbose` line on stderr (already redacted by the caller). */
  verbose(line: string): void {
    this.terminal.verbose(line);
  }

  /** Prompts; go through src/io/ask.ts, which refuses without a terminal. */
  prompter(): Promise<Prompter> {
    return this.terminal.prompter();
  }

  get configDir(): string {
    return this.profiles.configDir;
  }

  get dataDir(): string {
    return this.profiles.dataDir;
  }

  config(): Promise<ConfigStore> {
    return this.profiles.config();
  }

  settings(): Promise<ResolvedSettings> {
    return this.profiles.settings();
  }

  sessionProfileName(): Promise<string> {
    return this.profiles.sessionProfileName();
  }

  currentProfile(): Promise<ProfileData | undefined> {
    return this.profiles.currentProfile();
  }

  clientSession(): Promise<ClientSessionStore> {
    return this.profiles.clientSession();
  }

  transport(): Promise<Transport> {
    return this.transports.transport();
  }

  clientApi(): Promise<ClientApi> {
    return this.apiClients.clientApi();
  }

  /**
   * `onWait` replaces the default pacing line; `signal` replaces Ctrl-C as what aborts the calls
   * (on a transport of their own): for a job that finishes what it has started before it stops
   * (src/state/run-plan.ts).
   */
  sellerApi(options: SellerApiOptions = {}): Promise<SellerApi> {
    return this.apiClients.sellerApi(options);
  }

  /** A wait (pacing) as one line redrawn in place on a terminal, or one note per run without one; returns what clears the line. */
  showWait(text: string): (() => void) | undefined {
    return this.waits.show(text);
  }

  /** Release what the run opened (keep-alive sockets would otherwise hold the process). */
  close(): Promise<void> {
    return this.transports.close();
  }
}
