/**
 * `kactl client login --username U | --email E  --password P [--code C]`: log in with a
 * password (`login`), or by email (`loginEmail`, docs/protocol/client-api.md §4.3).
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { addPasswordOptions, hwidOption, totpCodeOption } from './options.js';
import type { PasswordFlags } from './options.js';
import { showUser } from './user-view.js';
import { markLoggedIn } from './session-state.js';
import { callLogin } from './login-call.js';
import { resolveHwid } from './hwid.js';
import { askPassword, askText } from './inputs.js';

interface LoginOptions extends PasswordFlags {
  username?: string;
  email?: string;
  code?: string;
  hwid?: string;
}

export function registerClientLogin(group: Command, ctx: Context): void {
  const command = group
    .command('login')
    .description('log in with a username (or an email) and a password')
    .option('--username <name>', 'the username')
    .option('--email <email>', 'log in by email address instead of username (loginEmail)');
  addPasswordOptions(command)
    .addOption(totpCodeOption())
    .addOption(hwidOption())
    .addHelpText(
      'after',
      `
When the account has 2FA on and --code is missing, a terminal is asked for the code.

Examples:
  $ kactl client login --username alice --password-stdin < password.txt
  $ kactl client login --email alice@example.com --password-stdin --code 123456 < password.txt
  $ kactl client login --username alice --hwid S-1-5-21-1004-2000-3000-1001   # asks for the password`,
    )
    .action(async (options: LoginOptions) => {
      await clientLoginRun(ctx, options);
    });
}

async function clientLoginRun(ctx: Context, options: LoginOptions): Promise<void> {
  if (options.username !== undefined && options.email !== undefined) throw new UsageError('Give --username or --email, not both.');
  const byEmail = options.email !== undefined;
  const who = byEmail
    ? await askText(ctx, { value: options.email, flag: '--email', label: 'Email' })
    : await askText(ctx, { value: options.username, flag: '--username', label: 'Username', alternative: '--email' });
  const pass = await askPassword(ctx, options);
  const hwid = await resolveHwid(ctx, options.hwid);
  const api = await ctx.clientApi();
  const body = byEmail
    ? await callLogin(ctx, api, 'loginEmail', { email: who, pass, hwid }, { code: options.code })
    : await callLogin(ctx, api, 'login', { username: who, pass, hwid }, { code: options.code });
  await markLoggedIn(ctx, body, byEmail ? undefined : who);
  await showUser(ctx, body, 'Logged in.');
}
