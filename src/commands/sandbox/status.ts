/** `kactl sandbox status`: the sandboxes running from this data folder (foreground or --detach). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import type { Column } from '../../io/format.js';
import { runningSandboxes } from './profile.js';

/**
 * On a narrow terminal the URL stays whole (a cut port cannot be used) and the file paths leave
 * first (a path cut short names no file): the log, then the store, then the start time.
 */
const STATUS_COLUMNS: readonly Column[] = [
  { key: 'profile', kind: 'id', priority: 3 },
  { key: 'pid', kind: 'number', priority: 2 },
  { key: 'baseUrl', header: 'URL', kind: 'id', priority: 3 },
  { key: 'state', priority: 2 },
  { key: 'data', header: 'STORE', kind: 'id', priority: 0 },
  { key: 'log', kind: 'id', priority: -1 },
  { key: 'startedAt', header: 'STARTED', kind: 'date', priority: 1 },
];

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
      await ctx.output.list(entries, STATUS_COLUMNS);
    });
}
