/**
 * `kactl seller call TYPE [key=value ...]`: send any seller API operation and print its answer
 * (JSON, or the text of `format=text`). Operations the catalog knows keep their list and retry
 * behaviour; unknown ones are treated as writes (never retried blindly).
 */
import { Argument, type Command } from 'commander';
import type { Context } from '../../context.js';
import { ApiFailure, AuthError } from '../../errors.js';
import { findSellerOp, knownSellerTypes } from '../../api/seller-catalog/index.js';
import { completeFrom } from '../completion/value-source.js';
import { parseKeyValues, rejectReserved } from '../raw-params.js';
import { responseOptions } from './call-options.js';

export function registerSellerCall(program: Command, ctx: Context): void {
  const group = program.command('seller').description('raw seller API access (every operation also has a command of its own)');
  group
    .command('call')
    .description('send any seller API operation and print its answer')
    .addArgument(completeFrom(new Argument('<type>', 'the operation (the `type` parameter), e.g. fetchallkeys'), { kind: 'names', names: () => Promise.resolve(knownSellerTypes()) }))
    .argument('[params...]', 'parameters as key=value')
    .addHelpText(
      'after',
      `
Examples:
  $ kactl seller call fetchallkeys
  $ kactl seller call add expiry=30 amount=5 level=1 format=text
  $ kactl seller call setseller`,
    )
    .action(async (type: string, pairs: string[]) => {
      await sellerCallRun(ctx, type, pairs);
    });
}

async function sellerCallRun(ctx: Context, type: string, pairs: readonly string[]): Promise<void> {
  const params = parseKeyValues(pairs);
  rejectReserved(params, ['type', 'sellerkey']);
  const op = findSellerOp(type);
  const { format, ...rest } = params;
  const api = await ctx.sellerApi();
  try {
    const answer = await api.call(type, rest, {
      effect: op?.effect ?? 'write',
      ...(op === undefined ? {} : responseOptions(op)),
      ...(format === 'text' ? { format: 'text' as const } : {}),
    });
    if (typeof answer === 'string') ctx.output.line(answer);
    else ctx.output.json(answer);
  } catch (error) {
    // With --json, main prints the failure in the shape every command uses.
    if (!ctx.output.wantsJson) {
      if (error instanceof ApiFailure) ctx.output.json(error.body);
      else if (error instanceof AuthError && error.body) ctx.output.json(error.body);
    }
    throw error;
  }
}
