/**
 * `kactl client upgrade --username U --key K`: redeem a key onto an existing user. Upgrade
 * checks no password, so it never logs anyone in (spec §4.1 rule 3) — and the command says so,
 * because testers keep expecting the session to be logged in afterwards.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { askText } from './inputs.js';

interface UpgradeOptions {
  username?: string;
  key?: string;
}

export const UPGRADE_LOGS_NO_ONE_IN = 'Upgrade logs no one in (it checks no password): the session is as it was. Log in with: kactl client login';

export function registerClientUpgrade(group: Command, ctx: Context): void {
  group
    .command('upgrade')
    .description("redeem a license key onto a user's account (never logs in)")
    .option('--username <name>', 'the user to upgrade')
    .option('--key <key>', 'an unused license key')
    .addHelpText(
      'after',
      `
The user gets a subscription of the key's level. No password is checked and no one is logged in.

Examples:
  $ kactl client upgrade --username alice --key GHIJKL-789012`,
    )
    .action(async (options: UpgradeOptions) => {
      await clientUpgradeRun(ctx, options);
    });
}

async function clientUpgradeRun(ctx: Context, options: UpgradeOptions): Promise<void> {
  const username = await askText(ctx, { value: options.username, flag: '--username', label: 'Username' });
  const key = await askText(ctx, { value: options.key, flag: '--key', label: 'License key' });
  const api = await ctx.clientApi();
  const body = await api.call('upgrade', { username, key });
  if (ctx.output.wantsJson) ctx.output.json(body);
  else ctx.output.success(typeof body.message === 'string' && body.message !== '' ? body.message : `Upgraded ${username}.`);
  ctx.output.note(UPGRADE_LOGS_NO_ONE_IN);
}
