/**
 * `kactl sandbox start`: serve until SIGINT/SIGTERM, then close the store cleanly and exit 0.
 * The ready line (`--json`) is the contract of design.md; the saved `sandbox` profile is what
 * lets every other command talk to the sandbox with no further setup.
 */
import path from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import type { Context } from '../../context.js';
import { parsePositiveInt } from '../profile/validate.js';
import type { SandboxInfo } from '../../server/start.js';
import { SANDBOX_PROFILE, sandboxProfileFields } from './profile.js';

interface StartOptions {
  host: string;
  port: number;
  data?: string;
  appName?: string;
  ownerid?: string;
  sellerKey?: string;
  failureStatus: '400' | '200';
  rateLimit: boolean;
  trustProxy?: boolean;
  panelUrl?: string;
  profile: boolean;
}

function parsePort(raw: string): number {
  const port = parsePositiveInt(raw);
  if (port > 65_535) throw new InvalidArgumentError('A port is 0 to 65535 (0 picks a free one).');
  return port;
}

export function registerSandboxStart(group: Command, ctx: Context): void {
  group
    .command('start')
    .description('start the sandbox server and serve until Ctrl-C')
    .option('--host <host>', 'address to bind (only loopback unless you say otherwise)', '127.0.0.1')
    .option('--port <port>', 'port to listen on; 0 picks a free one', parsePort, 0)
    .option('--data <file>', 'SQLite store (default: sandbox.db in the data folder); ":memory:" keeps nothing')
    .option('--app-name <name>', 'name of the application created in an empty store')
    .option('--ownerid <id>', 'ownerid (10 characters) of the application created in an empty store')
    .option('--seller-key <key>', 'seller key (32 characters) created in an empty store')
    .addOption(new Option('--failure-status <status>', 'HTTP status of business failures (200 mimics the hosted service)').choices(['400', '200']).default('400'))
    .option('--no-rate-limit', 'turn off the seller (120/min) and client (200/min) rate limits')
    .option('--trust-proxy', 'take the client IP from X-Forwarded-For')
    .option('--panel-url <url>', 'base URL the customer panel link advertises (default: the sandbox\'s own)')
    .option('--no-profile', 'do not save the "sandbox" profile')
    .addHelpText(
      'after',
      `
Examples:
  $ kactl sandbox start                                   # free port, store in the data folder
  $ kactl sandbox start --port 8787 --data ./sandbox.db
  $ kactl sandbox start --port 0 --data :memory: --json   # one JSON ready line, for scripts and CI`,
    )
    .action(async (options: StartOptions) => {
      await sandboxStartRun(ctx, options);
    });
}

export async function sandboxStartRun(ctx: Context, options: StartOptions): Promise<void> {
  const { startSandbox } = await import('../../server/start.js');
  const data = options.data ?? path.join(ctx.dataDir, 'sandbox.db');
  const sandbox = await startSandbox({
    host: options.host,
    port: options.port,
    data,
    failureStatus: options.failureStatus === '200' ? 200 : 400,
    rateLimit: options.rateLimit,
    trustProxy: options.trustProxy ?? false,
    ...(options.panelUrl ? { panelUrl: options.panelUrl } : {}),
    ...(options.appName ? { appName: options.appName } : {}),
    ...(options.ownerid ? { ownerid: options.ownerid } : {}),
    ...(options.sellerKey ? { sellerKey: options.sellerKey } : {}),
    log: (line: string) => ctx.verbose(line),
  });
  try {
    const { info } = sandbox;
    if (options.profile) await saveSandboxProfile(ctx, info, options.rateLimit);
    if (ctx.globals.json) {
      ctx.io.out(`${JSON.stringify(info)}\n`);
    } else {
      const { maskValue } = await import('../../api/redact.js');
      ctx.output.success(`Sandbox listening on ${info.baseUrl}`);
      ctx.output.note(
        [
          `  app ${info.app.name}   ownerid ${info.app.ownerid}   version ${info.app.version}`,
          `  public key ${info.publicKey}`,
          `  secret ${maskValue('secret', info.app.secret)}   seller key ${maskValue('sellerkey', info.sellerKey)}   (--json prints them in full)`,
          `  store ${data}`,
          options.profile ? `  saved as profile "${SANDBOX_PROFILE}": other kactl commands use it when it is active or with --profile ${SANDBOX_PROFILE}` : '',
          'Press Ctrl-C to stop.',
        ]
          .filter(Boolean)
          .join('\n'),
      );
    }
    await untilAborted(ctx.signal);
  } finally {
    await sandbox.close();
  }
  if (!ctx.globals.json) ctx.output.note('Sandbox stopped; store closed.');
}

async function saveSandboxProfile(ctx: Context, info: SandboxInfo, rateLimited: boolean): Promise<void> {
  const store = await ctx.config();
  store.update((config) => {
    config.profiles[SANDBOX_PROFILE] = { ...config.profiles[SANDBOX_PROFILE], ...sandboxProfileFields(info, { rateLimited }) };
    if (config.active === undefined || !(config.active in config.profiles)) config.active = SANDBOX_PROFILE;
  });
}

function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
