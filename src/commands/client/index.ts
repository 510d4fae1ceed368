/** `kactl client …`: the client API, as a protected program would call it. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { registerClientCall } from './call.js';

export function registerClientCommands(program: Command, ctx: Context): void {
  const group = program
    .command('client')
    .description('walk a protected program\'s flows: init, register, logins, 2FA, magic links, variables, chat');
  registerClientCall(group, ctx);
}
