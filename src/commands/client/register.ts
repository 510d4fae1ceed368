/**
 * `kactl client register --username U --password P --key K [--email E]`: create an account
 * with a license key; the server logs the new user in (spec §3, License: unused → used).
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { addPasswordOptions, hwidOption } from './options.js';
import type { PasswordFlags } from './options.js';
import { showUser } from './user-view.js';
import { markLoggedIn } from './session-state.js';
import { resolveHwid } from './hwid.js';
import { askPassword, askText } from './inputs.js';

interface RegisterOptions extends PasswordFlags {
  username?: string;
  key?: string;
  email?: string;
  hwid?: string;
}

export function registerClientRegister(group: Command, ctx: Context): void {
  const command = group
    .command('register')
    .description('create an account with a license key (the server logs it in)')
    .option('--username <name>', 'the new username')
    .option('--key <key>', 'an unused license key')
    .option('--email <email>', 'email address (needed later for forgot, email codes and magic links)');
  addPasswordOptions(command)
    .addOption(hwidOption())
    .addHelpText(
      'after',
      `
Without a terminal every value must come from a flag; on a terminal missing ones are asked for.

Examples:
  $ kactl client register --username alice --key ABCDEF-123456 --password-stdin < password.txt
  $ kactl client register --username bob --key GHIJKL-789012 --email bob@example.com   # asks for the password`,
    )
    .action(async (options: RegisterOptions) => {
      await clientRegisterRun(ctx, options);
    });
}

async function clientRegisterRun(ctx: Context, options: RegisterOptions): Promise<void> {
  const username = await askText(ctx, { value: options.username, flag: '--username', label: 'Username' });
  const key = await askText(ctx, { value: options.key, flag: '--key', label: 'License key' });
  const pass = await askPassword(ctx, options);
  const hwid = await resolveHwid(ctx, options.hwid);
  const api = await ctx.clientApi();
  const body = await api.call('register', { username, pass, key, email: options.email, hwid });
  await markLoggedIn(ctx, body, username);
  await showUser(ctx, body, 'Registered and logged in.');
}
