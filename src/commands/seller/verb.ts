/**
 * A catalog command path and the operations behind it, as both the command builder
 * (build-verb.ts, loaded for `--help`) and the runner (run-verb.ts, loaded when it runs) see it.
 */
import type { ParamSpec, SellerGroup, SellerOp } from '../../api/seller-catalog/index.js';

/** The operations reached through one command path (catalog `commandsForGroup`). */
export interface Verb {
  readonly group: SellerGroup;
  readonly command: readonly string[];
  /** The default (no selector) first when there is one, then the selector variants. */
  readonly ops: readonly SellerOp[];
}

/** The path's positional parameter, and whether every operation of the path needs it. */
export function positionalOf(verb: Verb): { param: ParamSpec; everyOp: boolean } | undefined {
  const found = verb.ops.flatMap((op) => op.params.filter((p) => p.positional));
  const first = found[0];
  if (!first) return undefined;
  if (found.some((p) => p.flag !== first.flag)) {
    throw new Error(`${verb.group} ${verb.command.join(' ')}: operations disagree on the positional argument`);
  }
  return { param: first, everyOp: found.length === verb.ops.length };
}

/** The default operation of the path (no selector), if any. */
export function defaultOp(verb: Verb): SellerOp | undefined {
  return verb.ops.find((op) => op.selector === undefined);
}

/** Every flag of the path (positionals apart), with the operations that take it. */
export function flagsOf(verb: Verb): Map<string, { param: ParamSpec; ops: SellerOp[] }> {
  const flags = new Map<string, { param: ParamSpec; ops: SellerOp[] }>();
  for (const op of verb.ops) {
    for (const param of op.params) {
      // A sandbox extension is sent only where the server says it takes it (state/key-batches.ts).
      if (param.positional || param.sandboxExtension !== undefined) continue;
      const known = flags.get(param.flag);
      if (!known) {
        flags.set(param.flag, { param, ops: [op] });
        continue;
      }
      if (known.param.type !== param.type || Boolean(known.param.secret) !== Boolean(param.secret)) {
        throw new Error(`${verb.group} ${verb.command.join(' ')}: --${param.flag} means two different things`);
      }
      known.ops.push(op);
    }
  }
  return flags;
}
