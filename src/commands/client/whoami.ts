/**
 * `kactl client whoami [--check]`: whose is the stored session — profile, server, app, user,
 * logged in or not, when it was opened. Read from the profile, no secrets (the session id is
 * masked). `--check` also asks the server (`check`) whether the session is still there and
 * logged in, and records the answer. No stored session: exit 3, like any command needing one.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { AuthError } from '../../errors.js';
import { maskValue } from '../../api/redact.js';
import { readSession, updateSession } from './session-state.js';

interface WhoamiOptions {
  check?: boolean;
}

export function registerClientWhoami(group: Command, ctx: Context): void {
  group
    .command('whoami')
    .description("show whose the stored session is: profile, server, app, user, logged in or not")
    .option('--check', 'ask the server too whether the session is alive and logged in')
    .addHelpText('after', '\nExamples:\n  $ kactl client whoami\n  $ kactl client whoami --check --json')
    .action(async (options: WhoamiOptions) => {
      await clientWhoamiRun(ctx, options);
    });
}

/** `true` logged in, `false` alive but not logged in; throws AuthError when the session is gone. */
async function askServer(ctx: Context): Promise<boolean> {
  try {
    const body = await (await ctx.clientApi()).call('check', {}, { acceptFailure: true });
    return body.success === true;
  } catch (error) {
    if (error instanceof AuthError && (await readSession(ctx)).session !== undefined) return false;
    throw error;
  }
}

async function clientWhoamiRun(ctx: Context, options: WhoamiOptions): Promise<void> {
  const view = await readSession(ctx);
  if (view.session === undefined) {
    const why = view.elsewhere ? `The session stored in profile ${view.profile} is for another server or app` : `No client session in profile ${view.profile}`;
    throw new AuthError(`${why}.`, { hints: ['Open one with: kactl client init'] });
  }
  let validated = view.session.validated === true;
  if (options.check) {
    validated = await askServer(ctx);
    await updateSession(ctx, { validated });
  }
  const settings = await ctx.settings();
  const session = view.session;
  const record = {
    profile: view.profile,
    server: settings.baseUrl.value ?? null,
    app: settings.appName.value ?? null,
    user: session.user ?? null,
    validated,
    initialized: Math.floor(session.createdAt / 1000),
    api: session.api ?? null,
    session: maskValue('sessionid', session.id),
    ...(options.check ? { checked: 'server' } : {}),
  };
  if (ctx.output.wantsJson) return ctx.output.json({ ...record, initialized: new Date(session.createdAt).toISOString() });
  ctx.output.record(record, [
    { key: 'profile' },
    { key: 'server' },
    { key: 'app' },
    { key: 'user' },
    { key: 'validated' },
    { key: 'initialized', kind: 'date' },
    { key: 'api' },
    { key: 'session' },
    ...(options.check ? [{ key: 'checked' }] : []),
  ]);
}
