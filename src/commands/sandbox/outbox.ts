/**
 * `kactl sandbox outbox`: the email the sandbox would have sent (magic links, one-time codes,
 * password resets), read from its admin route with the token saved in the sandbox profile.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { AuthError, NetworkError, UsageError } from '../../errors.js';

interface OutboxOptions {
  adminToken?: string;
  to?: string;
}

export interface OutboxMessage {
  id: number;
  to: string;
  subject: string;
  text: string;
  kind?: string;
  link?: string | null;
  createdAt: number;
}

export function registerSandboxOutbox(group: Command, ctx: Context): void {
  group
    .command('outbox')
    .description('list the email the sandbox has "sent" (magic links, one-time codes, password resets)')
    .option('--admin-token <token>', "the sandbox's admin token (default: saved in the sandbox profile)")
    .option('--to <email>', 'only messages to this address')
    .addHelpText('after', '\nExamples:\n  $ kactl sandbox outbox\n  $ kactl sandbox outbox --to alice@example.com --json')
    .action(async (options: OutboxOptions) => {
      const messages = await fetchOutbox(ctx, options);
      const shown = options.to ? messages.filter((m) => m.to.toLowerCase() === options.to?.toLowerCase()) : messages;
      if (ctx.output.wantsJson) return ctx.output.json(shown);
      await ctx.output.list(
        shown.map((m) => ({ ...m })),
        [{ key: 'id' }, { key: 'createdAt', header: 'SENT', kind: 'date' }, { key: 'to' }, { key: 'subject' }, { key: 'link' }],
      );
    });
}

async function fetchOutbox(ctx: Context, options: OutboxOptions): Promise<OutboxMessage[]> {
  const settings = await ctx.settings();
  const baseUrl = settings.baseUrl.value;
  if (!baseUrl) throw new UsageError('No sandbox URL is configured; start one with `kactl sandbox start` or pass --base-url.');
  const token = options.adminToken ?? (await ctx.currentProfile())?.adminToken;
  if (!token) throw new UsageError('No admin token: pass --admin-token, or use the profile `kactl sandbox start` saved (--profile sandbox).');
  const transport = await ctx.transport();
  const response = await transport.request({
    method: 'GET',
    url: new URL('/sandbox/outbox', `${baseUrl}/`),
    headers: { authorization: `Bearer ${token}` },
    secrets: [token],
  });
  if (response.status === 401 || response.status === 403) throw new AuthError('The sandbox refused the admin token.');
  let body: unknown;
  try {
    body = JSON.parse(response.body.toString('utf8'));
  } catch {
    throw new NetworkError(`${baseUrl} answered the outbox request with something that is not JSON (HTTP ${response.status}); is it a kactl sandbox?`);
  }
  const list = Array.isArray(body) ? body : (body as { messages?: unknown }).messages;
  if (response.status !== 200 || !Array.isArray(list)) throw new NetworkError(`Unexpected outbox answer from ${baseUrl} (HTTP ${response.status}).`);
  return list as OutboxMessage[];
}
