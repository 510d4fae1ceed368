/**
 * `kactl sandbox outbox`: the email the sandbox would have sent (magic links, one-time codes,
 * password resets), read from its admin route.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { NetworkError } from '../../errors.js';
import { sandboxAdminRequest } from './admin.js';

interface OutboxOptions {
  adminToken?: string;
  to?: string;
  kind?: string;
}

export interface OutboxMessage {
  id: number;
  createdAt: number;
  kind: string;
  to: string;
  subject: string;
  text: string;
  link: string | null;
}

export function registerSandboxOutbox(group: Command, ctx: Context): void {
  group
    .command('outbox')
    .description('list the email the sandbox has "sent" (magic links, one-time codes, password resets)')
    .option('--to <email>', 'only messages to this address')
    .option('--kind <kind>', 'only this kind, e.g. magic-link, email-code, password-reset')
    .option('--admin-token <token>', "the sandbox's admin token (default: saved in the sandbox profile)")
    .addHelpText('after', '\nExamples:\n  $ kactl sandbox outbox\n  $ kactl sandbox outbox --to alice@example.com --kind email-code --json')
    .action(async (options: OutboxOptions) => {
      const query = new URLSearchParams();
      if (options.to) query.set('to', options.to);
      if (options.kind) query.set('kind', options.kind);
      const body = await sandboxAdminRequest(ctx, {
        method: 'GET',
        path: `/sandbox/outbox${query.size > 0 ? `?${query.toString()}` : ''}`,
        ...(options.adminToken ? { adminToken: options.adminToken } : {}),
      });
      const messages = Array.isArray(body) ? body : (body as { messages?: unknown }).messages;
      if (!Array.isArray(messages)) throw new NetworkError('The sandbox answered the outbox request with an unexpected shape.');
      if (ctx.output.wantsJson) return ctx.output.json(messages);
      await ctx.output.list(messages, [
        { key: 'id' },
        { key: 'createdAt', header: 'SENT', kind: 'date' },
        { key: 'kind' },
        { key: 'to' },
        { key: 'subject' },
        { key: 'link' },
      ]);
    });
}
