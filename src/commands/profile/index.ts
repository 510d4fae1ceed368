/** `kactl profile …`: named sets of server, application and seller-key settings. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { reachedBy, type Registrar, type Registration } from '../registration.js';
import { registerProfileAdd } from './add.js';
import { registerProfileUse } from './use.js';
import { registerProfileList } from './list.js';
import { registerProfileShow } from './show.js';
import { registerProfileRemove } from './remove.js';

type AddProfileCommand = (group: Command, ctx: Context) => void;

/** The profile commands, in the order `kactl profile --help` lists them. */
export const PROFILE_COMMANDS: readonly Registrar<AddProfileCommand>[] = [
  { names: ['add'], add: registerProfileAdd },
  { names: ['use'], add: registerProfileUse },
  { names: ['list', 'ls'], add: registerProfileList },
  { names: ['show'], add: registerProfileShow },
  { names: ['remove', 'rm'], add: registerProfileRemove },
];

export function registerProfileCommands(program: Command, ctx: Context, { words }: Registration): void {
  const group = program
    .command('profile')
    .description('manage profiles: server, application and seller key settings')
    .addHelpText('after', '\nSettings resolve flag > environment > profile > default; `kactl profile show` says which won.');
  // Only the command the line names (every one for the group's help, or a name none has).
  for (const { add } of reachedBy(PROFILE_COMMANDS, words?.[1])) add(group, ctx);
}
