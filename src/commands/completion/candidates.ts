/**
 * What to offer for the word being completed, given the words before it: subcommands, flags,
 * an option's or an argument's choices, profile names, live values from the seller API for the
 * catalog parameters that name their list (`completeFrom`), and the running sandbox's fault ids. Never prompts and never fails: a
 * completion that cannot reach the server in time simply offers less. No candidate holds a
 * control character (one a line is the scripts' protocol).
 */
import type { Command, Option } from 'commander';
import type { Context } from '../../context.js';
import { findSellerOp, opsForGroup } from '../../api/seller-catalog/index.js';
import type { ParamSpec, SellerGroup } from '../../api/seller-catalog/index.js';
import { SELLER_GROUP_NAMES } from '../registry.js';
import { liveValues, offerable } from './live-values.js';

/** Commands that exist for the shell scripts, not for people. */
const INTERNAL = new Set(['__complete']);

function findOption(chain: readonly Command[], flag: string): Option | undefined {
  for (const cmd of chain) {
    const found = cmd.options.find((o) => o.long === flag || o.short === flag);
    if (found) return found;
  }
  return undefined;
}

function takesValue(option: Option | undefined): boolean {
  return option !== undefined && (option.required || option.optional);
}

/**
 * The catalog parameters of a seller command path (`users extend` → the ops' params), and its
 * list filters as parameters of their own (`--used-by` completes from the usernames).
 */
function catalogParams(path: readonly string[]): Pick<ParamSpec, 'flag' | 'positional' | 'completeFrom'>[] {
  const [group, ...command] = path;
  if (group === undefined || !(SELLER_GROUP_NAMES as readonly string[]).includes(group)) return [];
  return opsForGroup(group as SellerGroup)
    .filter((op) => op.command.join(' ') === command.join(' '))
    .flatMap((op) => [...op.params.filter((p) => p.sandboxExtension === undefined), ...(op.filters ?? []).map((f) => ({ flag: f.flag, ...(f.completeFrom === undefined ? {} : { completeFrom: f.completeFrom }) }))]);
}

async function valuesFor(ctx: Context, param: Pick<ParamSpec, 'completeFrom'> | undefined, signal: AbortSignal): Promise<string[]> {
  if (param?.completeFrom === undefined) return [];
  const list = findSellerOp(param.completeFrom);
  if (list?.response.kind !== 'list') return [];
  return liveValues(ctx, list, signal);
}

async function profileNames(ctx: Context): Promise<string[]> {
  try {
    return Object.keys((await ctx.config()).read().profiles);
  } catch {
    return [];
  }
}

/** `signal` ends the wait for live values (the completion's deadline). */
export async function candidates(ctx: Context, program: Command, words: readonly string[], signal: AbortSignal): Promise<string[]> {
  const current = words[words.length - 1] ?? '';
  const before = words.slice(0, -1);
  const chain: Command[] = [program];
  const path: string[] = [];
  let positionals = 0;
  for (let i = 0; i < before.length; i += 1) {
    const word = before[i]!;
    const cmd = chain[0]!;
    if (word.startsWith('-')) {
      if (!word.includes('=') && takesValue(findOption(chain, word))) i += 1;
      continue;
    }
    const sub = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (sub && positionals === 0) {
      chain.unshift(sub);
      path.push(sub.name());
    } else positionals += 1;
  }
  const cmd = chain[0]!;
  const params = catalogParams(path);
  const previous = before[before.length - 1];
  const previousOption = previous?.startsWith('-') ? findOption(chain, previous) : undefined;

  let offered: string[];
  if (takesValue(previousOption)) {
    const option = previousOption!;
    if (option.argChoices) offered = option.argChoices;
    else if (option.long === '--profile') offered = await profileNames(ctx);
    else offered = await valuesFor(ctx, params.find((p) => !p.positional && `--${p.flag}` === option.long), signal);
  } else if (current.startsWith('-')) {
    const flags = chain.flatMap((c, depth) => c.options.filter((o) => depth === 0 || !o.hidden).map((o) => o.long).filter((f): f is string => f !== undefined));
    offered = [...new Set([...flags, '--help'])];
  } else if (cmd.commands.length > 0 && positionals === 0) {
    offered = cmd.commands.filter((c) => !INTERNAL.has(c.name())).map((c) => c.name());
    if (cmd === program) offered.push('help');
  } else if (cmd.registeredArguments[positionals]?.argChoices) {
    offered = cmd.registeredArguments[positionals]!.argChoices!;
  } else if (positionals === 0 && path.join(' ') === 'sandbox fault clear') {
    offered = await (await import('../sandbox/fault.js')).liveFaultIds(ctx, signal);
  } else if (positionals === 0) {
    offered = await valuesFor(ctx, params.find((p) => p.positional), signal);
  } else offered = [];
  return offered.filter((word) => word.startsWith(current) && offerable(word));
}
