/** `kactl profile use NAME`: make a profile the active one. */
import { Argument, type Command } from 'commander';
import type { Context } from '../../context.js';
import { completeFrom, PROFILE_NAMES } from '../completion/value-source.js';
import { UsageError } from '../../errors.js';

export function registerProfileUse(group: Command, ctx: Context): void {
  group
    .command('use')
    .description('make a profile the active one')
    .addArgument(completeFrom(new Argument('<name>', 'profile name'), PROFILE_NAMES))
    .addHelpText('after', '\nExample:\n  $ kactl profile use prod')
    .action(async (name: string) => {
      const store = await ctx.config();
      let found = false;
      store.update((config) => {
        found = name in config.profiles;
        if (found) config.active = name;
      });
      if (!found) throw new UsageError(`No profile named "${name}".`, { hints: ['See the profiles with: kactl profile list'] });
      ctx.output.success(`Active profile: ${name}.`);
    });
}
