/**
 * `kactl sandbox clock` and `kactl sandbox advance DURATION`: read or move the sandbox's clock,
 * so testers can watch sessions, subscriptions, magic links and codes expire without waiting.
 * Only the sandbox's own notion of time moves; its signatures keep real timestamps.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { NetworkError } from '../../errors.js';
import { parseDurationSeconds } from '../global-options.js';
import { sandboxAdminRequest } from './admin.js';

interface ClockAnswer {
  now: number;
  offset: number;
}

function readClock(body: unknown): ClockAnswer {
  const { now, offset } = (body ?? {}) as Partial<ClockAnswer>;
  if (typeof now !== 'number' || typeof offset !== 'number') throw new NetworkError('The sandbox answered the clock request with an unexpected shape.');
  return { now, offset };
}

function show(ctx: Context, clock: ClockAnswer): void {
  if (ctx.output.wantsJson) return ctx.output.json(clock);
  ctx.output.record({ now: clock.now, offset: `${clock.offset} s` }, [{ key: 'now', kind: 'date' }, { key: 'offset' }]);
}

export function registerSandboxClock(group: Command, ctx: Context): void {
  group
    .command('clock')
    .description("show the sandbox's clock and how far it has been advanced")
    .option('--admin-token <token>', "the sandbox's admin token (default: saved in the sandbox profile)")
    .addHelpText('after', '\nExample:\n  $ kactl sandbox clock --json')
    .action(async (options: { adminToken?: string }) => {
      const body = await sandboxAdminRequest(ctx, { method: 'GET', path: '/sandbox/clock', ...(options.adminToken ? { adminToken: options.adminToken } : {}) });
      show(ctx, readClock(body));
    });

  group
    .command('advance')
    .description("move the sandbox's clock forward (sessions, subscriptions, links and codes expire sooner)")
    .argument('<duration>', 'how far, e.g. 16m, 6h, 31d', parseDurationSeconds)
    .option('--admin-token <token>', "the sandbox's admin token (default: saved in the sandbox profile)")
    .addHelpText('after', '\nExamples:\n  $ kactl sandbox advance 16m     # a magic link sent now has expired\n  $ kactl sandbox advance 31d     # a 30-day license has run out')
    .action(async (seconds: number, options: { adminToken?: string }) => {
      const body = await sandboxAdminRequest(ctx, {
        method: 'POST',
        path: '/sandbox/clock',
        form: { advance: String(Math.round(seconds)) },
        ...(options.adminToken ? { adminToken: options.adminToken } : {}),
      });
      const clock = readClock(body);
      if (!ctx.output.wantsJson) ctx.output.success(`Sandbox clock advanced by ${Math.round(seconds)} s (total offset ${clock.offset} s).`);
      show(ctx, clock);
    });
}
