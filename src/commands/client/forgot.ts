/** `kactl client forgot --username U --email E`: ask for a password-reset email (`forgot`). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { askText } from './inputs.js';

interface ForgotOptions {
  username?: string;
  email?: string;
}

export function registerClientForgot(group: Command, ctx: Context): void {
  group
    .command('forgot')
    .description('send a password-reset email to the address the user registered with')
    .option('--username <name>', 'the username')
    .option('--email <email>', 'the email address it was registered with')
    .addHelpText('after', '\nExamples:\n  $ kactl client forgot --username alice --email alice@example.com')
    .action(async (options: ForgotOptions) => {
      const username = await askText(ctx, { value: options.username, flag: '--username', label: 'Username' });
      const email = await askText(ctx, { value: options.email, flag: '--email', label: 'Email' });
      const body = await (await ctx.clientApi()).call('forgot', { username, email });
      if (ctx.output.wantsJson) return ctx.output.json(body);
      ctx.output.success(typeof body.message === 'string' && body.message !== '' ? body.message : 'Reset email sent.');
    });
}
