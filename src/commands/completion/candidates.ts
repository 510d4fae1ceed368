/**
 * What to offer for the word being completed, given the words before it: subcommands, flags,
 * or the values of the argument or option value being typed. Where those values come from is
 * declared where the argument is: on the commander Argument or Option (value-source.ts:
 * profiles, running sandboxes, a seller list, names kactl knows), as its choices, or, for the
 * seller commands built from the catalog, by the parameter's `completeFrom` list. Every
 * positional argument is completed, not only the first. Never prompts and never fails: a
 * completion that cannot reach the server in time simply offers less. No candidate holds a
 * control character (one a line is the scripts' protocol).
 */
import type { Argument, Command, Option } from 'commander';
import type { Context } from '../../context.js';
import { findSellerOp, opsForGroup } from '../../api/seller-catalog/index.js';
import type { ParamSpec, SellerGroup } from '../../api/seller-catalog/index.js';
import { isSensitiveName } from '../../api/redact.js';
import { SELLER_GROUP_NAMES } from '../seller/group-names.js';
import { liveValues, offerable } from './live-values.js';
import { valueSourceOf, type ValueSource } from './value-source.js';

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

/** A catalog parameter, or a list filter (which has no wire name of its own). */
type CatalogParam = Pick<ParamSpec, 'flag' | 'positional' | 'completeFrom'> & Partial<Pick<ParamSpec, 'wire' | 'secret'>>;

/**
 * The catalog parameters of a seller command path (`users extend` → the ops' params), and its
 * list filters as parameters of their own (`--used-by` completes from the usernames).
 */
function catalogParams(path: readonly string[]): CatalogParam[] {
  const [group, ...command] = path;
  if (group === undefined || !(SELLER_GROUP_NAMES as readonly string[]).includes(group)) return [];
  return opsForGroup(group as SellerGroup)
    .filter((op) => op.command.join(' ') === command.join(' '))
    .flatMap((op) => [...op.params.filter((p) => p.sandboxExtension === undefined), ...(op.filters ?? []).map((f) => ({ flag: f.flag, ...(f.completeFrom === undefined ? {} : { completeFrom: f.completeFrom }) }))]);
}

async function profileNames(ctx: Context): Promise<string[]> {
  try {
    return Object.keys((await ctx.config()).read().profiles);
  } catch {
    return [];
  }
}

/** The running sandboxes as `sandbox stop` takes them: the profile each saved, else its pid. */
async function sandboxNames(ctx: Context): Promise<string[]> {
  try {
    const { runningSandboxes } = await import('../sandbox/profile.js');
    return (await runningSandboxes(ctx)).map((entry) => entry.profile ?? String(entry.pid));
  } catch {
    return [];
  }
}

async function valuesOf(ctx: Context, source: ValueSource, signal: AbortSignal): Promise<readonly string[]> {
  switch (source.kind) {
    case 'profiles':
      return profileNames(ctx);
    case 'sandboxes':
      return sandboxNames(ctx);
    case 'names':
      return source.names(ctx);
    case 'seller-list': {
      const list = findSellerOp(source.list);
      return list === undefined ? [] : liveValues(ctx, list, signal, { field: source.field, secret: source.secret });
    }
  }
}

/** A catalog parameter's list (`completeFrom`); its values are secret when the parameter is (`key`, `sessid`). */
function catalogSource(param: CatalogParam | undefined): ValueSource | undefined {
  if (param?.completeFrom === undefined) return undefined;
  return { kind: 'seller-list', list: param.completeFrom, secret: param.secret === true || (param.wire !== undefined && isSensitiveName(param.wire)) };
}

/** Where the values of an argument or option come from: declared on it, its choices, else the catalog parameter behind it. */
async function declaredValues(ctx: Context, target: Argument | Option, param: CatalogParam | undefined, signal: AbortSignal): Promise<readonly string[]> {
  const source = valueSourceOf(target) ?? catalogSource(param);
  if (source !== undefined) return valuesOf(ctx, source, signal);
  return target.argChoices ?? [];
}

/** The argument at a position: the variadic last one takes every position after it. */
function argumentAt(cmd: Command, index: number): Argument | undefined {
  const args = cmd.registeredArguments;
  const last = args[args.length - 1];
  return args[index] ?? (last?.variadic ? last : undefined);
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

  let offered: readonly string[];
  if (takesValue(previousOption)) {
    const option = previousOption!;
    offered = await declaredValues(ctx, option, params.find((p) => !p.positional && `--${p.flag}` === option.long), signal);
  } else if (current.startsWith('-')) {
    const flags = chain.flatMap((c, depth) => c.options.filter((o) => depth === 0 || !o.hidden).map((o) => o.long).filter((f): f is string => f !== undefined));
    offered = [...new Set([...flags, '--help'])];
  } else if (cmd.commands.length > 0 && positionals === 0) {
    offered = [...cmd.commands.filter((c) => !INTERNAL.has(c.name())).map((c) => c.name()), ...(cmd === program ? ['help'] : [])];
  } else {
    const argument = argumentAt(cmd, positionals);
    // A catalog command has one positional, its first argument.
    offered = argument === undefined ? [] : await declaredValues(ctx, argument, positionals === 0 ? params.find((p) => p.positional) : undefined, signal);
  }
  return [...new Set(offered)].filter((word) => word.startsWith(current) && offerable(word));
}
