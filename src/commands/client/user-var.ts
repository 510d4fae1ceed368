/**
 * `kactl client var get NAME` and `kactl client var set NAME VALUE`: the logged-in user's own
 * variables (`getvar`, `setvar`). They go to 1.2 as a POST form, as the spec describes them,
 * unless the profile's api is 1.3 (src/api/client-catalog/). `getvar` returns the value in
 * `response` (docs/protocol/client-api.md §4.12).
 */
import { Argument, type Command } from 'commander';
import type { Context } from '../../context.js';
import { completeFrom } from '../completion/value-source.js';
import { messageText, refuseDisguisedFailure } from './answers.js';
import { printValue } from './print-value.js';

/** The variable names users have (every user's: the seller API has no list of one user's). */
const USER_VARIABLE_NAMES = { kind: 'seller-list', list: 'fetchalluservars', field: 'name' } as const;

export function registerClientUserVar(group: Command, ctx: Context): void {
  const vars = group.command('var').description("the logged-in user's own variables");

  vars
    .command('get')
    .description("print one of the user's variables")
    .addArgument(completeFrom(new Argument('<name>', 'variable name'), USER_VARIABLE_NAMES))
    .addHelpText('after', '\nExamples:\n  $ kactl client var get theme\n  $ kactl client var get theme --json')
    .action(async (name: string) => {
      const body = await (await ctx.clientApi()).call('getvar', { var: name });
      if (ctx.output.wantsJson) return ctx.output.json(body);
      printValue(ctx, body.response);
    });

  vars
    .command('set')
    .description("set one of the user's variables (at most 500 characters)")
    .addArgument(completeFrom(new Argument('<name>', 'variable name'), USER_VARIABLE_NAMES))
    .argument('<value>', 'the value')
    .addHelpText('after', '\nExamples:\n  $ kactl client var set theme dark')
    .action(async (name: string, value: string) => {
      const body = await (await ctx.clientApi()).call('setvar', { var: name, data: value });
      refuseDisguisedFailure('setvar', body);
      if (ctx.output.wantsJson) return ctx.output.json(body);
      ctx.output.success(messageText(body) || `Set ${name}.`);
    });
}
