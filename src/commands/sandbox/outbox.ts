/**
 * `kactl sandbox outbox`: the email the sandbox would have sent (magic links, one-time codes,
 * password resets), read from its admin route.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { adminTarget, adminTokenOptions, type AdminTokenOptions } from './admin.js';
import { listSandboxOutbox } from '../../api/sandbox-admin.js';

interface OutboxOptions extends AdminTokenOptions {
  to?: string;
  kind?: string;
}

export type { OutboxMessage } from '../../api/sandbox-admin.js';

export function registerSandboxOutbox(group: Command, ctx: Context): void {
  adminTokenOptions(
    group
      .command('outbox')
      .description('list the email the sandbox has "sent" (magic links, one-time codes, password resets)')
      .option('--to <email>', 'only messages to this address')
      .option('--kind <kind>', 'only this kind, e.g. magic-link, email-code, password-reset'),
  )
    .addHelpText('after', '\nExamples:\n  $ kactl sandbox outbox\n  $ kactl sandbox outbox --to alice@example.com --kind email-code --json')
    .action(async (options: OutboxOptions) => {
      const messages = await listSandboxOutbox(await adminTarget(ctx, options), {
        ...(options.to ? { to: options.to } : {}),
        ...(options.kind ? { kind: options.kind } : {}),
      });
      if (ctx.output.wantsJson) return ctx.output.json(messages);
      await ctx.output.list(messages as unknown as Record<string, unknown>[], [
        { key: 'id' },
        { key: 'createdAt', header: 'SENT', kind: 'date' },
        { key: 'kind' },
        { key: 'to' },
        { key: 'subject' },
        { key: 'link' },
      ]);
    });
}
