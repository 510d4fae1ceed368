/** `kactl profile show [NAME]`: every effective setting, its source, secrets masked. */
import { Argument, type Command } from 'commander';
import type { Context } from '../../context.js';
import { completeFrom, PROFILE_NAMES } from '../completion/value-source.js';
import { SETTING_SPECS } from '../../config/settings.js';
import type { SettingKey } from '../../config/settings.js';
import { maskValue } from '../../api/redact.js';

export function registerProfileShow(group: Command, ctx: Context): void {
  group
    .command('show')
    .description('show every effective setting and where it came from (flag, env, profile, default)')
    .addArgument(completeFrom(new Argument('[name]', 'profile to show (default: the one in use)'), PROFILE_NAMES))
    .addHelpText('after', '\nExamples:\n  $ kactl profile show\n  $ KACTL_BASE_URL=http://127.0.0.1:9000 kactl profile show prod --json')
    .action(async (name: string | undefined) => {
      if (name !== undefined) ctx.setGlobals({ ...ctx.globals, profile: name });
      const settings = await ctx.settings();
      const store = await ctx.config();
      const secretKeys = new Set<SettingKey>(SETTING_SPECS.filter((s) => 'secret' in s && s.secret).map((s) => s.key));
      const display = (key: SettingKey, value: unknown): unknown =>
        typeof value === 'string' && secretKeys.has(key) ? maskValue(key === 'sellerKey' ? 'sellerkey' : 'secret', value) : (value ?? null);
      const rows = SETTING_SPECS.map((s) => ({ setting: s.key, value: display(s.key, settings[s.key].value), source: settings[s.key].source, description: s.description }));
      const session = settings.profile.value ? store.profile(settings.profile.value)?.session : undefined;
      if (ctx.output.wantsJson) {
        ctx.output.json({
          profile: settings.profile,
          configFile: store.path,
          settings: Object.fromEntries(rows.map((r) => [r.setting, { value: r.value, source: r.source }])),
          session: session ? { id: maskValue('sessionid', session.id), createdAt: session.createdAt, user: session.user ?? null } : null,
        });
        return;
      }
      const profileLine = settings.profile.value ? `${settings.profile.value} (from ${settings.profile.source})` : 'none';
      ctx.output.note(`Profile: ${profileLine}   Config file: ${store.path}`);
      await ctx.output.list(rows, [{ key: 'setting' }, { key: 'value' }, { key: 'source' }]);
    });
}
