/**
 * `kactl client online` (`fetchOnline`) and `kactl client stats` (`fetchStats`): what the app
 * tells its clients about itself.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ApiFailure } from '../../errors.js';

const NO_ONE_ONLINE = /^No online users/i;

export function registerClientAppInfo(group: Command, ctx: Context): void {
  group
    .command('online')
    .description('list the users logged in right now (names longer than 10 characters are masked by the server)')
    .addHelpText('after', '\nExamples:\n  $ kactl client online\n  $ kactl client online --json')
    .action(async () => {
      const body = await (await ctx.clientApi()).call('fetchOnline', {}, { acceptFailure: true });
      const message = typeof body.message === 'string' ? body.message : '';
      // "No online users found!" is how the server says the list is empty (docs/protocol/client-api.md §4.19).
      if (body.success === false && !NO_ONE_ONLINE.test(message)) throw new ApiFailure(message || 'fetchOnline failed.', body, 400);
      const users = Array.isArray(body.users) ? body.users.map((u: unknown) => (typeof u === 'object' && u !== null ? (u as Record<string, unknown>) : { credential: u })) : [];
      await ctx.output.list(users, [{ key: 'credential', header: 'USER' }]);
    });

  group
    .command('stats')
    .description("the app's counts: users, online users, keys, version")
    .addHelpText('after', '\nExamples:\n  $ kactl client stats')
    .action(async () => {
      const body = await (await ctx.clientApi()).call('fetchStats');
      if (ctx.output.wantsJson) return ctx.output.json(body);
      const appinfo = typeof body.appinfo === 'object' && body.appinfo !== null ? (body.appinfo as Record<string, unknown>) : {};
      ctx.output.record(appinfo);
    });
}
