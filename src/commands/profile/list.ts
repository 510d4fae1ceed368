/** `kactl profile list`: the saved profiles, the active one marked. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import type { Column } from '../../io/format.js';
import { maskValue } from '../../api/redact.js';

/**
 * On a narrow terminal the name and the base URL stay whole (a cut URL cannot be copied); the
 * session, the masked seller key and the ownerid leave first, in that order.
 */
const PROFILE_COLUMNS: readonly Column[] = [
  { key: 'active', header: '', kind: 'boolean', priority: 3 },
  { key: 'name', kind: 'id', priority: 3 },
  { key: 'baseUrl', header: 'BASE URL', kind: 'id', priority: 3 },
  { key: 'appName', header: 'APP', kind: 'id', priority: 2 },
  { key: 'ownerid', kind: 'id', priority: 1 },
  { key: 'sellerKey', header: 'SELLER KEY', kind: 'id', priority: 0 },
  { key: 'session', kind: 'boolean', priority: -1 },
];

export function registerProfileList(group: Command, ctx: Context): void {
  group
    .command('list')
    .alias('ls')
    .description('list the saved profiles')
    .addHelpText('after', '\nExample:\n  $ kactl profile list --json')
    .action(async () => {
      const config = (await ctx.config()).read();
      const rows = Object.entries(config.profiles).map(([name, p]) => ({
        name,
        active: name === config.active,
        baseUrl: p.baseUrl ?? null,
        appName: p.appName ?? null,
        ownerid: p.ownerid ?? null,
        sellerKey: p.sellerKey ? maskValue('sellerkey', p.sellerKey) : null,
        session: p.session ? 'yes' : 'no',
      }));
      if (rows.length === 0 && !ctx.output.wantsJson) {
        ctx.output.note('No profiles yet. Add one with `kactl profile add NAME --base-url URL …`, or run `kactl sandbox start`.');
        return;
      }
      // A blank cell, not the "-" of a missing value: only the active profile is marked.
      await ctx.output.list(ctx.output.isHuman ? rows.map((r) => ({ ...r, active: r.active ? '*' : ' ' })) : rows, PROFILE_COLUMNS);
    });
}
