/** `kactl export [-o yaml|json]`: the server's state as a state file, on stdout. */
import type { Context } from '../../context.js';

export async function exportRun(ctx: Context, format: 'yaml' | 'json'): Promise<void> {
  const { exportState, stateAsYaml } = await import('../../state/export.js');
  const state = await exportState(await ctx.sellerApi(), ctx.now());
  if (format === 'json' || ctx.globals.json) return ctx.output.json(state);
  ctx.io.out(stateAsYaml(state));
}
