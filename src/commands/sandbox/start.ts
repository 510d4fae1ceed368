/**
 * `kactl sandbox start`: serve until SIGINT/SIGTERM (or `kactl sandbox stop`), then close the
 * store cleanly and exit 0. `--detach` runs the same server in the background (detach.ts) and
 * returns once it is ready and its profile saved. The ready line (`--json`) is the contract of
 * docs/contracts.md; the saved profile is what lets every other command talk to the sandbox with
 * no further setup.
 *
 * Profiles: a sandbox saves "sandbox" unless another running sandbox of this data folder holds
 * that name; then it saves "sandbox-<port>" (removed again when it stops), so a second sandbox
 * never rewrites the first one's profile. `--profile-name` picks the name, and is refused when a
 * running sandbox holds it. A profile no sandbox made (one without an admin token: a person's
 * `prod`, or their own "sandbox") is never replaced without `--force`: the check runs before the
 * server starts and again, under the config lock, as the profile is saved.
 */
import path from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { checkProfileName, parsePositiveInt } from '../profile/validate.js';
import type { ConfigFile } from '../../config/types.js';
import type { RunningSandbox, SandboxInfo, SandboxOptionName, SandboxOptions } from '../../server/start.js';
import { adminTokenDigest, forgetAutoProfile, isSandboxProfile, runningSandboxes, SANDBOX_PROFILE } from './profile.js';
import { sandboxProfileFields } from '../../config/sandbox-profile.js';
import { claimSandbox, MEMORY_STORE, releaseSandbox, updateSandbox, type SandboxEntry } from './registry.js';
import { selfPid } from './self-process.js';
import { announceReady, type ReadyReport } from './ready.js';
import { checkTlsHostname, DEFAULT_TLS_HOSTNAME } from '../../server/tls/names.js';
import { normalizeOrigin } from '../../server/http/origin-policy.js';
import { pathFailure } from '../../io/storage-errors.js';
import { nativeModuleFailure } from '../../server/store/native-module.js';
import { seedSandbox } from '../state/seed.js';
import { receiveSecrets, handOver } from './background-pipe.js';
import type { StartOptions } from './start-options.js';
import { prepareAuthority } from './tls-authority.js';

/** `--hostname`: a host name or an IP address for the HTTPS certificate (names.ts says what one is). */
export function parseHostname(raw: string): string {
  try {
    return checkTlsHostname(raw);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

function parsePort(raw: string): number {
  const port = parsePositiveInt(raw);
  if (port > 65_535) throw new InvalidArgumentError('A port is 0 to 65535 (0 picks a free one).');
  return port;
}

/** `--cors ORIGIN` (repeatable): an http(s) origin, `scheme://host[:port]`, or `*`. */
function parseCorsOrigin(raw: string, earlier: string[] | undefined): string[] {
  const origin = normalizeOrigin(raw.trim());
  if (origin === undefined) throw new InvalidArgumentError(`"${raw}" is not an origin; give scheme, host and port only, such as https://app.example.test or http://192.168.1.20:3000, or '*' for every page.`);
  return [...(earlier ?? []), origin];
}

/** `--panel-url`: the base of the customer panel link clients are given, so an http(s) URL. */
function parsePanelUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidArgumentError(`"${raw}" is not a URL; give an http(s) address such as https://panel.example.test.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError(`"${raw}" is not an http(s) URL.`);
  return raw;
}

export function registerSandboxStart(group: Command, ctx: Context): void {
  group
    .command('start')
    .description('start the sandbox server: in the foreground until Ctrl-C, or in the background with --detach')
    .option('--host <host>', 'address to bind: loopback unless you say otherwise (another address of this machine is reachable from its network)', '127.0.0.1')
    .option('--port <port>', 'port to listen on (default: the port this store used last time, when it is free; 0 picks a free one)', parsePort)
    .option('--data <file>', 'SQLite store (default: sandbox.db in the data folder); ":memory:" keeps nothing')
    .option('--app-name <name>', 'name of the application created in an empty store')
    .option('--ownerid <id>', 'ownerid (10 characters) of the application created in an empty store')
    .option('--seller-key <key>', 'seller key (32 characters) created in an empty store')
    .addOption(
      new Option('--failure-status <status>', 'HTTP status of business failures: 200 as the hosted service answers them, 400 for the spec-strict mode')
        .choices(['200', '400'])
        .default('200'),
    )
    .option('--no-rate-limit', 'turn off the seller (120/min) and client (200/min) rate limits')
    .option('--trust-proxy', 'take the client IP from X-Forwarded-For')
    .option('--cors <origin>', "let pages of this origin read the sandbox's answers (repeatable; '*' for every page); pages on localhost always may", parseCorsOrigin)
    .option('--detach', 'run in the background: return once the server is ready and its profile saved (stop it with `kactl sandbox stop`)')
    .option('--profile-name <name>', 'save the profile under this name (default: "sandbox", or "sandbox-<port>" while another sandbox holds "sandbox")', checkProfileName)
    .option('--no-profile', 'do not save a profile')
    .option('--force', 'replace a profile of that name that kactl sandbox did not make (your own "sandbox", or --profile-name prod)')
    .addOption(new Option('--background-log <file>').hideHelp())
    .option('--panel-url <url>', 'base URL the customer panel link advertises (default: the sandbox\'s own)', parsePanelUrl)
    .option('--seed <file>', 'apply this state file (kactl apply) before reporting ready')
    .option('--tls', "serve HTTPS (TLS 1.2+) with a certificate signed by this data folder's own authority (see kactl sandbox ca)")
    .option('--hostname <name>', `with --tls: the host name or IP address the certificate names besides localhost, 127.0.0.1, ::1 and the --host address (default ${DEFAULT_TLS_HOSTNAME})`, parseHostname)
    .option('--log-limit <n>', 'requests the request inspector keeps, newest first (kactl sandbox logs); 0 records nothing', parsePositiveInt, 10_000)
    .addHelpText(
      'after',
      `
Examples:
  $ kactl sandbox start --detach                          # background; kactl sandbox stop ends it
  $ kactl sandbox start --port 8787 --data ./sandbox.db   # foreground until Ctrl-C
  $ kactl sandbox start --port 0 --data :memory: --json   # one JSON ready line, for scripts and CI
  $ kactl sandbox start --failure-status 400              # spec-strict statuses instead of the hosted ones
  $ kactl sandbox start --tls --detach                    # HTTPS; the saved profile trusts the sandbox's authority
  $ sudo kactl sandbox start --tls --host 192.0.2.7 --port 443 --yes   # the official C++ library: a non-loopback address, port 443

Answers are the hosted service's by default: a business failure (wrong password, unknown key,
"Client is not blacklisted") is HTTP 200 with "success":false, as official SDKs expect; the
seller API keeps the hosted 406 for an empty list, 404 for an unknown seller key, 403 for a
refused app; rate limits answer 1.2 and seller calls with the hosted 200 and 1.3 with 429.
--failure-status 400 answers every failure 400 and every rate limit 429 with Retry-After.

HTTPS (--tls): the certificate is made at each start for the host name, localhost, 127.0.0.1,
::1 and the --host address, and signed by a certificate authority kactl makes once per data
folder (its key never leaves that folder). The authority may sign only for loopback, *.test,
*.localhost and the names chosen for it: a --hostname or --host outside those makes a new one
that may also sign for it, after you confirm (--yes in scripts). Programs must trust the
authority: \`kactl sandbox ca --help\` says how; \`kactl sandbox connect <sdk>\` prints the
lines to change in your program. Port 443 needs root (or CAP_NET_BIND_SERVICE) on Linux and
macOS before 10.14; Windows needs nothing.

Beyond loopback (--host ADDRESS): every machine that can reach ADDRESS can use the sandbox;
the admin routes and the dashboard still need the admin token, and other sites' pages get no
CORS answer unless --cors.

Without --port a sandbox listens on the port its store used last time, so a program under
test keeps its URL across restarts; when that port is in use (or the store is :memory:) it
takes a free one and says so. --port 0 always takes a free one.

One sandbox per store file: a second start on the same file is refused and names the one
serving it. See the running ones with: kactl sandbox status`,
    )
    .action(async (options: StartOptions, command: Command) => {
      if (options.hostname !== undefined && !options.tls) throw new UsageError('--hostname names the HTTPS certificate: give it with --tls.');
      // Asked here, in the process the user runs: a --detach server has nobody to ask.
      if (options.tls && options.backgroundLog === undefined) await prepareAuthority(ctx, options);
      if (options.detach) {
        const { sandboxDetach } = await import('./detach.js');
        await sandboxDetach(ctx, command, options);
      } else {
        await sandboxStartRun(ctx, options);
      }
    });
}

/** The store as an absolute path (the registry compares paths), or `:memory:`. */
export function resolveData(ctx: Context, data: string | undefined): string {
  if (data === undefined) return path.join(ctx.dataDir, 'sandbox.db');
  return data === MEMORY_STORE ? data : path.resolve(data);
}

/** What `sandbox start` asks of the server, from its options. */
function serverOptions(ctx: Context, options: StartOptions, data: string, background: boolean): SandboxOptions {
  return {
    host: options.host,
    ...(options.port === undefined ? { reuseLastPort: true } : { port: options.port }),
    data,
    failureStatus: options.failureStatus === '200' ? 200 : 400,
    rateLimit: options.rateLimit,
    trustProxy: options.trustProxy ?? false,
    ...(options.cors ? { cors: options.cors } : {}),
    ...(options.panelUrl ? { panelUrl: options.panelUrl } : {}),
    ...(options.appName ? { appName: options.appName } : {}),
    ...(options.ownerid ? { ownerid: options.ownerid } : {}),
    ...(options.sellerKey ? { sellerKey: options.sellerKey } : {}),
    ...(options.tls ? { tls: { dataDir: ctx.dataDir, hostname: options.hostname } } : {}),
    logLimit: options.logLimit,
    // In the background the request log is the point of the log file; in front, --verbose. With
    // neither, no sink: the sandbox then makes no line per request.
    ...(background ? { log: (line: string) => ctx.io.err(`${new Date(ctx.now()).toISOString()} ${line}\n`) } : ctx.globals.verbose ? { log: (line: string) => ctx.verbose(line) } : {}),
  };
}

export async function sandboxStartRun(ctx: Context, startOptions: StartOptions): Promise<void> {
  const background = startOptions.backgroundLog !== undefined;
  // In the background the secrets come down the pipe, never on the command line.
  const options: StartOptions = background ? { ...startOptions, ...(await receiveSecrets()) } : startOptions;
  const { startSandbox } = await import('../../server/start.js');
  const data = resolveData(ctx, options.data);
  const dead: SandboxEntry[] = [];
  const claim = claimSandbox(ctx.dataDir, { pid: selfPid, data, startedAt: new Date(ctx.now()).toISOString(), logFile: options.backgroundLog ?? null }, (entry) => dead.push(entry));
  let sandbox: RunningSandbox;
  try {
    // A sandbox killed outright on this store: its automatic profile goes with its entry.
    for (const entry of dead) await forgetAutoProfile(ctx, entry);
    // Before serving: a name held by someone's own profile is refused at once.
    if (options.profile) await chooseProfile(ctx, options, claim.id, undefined);
    sandbox = await startSandbox(serverOptions(ctx, options, data, background));
  } catch (error) {
    releaseSandbox(ctx.dataDir, claim);
    throw await startFailure(ctx, error, options, data);
  }
  let entry: SandboxEntry = claim;
  try {
    const { info } = sandbox;
    // Seeded before the profile is saved: a file that cannot be applied leaves no profile behind.
    if (options.seed !== undefined) await seedSandbox(ctx, info, options.seed);
    const port = Number(new URL(info.baseUrl).port);
    const profile = options.profile ? await chooseProfile(ctx, options, claim.id, port) : undefined;
    const active = profile ? await saveSandboxProfile(ctx, profile.name, info, options) : undefined;
    entry = {
      ...claim,
      state: 'ready',
      baseUrl: info.baseUrl,
      profile: profile?.name ?? null,
      autoProfile: profile?.auto ?? false,
      adminTokenDigest: profile ? adminTokenDigest(info.adminToken) : null,
      ...(info.caFile !== undefined ? { caFile: info.caFile, hostname: info.hostname ?? null } : {}),
    };
    updateSandbox(ctx.dataDir, entry);
    const { getClockOffset } = await import('../../server/domain/clock.js');
    const report: ReadyReport = {
      info,
      pid: selfPid,
      data,
      profile: profile?.name ?? null,
      active: active ?? null,
      logFile: options.backgroundLog ?? null,
      clockOffset: getClockOffset(sandbox.store),
      lastPort: sandbox.lastPort ?? null,
      warnings: sandbox.warnings,
    };
    if (background) handOver(report);
    else await announceReady(ctx, report, { detached: false });
    await untilAborted(ctx.signal);
  } finally {
    await sandbox.close();
    // The profile goes before the registry entry: `sandbox stop` returns once the entry is gone,
    // and whoever it returns to must not find the profile still there.
    try {
      await forgetAutoProfile(ctx, entry);
    } finally {
      releaseSandbox(ctx.dataDir, entry);
    }
  }
  if (!ctx.globals.json || background) ctx.output.note('Sandbox stopped; store closed.');
}

/**
 * What the listen or the seed failed on, as the usage error it is; a store module built for
 * another Node, or a store file that cannot be written, as the one sentence that says what to do.
 */
export async function startFailure(ctx: Context, error: unknown, options: Pick<StartOptions, 'host' | 'port'>, data: string): Promise<unknown> {
  const { SandboxConfigError } = await import('../../server/start.js');
  if (error instanceof SandboxConfigError) return new UsageError(error.messageFor(sandboxFlag));
  const native = nativeModuleFailure(error, ctx.runtime.node);
  if (native !== undefined) return native;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string' && /^SQLITE_(FULL|READONLY|CANTOPEN|IOERR|PERM)/.test(code)) {
    return pathFailure(error, data, ctx);
  }
  const where = `port ${options.port ?? 0} on ${options.host}`;
  if (code === 'EADDRINUSE') return new UsageError(`The ${where} is already in use; pick another with --port N, or --port 0 for a free one.`);
  if (code === 'EACCES') {
    return new UsageError(`The ${where} needs privileges kactl does not have; pick a port above 1023, or --port 0 for a free one.`, {
      hints:
        (options.port ?? 0) < 1024
          ? [
              'Ports below 1024 need root on Linux: run it with sudo, or once: sudo setcap cap_net_bind_service=+ep "$(command -v node)", or lower the floor: sudo sysctl net.ipv4.ip_unprivileged_port_start=443',
            ]
          : [],
    });
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new UsageError(`Cannot listen on ${options.host}: it is not an address of this machine (--host).`);
  return error;
}

/**
 * The profile name to save under: `--profile-name`, else "sandbox", else (while another running
 * sandbox holds "sandbox") "sandbox-<port>". Without the port (before the server listens) only
 * the first two are checked. Refuses a name a running sandbox holds, and one held by a profile
 * no sandbox made unless `--force`.
 */
async function chooseProfile(ctx: Context, options: StartOptions, ownId: string, port: number | undefined): Promise<{ name: string; auto: boolean } | undefined> {
  const wanted = options.profileName;
  const others = (await runningSandboxes(ctx)).filter((entry) => entry.id !== ownId);
  const holder = (name: string) => others.find((entry) => entry.profile === name);
  let choice: { name: string; auto: boolean } | undefined;
  if (wanted !== undefined) {
    const other = holder(wanted);
    if (other) {
      throw new UsageError(`The profile "${wanted}" belongs to the running sandbox at ${other.baseUrl ?? '?'} (pid ${other.pid}); choose another --profile-name.`);
    }
    choice = { name: wanted, auto: false };
  } else if (holder(SANDBOX_PROFILE) === undefined) {
    choice = { name: SANDBOX_PROFILE, auto: false };
  } else if (port !== undefined) {
    choice = { name: `${SANDBOX_PROFILE}-${port}`, auto: true };
  }
  if (choice !== undefined) checkReplaceable((await ctx.config()).read(), choice.name, options);
  return choice;
}

/** Refuses (exit 2) to overwrite a profile that no sandbox made, unless --force. */
function checkReplaceable(config: ConfigFile, name: string, options: StartOptions): void {
  const existing = Object.hasOwn(config.profiles, name) ? config.profiles[name] : undefined;
  if (existing === undefined || isSandboxProfile(existing) || options.force) return;
  throw new UsageError(`The profile "${name}" was not made by kactl sandbox and would be overwritten: give another --profile-name, or --force to replace it.`);
}

/**
 * Saves the profile; makes it active when nothing (valid) is. Returns the active profile. A
 * sandbox's earlier profile keeps what was added to it (an HWID); one replaced with --force
 * starts afresh.
 */
async function saveSandboxProfile(ctx: Context, name: string, info: SandboxInfo, options: StartOptions): Promise<string | undefined> {
  const store = await ctx.config();
  const config = store.update((config) => {
    checkReplaceable(config, name, options);
    const existing = Object.hasOwn(config.profiles, name) ? config.profiles[name] : undefined;
    config.profiles[name] = { ...(isSandboxProfile(existing) ? existing : {}), ...sandboxProfileFields(info, { rateLimited: options.rateLimit }) };
    if (config.active === undefined || !Object.hasOwn(config.profiles, config.active)) config.active = name;
  });
  return config.active;
}

function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/** The flag of each sandbox option, for errors that name one. */
const SANDBOX_FLAGS: Readonly<Record<SandboxOptionName, string>> = {
  port: '--port',
  failureStatus: '--failure-status',
  data: '--data',
  logLimit: '--log-limit',
  appName: '--app-name',
  ownerid: '--ownerid',
  sellerKey: '--seller-key',
  tls: '--tls',
};

function sandboxFlag(option: SandboxOptionName): string {
  return SANDBOX_FLAGS[option];
}
