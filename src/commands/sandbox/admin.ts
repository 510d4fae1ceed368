/**
 * Where the admin routes of the CLI's sandbox are: the configured base URL and the admin token —
 * `--admin-token-stdin`, else `KACTL_ADMIN_TOKEN` (what `kactl sandbox exec` gives its command,
 * which has no profile), else the one `kactl sandbox start` saved in the sandbox profile. The
 * requests themselves are the library's (src/api/sandbox-admin.ts).
 *
 * Never from the command line: a process's arguments are in `ps` and `/proc/<pid>/cmdline` for
 * every local user, and the admin token signs a browser in to the dashboard, adds faults and
 * moves the clock (issue 29 item 1). `--admin-token TOKEN` is still recognised, only to refuse it
 * with the sentence that says what to use.
 */
import { Option, type Command } from 'commander';
import type { Context } from '../../context.js';
import { readEnv } from '../../env.js';
import { UsageError } from '../../errors.js';
import { readStdinText } from '../../io/ask.js';
import type { AdminTarget } from '../../api/sandbox-admin.js';

/** The options of a command that reaches the admin routes. */
export interface AdminTokenOptions {
  /** Given only to be refused. */
  readonly adminToken?: string;
  readonly adminTokenStdin?: boolean;
}

export const ADMIN_TOKEN_ARGV_REFUSED =
  '--admin-token puts the token in the process list, where every local user can read it; set KACTL_ADMIN_TOKEN, or pipe it to --admin-token-stdin.';

/** Adds `--admin-token-stdin`, and the hidden `--admin-token` that is refused. */
export function adminTokenOptions<T extends Command>(command: T): T {
  command.option('--admin-token-stdin', "read the sandbox's admin token from stdin (default: KACTL_ADMIN_TOKEN, else the sandbox profile's)");
  command.addOption(new Option('--admin-token <token>').hideHelp());
  return command;
}

async function adminToken(ctx: Context, options: AdminTokenOptions): Promise<string | undefined> {
  if (options.adminTokenStdin) {
    const token = (await readStdinText(ctx, '--admin-token-stdin')).trim();
    if (token === '') throw new UsageError('--admin-token-stdin read nothing: pipe the admin token to it.');
    return token;
  }
  return readEnv(ctx.env, 'KACTL_ADMIN_TOKEN') ?? (await ctx.currentProfile())?.adminToken;
}

export async function adminTarget(ctx: Context, options: AdminTokenOptions = {}): Promise<AdminTarget> {
  if (options.adminToken !== undefined) throw new UsageError(ADMIN_TOKEN_ARGV_REFUSED);
  const settings = await ctx.settings();
  const baseUrl = settings.baseUrl.value;
  if (!baseUrl) throw new UsageError('No sandbox URL is configured; start one with `kactl sandbox start` or pass --base-url.');
  const token = await adminToken(ctx, options);
  if (!token) throw new UsageError('No admin token: set KACTL_ADMIN_TOKEN, pipe it to --admin-token-stdin, or use the profile `kactl sandbox start` saved (--profile sandbox).');
  return { baseUrl, adminToken: token, transport: await ctx.transport() };
}
