/**
 * `kactl client global-var get NAME`: an app-wide variable (`var`). Its value comes back in
 * `message`, not in a field of its own (docs/protocol/client-api.md §4.11).
 */
import { Argument, type Command } from 'commander';
import type { Context } from '../../context.js';
import { completeFrom } from '../completion/value-source.js';
import { printValue } from './print-value.js';

export function registerClientGlobalVar(group: Command, ctx: Context): void {
  group
    .command('global-var')
    .description('app-wide variables set by the seller')
    .command('get')
    .description('print a global variable (some need a logged-in session)')
    .addArgument(completeFrom(new Argument('<name>', 'variable id'), { kind: 'seller-list', list: 'fetchallvars' }))
    .addHelpText('after', '\nExamples:\n  $ kactl client global-var get motd')
    .action(async (name: string) => {
      const body = await (await ctx.clientApi()).call('var', { varid: name });
      if (ctx.output.wantsJson) return ctx.output.json(body);
      printValue(ctx, body.message);
    });
}
