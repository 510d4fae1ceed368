/**
 * `kactl client logout`: end the session on the server and forget it. Ending a session that is
 * already gone (none stored, or the server no longer knows it) is not an error: the state the
 * user asked for holds, and a cleanup step in a script should not fail on it.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { AuthError } from '../../errors.js';
import { readSession, forgetSession } from './session-state.js';

export function registerClientLogout(group: Command, ctx: Context): void {
  group
    .command('logout')
    .description('end the session on the server and forget it')
    .addHelpText('after', '\nExamples:\n  $ kactl client logout')
    .action(async () => {
      await clientLogoutRun(ctx);
    });
}

async function clientLogoutRun(ctx: Context): Promise<void> {
  const api = await ctx.clientApi();
  if ((await readSession(ctx)).session === undefined) {
    if (ctx.output.wantsJson) return ctx.output.json({ success: true, message: 'No session to end.' });
    return ctx.output.note('No client session to end.');
  }
  let body: Record<string, unknown>;
  try {
    body = await api.call('logout');
  } catch (error) {
    // `Session not found`: the library has forgotten it already; anything else is a real error.
    if (!(error instanceof AuthError) || (await readSession(ctx)).session !== undefined) throw error;
    if (ctx.output.wantsJson) return ctx.output.json(error.body ?? { success: false, message: error.message });
    return ctx.output.note(`The session had already ended (${error.message}).`);
  }
  await forgetSession(ctx);
  if (ctx.output.wantsJson) return ctx.output.json(body);
  ctx.output.success(typeof body.message === 'string' && body.message !== '' ? body.message : 'Logged out.');
}
