/**
 * Where the admin routes of the CLI's sandbox are: the configured base URL and the admin token —
 * `--admin-token`, else `KACTL_ADMIN_TOKEN` (what `kactl sandbox exec` gives its command, which
 * has no profile), else the one `kactl sandbox start` saved in the sandbox profile. The requests
 * themselves are the library's (src/api/sandbox-admin.ts).
 */
import type { Context } from '../../context.js';
import { readEnv } from '../../env.js';
import { UsageError } from '../../errors.js';
import type { AdminTarget } from '../../api/sandbox-admin.js';

export async function adminTarget(ctx: Context, adminToken?: string): Promise<AdminTarget> {
  const settings = await ctx.settings();
  const baseUrl = settings.baseUrl.value;
  if (!baseUrl) throw new UsageError('No sandbox URL is configured; start one with `kactl sandbox start` or pass --base-url.');
  const token = adminToken ?? readEnv(ctx.env, 'KACTL_ADMIN_TOKEN') ?? (await ctx.currentProfile())?.adminToken;
  if (!token) throw new UsageError('No admin token: pass --admin-token, set KACTL_ADMIN_TOKEN, or use the profile `kactl sandbox start` saved (--profile sandbox).');
  return { baseUrl, adminToken: token, transport: await ctx.transport() };
}
