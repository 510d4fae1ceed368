/** `kactl profile list`: the saved profiles, the active one marked. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';

export function registerProfileList(group: Command, ctx: Context): void {
  group
    .command('list')
    .alias('ls')
    .description('list the saved profiles')
    .addHelpText('after', '\nExample:\n  $ kactl profile list --json')
    .action(async () => {
      const { maskValue } = await import('../../api/redact.js');
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
      await ctx.output.list(
        ctx.output.isHuman ? rows.map((r) => ({ ...r, active: r.active ? '*' : '' })) : rows,
        [{ key: 'active', header: '' }, { key: 'name' }, { key: 'baseUrl', header: 'BASE URL' }, { key: 'appName', header: 'APP' }, { key: 'ownerid' }, { key: 'sellerKey', header: 'SELLER KEY' }, { key: 'session' }],
      );
    });
}
