/**
 * `kactl client init [--new]`: open a session and keep it in the profile.
 *
 * The spec allows one init per run of a program (spec §4.1 rule 1, §7), so a second init is
 * refused while the stored session is live. "Live" is asked of the server with a `check` call:
 * `Session not found` means it has ended (the protocol library then forgets it) and init goes
 * ahead; any other answer — validated or not yet logged in — means it is live. `--new` skips
 * the question and replaces the stored session (the old one is left to expire on the server,
 * as happens when a real program restarts).
 */
import type { Command } from 'commander';
import type { ClientApi } from '../../api/client-api.js';
import type { Context } from '../../context.js';
import { AuthError, UsageError } from '../../errors.js';
import { maskValue } from '../../api/redact.js';
import { readSession } from './session-state.js';

interface InitOptions {
  new?: boolean;
  hash?: string;
  hashFile?: string;
  tokenFile?: string;
}

export function registerClientInit(group: Command, ctx: Context): void {
  group
    .command('init')
    .description('open a client session (once per run, as the spec says) and keep it in the profile')
    .option('--new', 'replace a stored session that is still live')
    .option('--hash <md5>', "send this program hash (32 hex digits) for the app's hash check")
    .option('--hash-file <program>', 'send the MD5 of this program file, as the SDKs compute it')
    .option('--token-file <file>', "send this token file (token and its SHA-256) for the app's token system")
    .addHelpText(
      'after',
      `
Examples:
  $ kactl client init
  $ kactl client init --new          # start over while the stored session is still live
  $ kactl client init --json         # the server's answer (session id masked)
  $ kactl client init --hash-file ./MyLoader.exe --token-file ./token.txt`,
    )
    .action(async (options: InitOptions) => {
      await clientInitRun(ctx, options);
    });
}

type Liveness = 'none' | 'ended' | 'live';

/** Whether the stored session still exists on the server (see the file comment). */
async function storedSessionLiveness(ctx: Context, api: ClientApi): Promise<Liveness> {
  if ((await readSession(ctx)).session === undefined) return 'none';
  try {
    // kactl's own question, not the tester's: the sandbox's request log marks it so.
    await api.call('check', {}, { acceptFailure: true, probe: true });
    return 'live';
  } catch (error) {
    if (!(error instanceof AuthError)) throw error;
    // Session gone: the library has already forgotten it. Not validated: still live.
    return (await readSession(ctx)).session === undefined ? 'ended' : 'live';
  }
}

export async function clientInitRun(ctx: Context, options: InitOptions): Promise<void> {
  // Bad flags and unreadable files are reported before anything is sent.
  const { initExtras } = await import('./init-extras.js');
  const extras = await initExtras(options);
  const api = await ctx.clientApi();
  if (!options.new) {
    const liveness = await storedSessionLiveness(ctx, api);
    if (liveness === 'live') {
      const { session } = await readSession(ctx);
      const who = session?.user ? `, logged in as ${session.user}` : ', not logged in';
      throw new UsageError(`A client session is already open (started ${new Date(session?.createdAt ?? 0).toISOString()}${who}); a program initializes once per run.`, {
        hints: ['Start over with: kactl client init --new', 'Or end it first: kactl client logout'],
      });
    }
    if (liveness === 'ended') ctx.output.note('The stored session had ended on the server; opening a new one.');
  }
  const body = await api.init(extras);
  const id = typeof body.sessionid === 'string' ? body.sessionid : '';
  if (ctx.output.wantsJson) return ctx.output.json({ ...body, sessionid: maskValue('sessionid', id) });
  const appinfo = typeof body.appinfo === 'object' && body.appinfo !== null ? (body.appinfo as { version?: unknown }) : {};
  const version = typeof appinfo.version === 'string' ? `, app version ${appinfo.version}` : '';
  ctx.output.success(`${typeof body.message === 'string' ? body.message : 'Initialized'}: session ${maskValue('sessionid', id)} saved in profile ${await ctx.sessionProfileName()}${version}.`);
}
