/**
 * `kactl client magic-link --email E [--wait-timeout 15m] [--no-wait]` and
 * `kactl client magic-link wait [--wait-timeout …]`: send a login link by email (`magicLinkSend`),
 * then wait for the user to approve it (`magicLinkCheck`, docs/design.md "Names the spec does not
 * give"). `--no-wait` prints, stripe-style, JSON with the command that resumes the wait.
 *
 * `wait` is an optional argument rather than a subcommand: one leaf keeps the help plain (a
 * subcommand's help would list the parent's --email and --no-wait as global options) and gets
 * the global options like every other leaf.
 */
import { Argument, type Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { DEFAULT_WAIT, DEFAULT_WAIT_SECONDS, hwidOption, totpCodeOption, waitTimeoutOption } from './options.js';
import { resolveHwid } from './hwid.js';
import { askText } from './inputs.js';
import { waitForMagicLink } from './magic-wait.js';

interface MagicLinkOptions {
  email?: string;
  hwid?: string;
  wait: boolean;
  waitTimeout?: number;
  code?: string;
}

export function registerClientMagicLink(group: Command, ctx: Context): void {
  group
    .command('magic-link')
    .description('send a login link by email and wait until it is approved (`magic-link wait` resumes a wait)')
    .addArgument(new Argument('[step]', '"wait": only wait for the link already sent on the stored session').choices(['wait']))
    .option('--email <email>', "the account's email address")
    .addOption(waitTimeoutOption())
    .option('--no-wait', 'only send; print JSON with the command that waits (for scripts)')
    .addOption(totpCodeOption('the 6-digit authenticator code, when the account has 2FA on (asked for on a terminal)'))
    .addOption(hwidOption())
    .addHelpText(
      'after',
      `
While waiting: a spinner and a countdown on a terminal; exit 1 when the link expires or the wait
times out, 6 when rate limited, 130 on Ctrl-C. The sandbox's links are in: kactl sandbox outbox

Examples:
  $ kactl client magic-link --email alice@example.com
  $ kactl client magic-link --email alice@example.com --no-wait
  $ kactl client magic-link wait --wait-timeout 5m`,
    )
    .action(async (step: 'wait' | undefined, options: MagicLinkOptions) => {
      if (step === 'wait') await magicLinkWaitRun(ctx, options);
      else await magicLinkSendRun(ctx, options);
    });
}

async function magicLinkWaitRun(ctx: Context, options: MagicLinkOptions): Promise<void> {
  if (options.email !== undefined) throw new UsageError('`magic-link wait` sends nothing, so it takes no --email.');
  if (!options.wait) throw new UsageError('`magic-link wait` is the waiting; drop --no-wait.');
  await waitForMagicLink(ctx, await ctx.clientApi(), options.waitTimeout ?? DEFAULT_WAIT_SECONDS, options.code);
}

async function magicLinkSendRun(ctx: Context, options: MagicLinkOptions): Promise<void> {
  const email = await askText(ctx, { value: options.email, flag: '--email', label: 'Email' });
  const hwid = await resolveHwid(ctx, options.hwid);
  const api = await ctx.clientApi();
  const body = await api.call('magicLinkSend', { email, hwid });
  const message = typeof body.message === 'string' ? body.message : 'Magic link sent';
  if (!options.wait) {
    ctx.output.json({ sent: true, email, message, next_step: nextStep(ctx, options.waitTimeout) });
    return;
  }
  ctx.output.success(`${message}: open the link sent to ${email} and approve the login.`);
  await waitForMagicLink(ctx, api, options.waitTimeout ?? DEFAULT_WAIT_SECONDS, options.code);
}

/** The command that resumes the wait on the same profile's session. */
function nextStep(ctx: Context, waitTimeout: number | undefined): string {
  const parts = ['kactl', 'client', 'magic-link', 'wait'];
  if (ctx.globals.profile !== undefined) parts.push('--profile', ctx.globals.profile);
  parts.push('--wait-timeout', waitTimeout === undefined ? DEFAULT_WAIT : `${waitTimeout}s`);
  return parts.join(' ');
}
