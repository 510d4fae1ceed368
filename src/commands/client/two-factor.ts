/** `kactl client 2fa enable [--code C]` and `kactl client 2fa disable --code C`. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { totpCodeOption } from './options.js';
import { refuseDisguisedFailure, messageText } from './answers.js';
import { askTotpCode } from './inputs.js';
import { twoFactorEnableRun } from './two-factor-enable.js';

interface CodeOptions {
  code?: string;
}

export function registerClientTwoFactor(group: Command, ctx: Context): void {
  const twoFactor = group.command('2fa').description('two-factor authentication (TOTP) of the logged-in user');

  twoFactor
    .command('enable')
    .description('turn 2FA on: a QR code and a code prompt on a terminal; the secret and a next step without one')
    .addOption(totpCodeOption('the 6-digit code that confirms the secret (the second call)'))
    .addHelpText(
      'after',
      `
On a terminal this walks you through it: the QR code to scan, the secret, a prompt for the code.
Without one, the first call prints the secret and the otpauth URI (JSON with --json) and exits 0;
a second call with --code finishes (within 5 minutes).

Examples:
  $ kactl client 2fa enable
  $ kactl client 2fa enable --json            # first call, in a script
  $ kactl client 2fa enable --code 123456     # second call`,
    )
    .action(async (options: CodeOptions) => {
      await twoFactorEnableRun(ctx, options.code);
    });

  twoFactor
    .command('disable')
    .description('turn 2FA off (needs a current code)')
    .addOption(totpCodeOption('a current 6-digit code from the authenticator app'))
    .addHelpText('after', '\nExamples:\n  $ kactl client 2fa disable --code 123456')
    .action(async (options: CodeOptions) => {
      await twoFactorDisableRun(ctx, options.code);
    });
}

async function twoFactorDisableRun(ctx: Context, flagCode: string | undefined): Promise<void> {
  const code = await askTotpCode(ctx, flagCode);
  const api = await ctx.clientApi();
  const body = await api.call('2fadisable', { code });
  refuseDisguisedFailure('2fadisable', body);
  if (ctx.output.wantsJson) return ctx.output.json(body);
  // The 1.2 source answers "2fa successfully activated" here (a copy-paste slip); say what happened.
  ctx.output.success(`Two-factor authentication is off.${messageText(body) ? ` (server: ${messageText(body)})` : ''}`);
}
