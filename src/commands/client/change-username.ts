/**
 * `kactl client change-username NEW`: rename the logged-in user. The server ends the session
 * when it succeeds (docs/protocol/client-api.md §4.21), so the stored one is forgotten too.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { forgetSession } from './session-state.js';

export function registerClientChangeUsername(group: Command, ctx: Context): void {
  group
    .command('change-username')
    .description('rename the logged-in user (the server then ends the session)')
    .argument('<new-username>', 'the new username')
    .addHelpText('after', '\nExamples:\n  $ kactl client change-username alice2')
    .action(async (newUsername: string) => {
      const body = await (await ctx.clientApi()).call('changeUsername', { newUsername });
      await forgetSession(ctx);
      if (ctx.output.wantsJson) return ctx.output.json(body);
      ctx.output.success(typeof body.message === 'string' && body.message !== '' ? body.message : `Renamed to ${newUsername}.`);
      ctx.output.note('The session has ended; start another with: kactl client init');
    });
}
