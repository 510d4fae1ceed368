/**
 * `kactl client email-code send --email E` and `kactl client email-code verify --email E --code C`:
 * log in with a one-time code sent by email (`emailCodeSend`, `emailCodeVerify`; docs/design.md
 * "Names the spec does not give").
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { hwidOption, totpCodeOption } from './options.js';
import { showUser } from './user-view.js';
import { markLoggedIn } from './session-state.js';
import { callLogin } from './login-call.js';
import { resolveHwid } from './hwid.js';
import { askText } from './inputs.js';

interface SendOptions {
  email?: string;
  hwid?: string;
}

interface VerifyOptions extends SendOptions {
  code?: string;
  totp?: string;
}

export function registerClientEmailCode(group: Command, ctx: Context): void {
  const emailCode = group.command('email-code').description('log in with a one-time code sent by email');

  emailCode
    .command('send')
    .description('email a one-time login code to the account')
    .option('--email <email>', "the account's email address")
    .addOption(hwidOption())
    .addHelpText('after', '\nExamples:\n  $ kactl client email-code send --email alice@example.com\n  $ kactl sandbox outbox --to alice@example.com      # the sandbox keeps the mail here')
    .action(async (options: SendOptions) => {
      await emailCodeSendRun(ctx, options);
    });

  emailCode
    .command('verify')
    .description('log in with the code from the email')
    .option('--email <email>', "the account's email address")
    .option('--code <code>', 'the code from the email')
    .addOption(totpCodeOption('the 6-digit authenticator code, when the account has 2FA on', '--totp <code>'))
    .addOption(hwidOption())
    .addHelpText('after', '\nExamples:\n  $ kactl client email-code verify --email alice@example.com --code 482913\n  $ kactl client email-code verify --email alice@example.com --code 482913 --totp 123456')
    .action(async (options: VerifyOptions) => {
      await emailCodeVerifyRun(ctx, options);
    });
}

async function emailCodeSendRun(ctx: Context, options: SendOptions): Promise<void> {
  const email = await askText(ctx, { value: options.email, flag: '--email', label: 'Email' });
  const hwid = await resolveHwid(ctx, options.hwid);
  const body = await (await ctx.clientApi()).call('emailCodeSend', { email, hwid });
  if (ctx.output.wantsJson) return ctx.output.json(body);
  ctx.output.success(`${typeof body.message === 'string' && body.message !== '' ? body.message : 'Code sent'} (to ${email}).`);
  ctx.output.note(`Then: kactl client email-code verify --email ${email} --code CODE`);
}

async function emailCodeVerifyRun(ctx: Context, options: VerifyOptions): Promise<void> {
  const email = await askText(ctx, { value: options.email, flag: '--email', label: 'Email' });
  const code = await askText(ctx, { value: options.code, flag: '--code', label: 'Code from the email' });
  const hwid = await resolveHwid(ctx, options.hwid);
  const api = await ctx.clientApi();
  // `code` is the emailed code here, so the 2FA code travels as `totp` (server/client/email-code.ts).
  const body = await callLogin(ctx, api, 'emailCodeVerify', { email, code: code.trim(), hwid }, { code: options.totp, wire: 'totp', flag: '--totp' });
  await markLoggedIn(ctx, body, undefined);
  await showUser(ctx, body, 'Logged in with the emailed code.');
}
