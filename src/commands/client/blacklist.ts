/**
 * `kactl client blacklist check [--hwid H]`: is this HWID or IP blacklisted? The wire answer is
 * inverted — `success:true` means blacklisted (docs/protocol/client-api.md §4.9) — so the command states the
 * result in words and exits 1 when blacklisted, 0 when not, for `&&` in scripts. `--json`
 * prints the server's answer as it came.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { hwidOption } from './options.js';
import { resolveHwid } from './hwid.js';

interface BlacklistOptions {
  hwid?: string;
}

export function registerClientBlacklist(group: Command, ctx: Context): void {
  group
    .command('blacklist')
    .description('blacklist checks')
    .command('check')
    .description('check whether this HWID or IP is blacklisted (exit 1 when it is)')
    .addOption(hwidOption())
    .addHelpText('after', '\nExamples:\n  $ kactl client blacklist check\n  $ kactl client blacklist check --hwid S-1-5-21-1004-2000-3000-1001')
    .action(async (options: BlacklistOptions) => {
      const hwid = await resolveHwid(ctx, options.hwid);
      const body = await (await ctx.clientApi()).call('checkblacklist', { hwid }, { acceptFailure: true });
      const blacklisted = body.success === true;
      if (ctx.output.wantsJson) ctx.output.json(body);
      else ctx.output.line(blacklisted ? 'blacklisted' : 'not blacklisted');
      if (blacklisted) ctx.exitCode = 1;
    });
}
