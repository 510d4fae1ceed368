/** `kactl sandbox status`: the sandboxes running from this data folder (foreground or --detach). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { runningSandboxes } from './profile.js';

export function registerSandboxStatus(group: Command, ctx: Context): void {
  group
    .command('status')
    .description('list the running sandboxes: pid, base URL, store, profile, log')
    .addHelpText('after', '\nExamples:\n  $ kactl sandbox status\n  $ kactl sandbox status --json')
    .action(async () => {
      const entries = (await runningSandboxes(ctx)).map((entry) => ({
        profile: entry.profile ?? null,
        pid: entry.pid,
        baseUrl: entry.baseUrl ?? null,
        state: entry.state,
        data: entry.data,
        log: entry.logFile ?? null,
        startedAt: entry.startedAt,
        hostname: entry.hostname ?? null,
        caFile: entry.caFile ?? null,
      }));
      if (ctx.output.wantsJson) return ctx.output.json(entries);
      if (entries.length === 0 && ctx.output.isHuman) return ctx.output.note('No sandbox is running (start one with: kactl sandbox start --detach).');
      await ctx.output.list(entries, [
        { key: 'profile' },
        { key: 'pid' },
        { key: 'baseUrl', header: 'URL' },
        { key: 'state' },
        { key: 'data', header: 'STORE' },
        { key: 'log' },
        { key: 'startedAt', header: 'STARTED' },
      ]);
    });
}
