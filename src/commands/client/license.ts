/**
 * `kactl client license --key K [--code C]`: log in with a license key alone. The first use
 * registers a user named after the key; later uses log that user in (docs/protocol/client-api.md §4.5).
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { hwidOption, totpCodeOption } from './options.js';
import { showUser } from './user-view.js';
import { markLoggedIn } from './session-state.js';
import { callLogin } from './login-call.js';
import { resolveHwid } from './hwid.js';
import { askText } from './inputs.js';

interface LicenseOptions {
  key?: string;
  code?: string;
  hwid?: string;
}

export function registerClientLicense(group: Command, ctx: Context): void {
  group
    .command('license')
    .description('log in with a license key alone (the first use registers a user named after the key)')
    .option('--key <key>', 'the license key')
    .addOption(totpCodeOption())
    .addOption(hwidOption())
    .addHelpText(
      'after',
      `
Examples:
  $ kactl client license --key ABCDEF-123456
  $ kactl client license --key ABCDEF-123456 --code 123456 --json`,
    )
    .action(async (options: LicenseOptions) => {
      await clientLicenseRun(ctx, options);
    });
}

async function clientLicenseRun(ctx: Context, options: LicenseOptions): Promise<void> {
  const key = await askText(ctx, { value: options.key, flag: '--key', label: 'License key' });
  const hwid = await resolveHwid(ctx, options.hwid);
  const api = await ctx.clientApi();
  const body = await callLogin(ctx, api, 'license', { key, hwid }, { code: options.code });
  await markLoggedIn(ctx, body, key);
  await showUser(ctx, body, 'Logged in with the license.');
}
