/** `kactl client log MESSAGE [--pcuser NAME]`: send a log line as the program would (`log`). */
import os from 'node:os';
import type { Command } from 'commander';
import type { Context } from '../../context.js';

interface LogOptions {
  pcuser?: string;
}

/** The machine user name, as SDKs send it in `pcuser` (docs/protocol/client-api.md §4.18). */
function machineUser(): string | undefined {
  try {
    return os.userInfo().username;
  } catch {
    return undefined;
  }
}

export function registerClientLog(group: Command, ctx: Context): void {
  group
    .command('log')
    .description("send a log line to the app's logs (at most 275 characters)")
    .argument('<message>', 'the log line')
    .option('--pcuser <name>', "machine user name to report (default: this machine's user)")
    .addHelpText('after', '\nExamples:\n  $ kactl client log "checkout flow reached step 3"')
    .action(async (message: string, options: LogOptions) => {
      const body = await (await ctx.clientApi()).call('log', { message, pcuser: options.pcuser ?? machineUser() });
      if (ctx.output.wantsJson) return ctx.output.json(body);
      ctx.output.success(typeof body.message === 'string' && body.message !== '' ? body.message : 'Log sent.');
    });
}
