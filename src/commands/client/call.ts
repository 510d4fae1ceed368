/**
 * `kactl client call TYPE [key=value ...]`: send any client operation and print its JSON answer.
 * The way to reach an operation a server has that no command covers. `name`, `ownerid` and the
 * stored `sessionid` are added; `init` stores the new session like `kactl client init`.
 */
import { Argument, type Command } from 'commander';
import type { Context } from '../../context.js';
import { completeFrom } from '../completion/value-source.js';
import { ApiFailure, AuthError, UsageError } from '../../errors.js';
import { parseKeyValues, rejectReserved } from '../raw-params.js';
import { readStdinText } from '../../io/ask.js';
import { clientTypes } from '../../api/client-catalog/index.js';

/** The types the client catalog knows, listed when completion asks. */
const CLIENT_TYPES = { kind: 'names', names: async () => clientTypes() } as const;

interface CallOptions {
  api?: '1.3' | '1.2';
  stdinParam?: string;
}

export function registerClientCall(group: Command, ctx: Context): void {
  group
    .command('call')
    .description('send any client API operation and print its JSON answer')
    .addArgument(completeFrom(new Argument('<type>', 'the operation (the `type` parameter), e.g. fetchStats'), CLIENT_TYPES))
    .argument('[params...]', 'parameters as key=value')
    .option('--api <version>', 'send to this API version (1.3 or 1.2) instead of the usual one')
    .option('--stdin-param <name>', 'read the value of this parameter from stdin (keeps passwords out of argv)')
    .addHelpText(
      'after',
      `
Examples:
  $ kactl client call fetchStats
  $ kactl client call login username=alice hwid=S-1-5-21-0000 --stdin-param pass < pw.txt
  $ kactl client call chatget channel=general --api 1.2`,
    )
    .action(async (type: string, pairs: string[], options: CallOptions) => {
      await clientCallRun(ctx, type, pairs, options);
    });
}

async function clientCallRun(ctx: Context, type: string, pairs: readonly string[], options: CallOptions): Promise<void> {
  if (options.api !== undefined && options.api !== '1.3' && options.api !== '1.2') throw new UsageError('--api takes 1.3 or 1.2.');
  const params = parseKeyValues(pairs);
  rejectReserved(params, ['type', 'name', 'ownerid', 'sessionid']);
  if (options.stdinParam) {
    params[options.stdinParam] = await readStdinText(ctx, `--stdin-param ${options.stdinParam}`);
  }
  const api = await ctx.clientApi();
  const callOptions = options.api ? { api: options.api } : {};
  try {
    const body = type === 'init' ? await api.init(params, callOptions) : await api.call(type, params, callOptions);
    ctx.output.json(body);
  } catch (error) {
    // The answer is data even when it says success:false: print it, then exit 1 with its message.
    // With --json, main prints the failure in the shape every command uses.
    if (!ctx.output.wantsJson) {
      if (error instanceof ApiFailure) ctx.output.json(error.body);
      else if (error instanceof AuthError && error.body) ctx.output.json(error.body);
    }
    throw error;
  }
}
