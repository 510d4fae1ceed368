/**
 * What happens when a catalog command runs: pick the operation from the selector flags, refuse
 * flags that belong to another operation of the path, turn flags into wire parameters, then
 * hand over to the operation's own runner (extensions.ts) or the generic one.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import type { SellerOp } from '../../api/seller-catalog/index.js';
import { UsageError } from '../../errors.js';
import { defaultOp, flagsOf, positionalOf, type Verb } from './verb.js';
import { SELLER_EXTENSIONS } from './extensions.js';
import { paramKey, selectorKey, stdinKey } from './param-options.js';
import { collectWireParams } from './wire-params.js';
import { runOp } from './run-op.js';
import { listChoiceFrom } from './list-view-options.js';
import { givenFilters } from './list-filters.js';
import { checkJq } from '../../io/jq.js';

function given(command: Command, key: string): boolean {
  return command.getOptionValueSource(key) === 'cli';
}

/** The operation the selector flags pick, or a usage error saying which flag to give. */
export function pickOp(verb: Verb, command: Command): SellerOp {
  const chosen = verb.ops.filter((op) => op.selector !== undefined && given(command, selectorKey(op.selector)));
  if (chosen.length > 1) throw new UsageError(`Give only one of ${chosen.map((op) => `--${op.selector}`).join(', ')}.`);
  const picked = chosen[0] ?? defaultOp(verb);
  if (!picked) {
    const selectors = verb.ops.map((op) => `--${op.selector}`);
    throw new UsageError(`Say which records: ${selectors.join(' or ')} (e.g. ${verb.ops[0]!.example}).`);
  }
  return picked;
}

/** A flag or argument meant for another operation of the same path is a mistake, not noise. */
function refuseStrayInput(verb: Verb, op: SellerOp, command: Command, positional: string | undefined): void {
  for (const [flag, { ops }] of flagsOf(verb)) {
    if (ops.includes(op)) continue;
    if (given(command, paramKey(flag)) || given(command, stdinKey(flag))) {
      const owners = ops.map((o) => (o.selector === undefined ? `without ${verb.ops.filter((v) => v.selector !== undefined).map((v) => `--${v.selector}`).join(', ')}` : `with --${o.selector}`));
      throw new UsageError(`--${flag} applies only ${owners.join(' or ')}.`);
    }
  }
  const argument = positionalOf(verb);
  if (argument && positional !== undefined && !op.params.includes(argument.param)) {
    throw new UsageError(`--${op.selector} acts on every record, so "${positional}" has no place here; drop it or drop --${op.selector}.`);
  }
}

export async function runVerb(ctx: Context, verb: Verb, command: Command): Promise<void> {
  const op = pickOp(verb, command);
  const opts = command.opts<Record<string, unknown>>();
  const choice = listChoiceFrom(opts, givenFilters(verb.ops, op, opts, (key) => given(command, key)));
  if (choice.jq !== undefined) {
    const format = ctx.globals.output;
    if (format !== undefined && format !== 'json') throw new UsageError(`--jq prints JSON, and -o ${format} asks for another format; give one of them.`);
    // A mistake in the expression is said before anything is sent.
    await checkJq(choice.jq);
  }
  const positional = command.processedArgs[0] as string | undefined;
  refuseStrayInput(verb, op, command, positional);
  const params = await collectWireParams(ctx, op, { positional, opts, given: (key) => given(command, key) });
  const dryRun = opts.dryRun === true;
  const run = SELLER_EXTENSIONS[op.type]?.run;
  if (run !== undefined) {
    await run(ctx, op, params, { opts, dryRun });
    return;
  }
  await runOp(ctx, op, params, { dryRun, backup: opts.backup !== false, list: choice });
}
