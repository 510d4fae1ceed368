/** `kactl profile remove NAME`: delete a profile (y/N on a terminal, --yes without one). */
import { Argument, type Command } from 'commander';
import type { Context } from '../../context.js';
import { completeFrom, PROFILE_NAMES } from '../completion/value-source.js';
import { UsageError } from '../../errors.js';
import { confirmOne } from '../../io/ask.js';

export function registerProfileRemove(group: Command, ctx: Context): void {
  group
    .command('remove')
    .alias('rm')
    .description('delete a profile and the session and seller key it holds')
    .addArgument(completeFrom(new Argument('<name>', 'profile name'), PROFILE_NAMES))
    .addHelpText('after', '\nExample:\n  $ kactl profile remove staging --yes')
    .action(async (name: string) => {
      const store = await ctx.config();
      if (!store.profile(name)) throw new UsageError(`No profile named "${name}".`, { hints: ['See the profiles with: kactl profile list'] });
      await confirmOne(ctx, `Remove profile ${name}?`);
      store.update((config) => {
        delete config.profiles[name];
        if (config.active === name) delete config.active;
      });
      ctx.output.success(`Removed profile ${name}.`);
    });
}
