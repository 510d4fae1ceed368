/**
 * `kactl client check`: is the stored session logged in? Exit 0 when it is; exit 3 when the
 * server says it is not validated or no longer exists (the exit code of an invalid session).
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';

export function registerClientCheck(group: Command, ctx: Context): void {
  group
    .command('check')
    .description('check that the stored session is logged in (exit 0) or not (exit 3)')
    .addHelpText('after', '\nExamples:\n  $ kactl client check && echo "still logged in"')
    .action(async () => {
      const body = await (await ctx.clientApi()).call('check');
      if (ctx.output.wantsJson) return ctx.output.json(body);
      ctx.output.success(typeof body.message === 'string' && body.message !== '' ? body.message : 'Session is validated.');
    });
}
