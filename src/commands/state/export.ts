/**
 * `kactl export [-o yaml|json]`: the server's state as a state file, on stdout. What no state
 * file can hold is left out and said on stderr, one line a record.
 */
import type { Context } from '../../context.js';

export async function exportRun(ctx: Context, format: 'yaml' | 'json'): Promise<void> {
  const { exportState, stateAsYaml } = await import('../../state/export.js');
  const { state, refused, notes } = await exportState(await ctx.sellerApi(), () => ctx.serverNow());
  for (const line of notes) ctx.output.note(line);
  for (const line of refused) ctx.output.warn(`Left out: ${line}`);
  if (format === 'json' || ctx.globals.json) return ctx.output.json(state);
  ctx.io.out(stateAsYaml(state));
}
