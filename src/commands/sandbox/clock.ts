/**
 * `kactl sandbox clock [--reset]` and `kactl sandbox advance DURATION`: read, move or reset the
 * sandbox's clock, so testers can watch sessions, subscriptions, magic links and codes expire
 * without waiting. Only the sandbox's domain time moves: its signatures and the TOTP codes it
 * accepts stay on real time (an authenticator app knows nothing of the offset).
 */
import { InvalidArgumentError, type Command } from 'commander';
import type { Context } from '../../context.js';
import type { SandboxClockState as ClockAnswer } from '../../api/sandbox-admin.js';
import { adminTarget, adminTokenOptions, type AdminTokenOptions } from './admin.js';
import { changeSandboxClock, getSandboxClock } from '../../api/sandbox-admin.js';

const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** `16m`, `0`, `-1d`, `+6h`, `90` (seconds): whole seconds, either way. */
export function parseClockStep(raw: string): number {
  const match = /^([+-])?(\d+(?:\.\d+)?)(s|m|h|d)?$/.exec(raw.trim());
  if (!match) throw new InvalidArgumentError('Give a step like 16m, 6h, 31d, 0 or -1d (seconds when bare).');
  const seconds = Math.round(Number(match[2]) * UNIT_SECONDS[match[3] ?? 's']!);
  return match[1] === '-' ? -seconds : seconds;
}

function show(ctx: Context, clock: ClockAnswer): void {
  if (ctx.output.wantsJson) return ctx.output.json(clock);
  ctx.output.record({ now: clock.now, offset: `${clock.offset} s` }, [{ key: 'now', kind: 'date' }, { key: 'offset' }]);
}

function backHint(ctx: Context, clock: ClockAnswer): void {
  if (!ctx.output.wantsJson && clock.offset !== 0) ctx.output.note('Back to real time with: kactl sandbox clock --reset');
}

export function registerSandboxClock(group: Command, ctx: Context): void {
  adminTokenOptions(
    group
      .command('clock')
      .description("show the sandbox's clock and how far it runs from real time; --reset goes back to real time")
      .option('--reset', 'set the clock back to real time (offset 0)'),
  )
    .addHelpText('after', '\nExamples:\n  $ kactl sandbox clock --json\n  $ kactl sandbox clock --reset     # back to real time')
    .action(async (options: AdminTokenOptions & { reset?: boolean }) => {
      const target = await adminTarget(ctx, options);
      const clock = options.reset ? await changeSandboxClock(target, { offset: 0 }) : await getSandboxClock(target);
      if (options.reset && !ctx.output.wantsJson) ctx.output.success('Sandbox clock is back on real time.');
      show(ctx, clock);
      backHint(ctx, clock);
    });

  adminTokenOptions(
    group
      .command('advance')
      .description("move the sandbox's domain clock (sessions, subscriptions, links and codes expire sooner); a negative step moves it back")
      .argument('<step>', 'how far, e.g. 16m, 6h, 31d; 0; back with -- -1d', parseClockStep),
  )
    .addHelpText(
      'after',
      `
Only domain time moves: signatures and 2FA codes stay on real time. Moving back revives what only
looked expired (a session, subscription, link or code whose expiry is later than the new time);
what was deleted or spent stays so. The offset is kept in the store across restarts.

Examples:
  $ kactl sandbox advance 16m       # a magic link sent now has expired
  $ kactl sandbox advance 31d       # a 30-day license has run out
  $ kactl sandbox advance -- -1d    # one day back ("--" keeps -1d from reading as a flag)
  $ kactl sandbox clock --reset     # back to real time`,
    )
    .action(async (seconds: number, options: AdminTokenOptions) => {
      const clock = await changeSandboxClock(await adminTarget(ctx, options), { advance: seconds });
      if (!ctx.output.wantsJson) ctx.output.success(`Sandbox clock moved by ${seconds} s (now ${clock.offset} s from real time).`);
      show(ctx, clock);
      backHint(ctx, clock);
    });
}
