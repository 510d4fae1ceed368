/** `kactl profile …`: named sets of server, application and seller-key settings. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { registerProfileAdd } from './add.js';
import { registerProfileUse } from './use.js';
import { registerProfileList } from './list.js';
import { registerProfileShow } from './show.js';
import { registerProfileRemove } from './remove.js';

export function registerProfileCommands(program: Command, ctx: Context): void {
  const group = program
    .command('profile')
    .description('manage profiles: server, application and seller key settings')
    .addHelpText('after', '\nSettings resolve flag > environment > profile > default; `kactl profile show` says which won.');
  registerProfileAdd(group, ctx);
  registerProfileUse(group, ctx);
  registerProfileList(group, ctx);
  registerProfileShow(group, ctx);
  registerProfileRemove(group, ctx);
}
