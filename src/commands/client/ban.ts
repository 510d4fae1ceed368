/**
 * `kactl client ban [--reason R]`: what a protected program does when it catches a cracker:
 * ban the logged-in user and blacklist the HWID (and the IP, except loopback — docs/design.md
 * "Bans and loopback"). It cannot be undone from the client, so it asks first (`--yes`).
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { hwidOption } from './options.js';
import { resolveHwid } from './hwid.js';
import { confirmOne } from '../../io/ask.js';
import { readSession } from './session-state.js';

interface BanOptions {
  reason?: string;
  hwid?: string;
}

export function registerClientBan(group: Command, ctx: Context): void {
  group
    .command('ban')
    .description('ban the logged-in user and blacklist this HWID (asks first; --yes without a terminal)')
    .option('--reason <reason>', 'ban reason, at most 99 characters')
    .addOption(hwidOption())
    .addHelpText('after', '\nOnly the seller can lift it: kactl users unban USER, kactl blacklists delete …\n\nExamples:\n  $ kactl client ban --reason "debugger attached" --yes')
    .action(async (options: BanOptions) => {
      const { session } = await readSession(ctx);
      await confirmOne(ctx, `Ban ${session?.user ?? 'the logged-in user'} and blacklist this HWID?`);
      const hwid = await resolveHwid(ctx, options.hwid);
      const body = await (await ctx.clientApi()).call('ban', { reason: options.reason, hwid });
      if (ctx.output.wantsJson) return ctx.output.json(body);
      ctx.output.success(typeof body.message === 'string' && body.message !== '' ? body.message : 'Banned.');
    });
}
