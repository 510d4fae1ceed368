/**
 * `kactl sandbox exec [options] -- COMMAND [ARGS…]`: a fresh sandbox for the length of one
 * command, as a test run wants it. The sandbox is served from kactl's own process (in memory
 * unless --data), seeded (--seed, as `sandbox start --seed`), and the command runs as a child with
 * the sandbox's coordinates in its environment (exec-env.ts). When it ends the sandbox is
 * stopped, its state written if asked (--export-on-exit), and kactl exits with the command's
 * status (exec-child.ts). A failed command gets the faults that fired and the sandbox's last
 * refusals printed under it (exec-report.ts). `--fault` adds faults before the command starts
 * (exec-faults.ts).
 *
 * Nothing outlives the run and nothing is saved but the export: no profile, no config change; a
 * memory sandbox is not even listed in the registry (no one else can use it). A --data store is
 * registered as `sandbox start` registers it, so two sandboxes never serve one file.
 */
import fs from 'node:fs';
import { Option, type Command } from 'commander';
import type { Context } from '../../context.js';
import { InterruptedError, KactlError, NetworkError, UsageError } from '../../errors.js';
import type { RunningSandbox, SandboxInfo } from '../../server/start.js';
import { addSandboxFault, type FaultRequest } from '../../api/sandbox-faults.js';
import { parsePositiveInt } from '../profile/validate.js';
import { DEFAULT_TLS_HOSTNAME } from '../../server/tls/names.js';
import { prepareAuthority } from './tls-authority.js';
import { parseHostname, resolveData, startFailure } from './start.js';
import { seedSandbox } from '../state/seed.js';
import * as report from './exec-report.js';
import { execEnvironment } from './exec-env.js';
import { collectFault } from './exec-faults.js';
import { makeRunFolder, sweepStaleRunFolders } from './exec-folders.js';
import { ownSellerApi } from './own-api.js';

export interface ExecOptions {
  seed?: string;
  exportOnExit?: string;
  data?: string;
  tls?: boolean;
  hostname?: string;
  failureStatus: '200' | '400';
  rateLimit: boolean;
  logLimit: number;
  /** `--fault`, checked as given (exec-faults.ts). */
  fault?: FaultRequest[];
}

export function registerSandboxExec(group: Command, ctx: Context): void {
  group
    .command('exec')
    .description('run a command against a fresh sandbox, then stop it; exits with the command\'s status')
    .argument('<command...>', 'the command and its arguments (after --)')
    .passThroughOptions()
    .option('--seed <file>', 'apply this state file (kactl apply) before the command starts')
    .option('--export-on-exit <file>', 'when the command ends, write the sandbox\'s state there (as kactl export; JSON for a .json name, else YAML), replacing the file')
    .option('--data <file>', 'SQLite store to serve and keep (default: in memory, gone when the command ends)')
    .option('--tls', "serve HTTPS with a certificate signed by this data folder's own authority (KACTL_CA_FILE and NODE_EXTRA_CA_CERTS name it)")
    .option('--hostname <name>', `with --tls: the host name or IP address the certificate names besides localhost, 127.0.0.1 and ::1 (default ${DEFAULT_TLS_HOSTNAME})`, parseHostname)
    .addOption(
      new Option('--failure-status <status>', 'HTTP status of business failures: 200 as the hosted service answers them, 400 for the spec-strict mode')
        .choices(['200', '400'])
        .default('200'),
    )
    .option('--no-rate-limit', 'turn off the seller (120/min) and client (200/min) rate limits')
    .option('--log-limit <n>', 'requests the request inspector keeps; 0 records nothing (and shows no refusals)', parsePositiveInt, 10_000)
    .option('--fault <kind[=arg][:types]>', 'start with this fault (repeatable), as kactl sandbox fault add: forge-signature:login, status=503, rate-limit=30s:init,login', collectFault)
    .addHelpText(
      'after',
      `
The command gets the sandbox in its environment, under the names kactl reads, so \`kactl client …\`
and \`kactl seller …\` work inside it with no profile (kactl help environment lists them):
  KACTL_BASE_URL, KACTL_APP_NAME, KACTL_OWNERID, KACTL_APP_VERSION, KACTL_APP_SECRET,
  KACTL_PUBLIC_KEY, KACTL_SELLER_KEY, KACTL_ADMIN_TOKEN, KACTL_SELLER_RATE; with --tls also
  KACTL_CA_FILE and NODE_EXTRA_CA_CERTS (the authority's certificate, PEM). KACTL_RETRIES is 0
  (kactl inside does not retry, so a rate-limit or 503 fault fails at once) unless you set it.

kactl exits with the command's status: its exit code, 128 + N when signal N ended it, 127 when
it cannot be found, 4 when the sandbox fails. The command runs in a process group of its own:
each Ctrl-C or SIGTERM kactl gets is passed on to it once; a second one ends the whole group
at once (SIGKILL), and so does kactl's own end if it is killed outright. When the command fails,
the faults that fired (with their ids) and the sandbox's last refused requests are printed on
stderr with their reasons. kactl run inside the command keeps its sessions in a folder of this
run (KACTL_CONFIG_DIR), removed at the end: your profiles are not read or changed. Nothing is
left running and no profile is saved.

Examples:
  $ kactl sandbox exec -- npm test
  $ kactl sandbox exec --seed state.yaml --export-on-exit after.yaml -- ./run-tests.sh
  $ kactl sandbox exec -- sh -c 'kactl client init && kactl client whoami'
  $ kactl sandbox exec --fault forge-signature:login -- ./run-tests.sh   # the program must refuse the forged login
  $ kactl sandbox exec --tls -- node test/license.mjs     # HTTPS; Node trusts the sandbox's authority`,
    )
    .action(async (words: string[], options: ExecOptions) => {
      await sandboxExecRun(ctx, words, options);
    });
}

export async function sandboxExecRun(ctx: Context, words: readonly string[], options: ExecOptions): Promise<void> {
  const [command, ...args] = words;
  if (command === undefined || command === '') throw new UsageError('Give the command to run after --, e.g. kactl sandbox exec -- npm test.');
  if (options.hostname !== undefined && !options.tls) throw new UsageError('--hostname names the HTTPS certificate: give it with --tls.');
  // What a kactl killed outright left behind (its watchdog gone too): its folder, and the sessions in it.
  for (const folder of sweepStaleRunFolders()) ctx.verbose(`sandbox exec: removed ${folder}, left by a kactl that has gone`);
  if (options.tls) {
    // A --hostname outside the authority's names is asked about first, as sandbox start does.
    await prepareAuthority(ctx, { host: '127.0.0.1', hostname: options.hostname });
  }
  const served = await serveSandbox(ctx, options);
  for (const warning of served.sandbox.warnings) ctx.output.warn(warning);
  let status: number;
  try {
    const { info } = served.sandbox;
    if (options.seed !== undefined) await seedSandbox(ctx, info, options.seed);
    if (options.fault !== undefined) await addFaults(ctx, info, options.fault);
    if (ctx.signal.aborted) throw new InterruptedError();
    ctx.verbose(`sandbox exec: ${info.baseUrl} serves ${command}`);
    const { runChild } = await import('./exec-child.js');
    const started = ctx.now();
    const folder = makeRunFolder();
    let end: Awaited<ReturnType<typeof runChild>>;
    try {
      const env = execEnvironment(ctx.env, info, { rateLimited: options.rateLimit, configDir: folder, dataDir: ctx.dataDir });
      end = await runChild(command, args, env, ctx.signal, folder);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
    status = end.status;
    if (end.notStarted !== undefined) ctx.output.error(end.notStarted);
    if (status !== 0 && end.notStarted === undefined) await report.reportFailure(ctx, info, status, started);
    if (options.exportOnExit !== undefined) await exportAfter(ctx, info, options.exportOnExit, status);
  } finally {
    await served.stop();
  }
  ctx.exitCode = status;
}

/** `--export-on-exit`: a failed command's status says more than the export's failure; a passed one must not read as a success. */
async function exportAfter(ctx: Context, info: SandboxInfo, file: string, status: number): Promise<void> {
  try {
    await report.writeExport(ctx, info, file);
  } catch (error) {
    if (status === 0) throw error;
    ctx.output.warn(`The export was not written: ${(error as Error).message}`);
  }
}

/** `--fault`: added through the admin route, as `kactl sandbox fault add` adds them, once the seed is in. */
async function addFaults(ctx: Context, info: SandboxInfo, faults: readonly FaultRequest[]): Promise<void> {
  const own = await ownSellerApi(ctx, info, ctx.signal);
  try {
    const target = { baseUrl: info.baseUrl, adminToken: info.adminToken, transport: own.transport };
    for (const fault of faults) {
      const added = await addSandboxFault(target, fault);
      ctx.verbose(`sandbox exec: fault ${added.id} added: ${added.kind}${added.arg === null ? '' : ` ${added.arg}`}`);
    }
  } finally {
    await own.close();
  }
}

/** Starts the sandbox (registered when it serves a file); `stop` closes it and unregisters it. */
async function serveSandbox(ctx: Context, options: ExecOptions): Promise<{ sandbox: RunningSandbox; stop: () => Promise<void> }> {
  const { startSandbox } = await import('../../server/start.js');
  const registry = await import('./registry.js');
  const data = options.data === undefined ? registry.MEMORY_STORE : resolveData(ctx, options.data);
  const { selfPid } = await import('./self-process.js');
  const claim = data === registry.MEMORY_STORE ? undefined : registry.claimSandbox(ctx.dataDir, { pid: selfPid, data, startedAt: new Date(ctx.now()).toISOString(), logFile: null }, () => undefined);
  const host = '127.0.0.1';
  let sandbox: RunningSandbox;
  try {
    sandbox = await startSandbox({
      host,
      port: 0,
      data,
      failureStatus: options.failureStatus === '200' ? 200 : 400,
      rateLimit: options.rateLimit,
      ...(options.tls ? { tls: { dataDir: ctx.dataDir, hostname: options.hostname } } : {}),
      logLimit: options.logLimit,
      log: (line: string) => ctx.verbose(line),
    });
  } catch (error) {
    if (claim !== undefined) registry.releaseSandbox(ctx.dataDir, claim);
    const failure = await startFailure(ctx, error, { host, port: 0 }, data);
    if (failure instanceof KactlError) throw failure;
    throw new NetworkError(`The sandbox could not start: ${(failure as Error).message ?? String(failure)}.`, { cause: failure });
  }
  if (claim !== undefined) registry.updateSandbox(ctx.dataDir, { ...claim, state: 'ready', baseUrl: sandbox.info.baseUrl, profile: null, autoProfile: false, adminTokenDigest: null });
  return {
    sandbox,
    stop: async () => {
      try {
        await sandbox.close();
      } finally {
        if (claim !== undefined) registry.releaseSandbox(ctx.dataDir, claim);
      }
    },
  };
}
