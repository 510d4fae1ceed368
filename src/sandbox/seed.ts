/**
 * Seeding a sandbox the library started: a state file (YAML or JSON, docs/state-and-flows.md) or
 * the same thing as an object, applied through the sandbox's own seller API as
 * `kactl sandbox start --seed` applies it: read and checked as `kactl apply` reads a file
 * (src/state/load.ts, check.ts: `!env NAME` from the env given, every record's rules, every
 * call's values), planned by the state engine (src/state/plan.ts), and carried out unit by unit
 * (src/state/run-units.ts: an action, or a batch of keys one call makes), one after another,
 * unpaced (the sandbox is ours and fresh).
 */
import { ApiFailure, UsageError } from '../api/errors.js';
import type { SellerApi } from '../api/seller-api.js';
import { callProblems, stateProblems } from '../state/check.js';
import { loadFile } from '../state/load.js';
import { planState } from '../state/plan.js';
import { planning } from '../state/actions.js';
import type { ActionIO } from '../state/actions.js';
import { sendCall, units } from '../state/run-units.js';
import { STATE_SCHEMA } from '../state/schema.js';
import type { DocPath } from '../state/validate.js';

/** A state as an object: the shape of a state file (docs/state-and-flows.md), e.g. `{ subscriptions: [...], licenses: [...] }`. */
export type SandboxState = Readonly<Record<string, unknown>>;

function describePath(path: DocPath): string {
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`)).join('') || 'the top level';
}

/**
 * The state a seed names, checked as `kactl apply` checks a file: a file read (`!env NAME` from
 * `env`; a `${NAME}` is refused, as there), or an object taken as it is (no `!env` there: a
 * program puts its values in itself).
 */
export function readSeed(seed: string | SandboxState, env: Readonly<Record<string, string | undefined>>): Record<string, unknown> {
  if (typeof seed === 'string') {
    const loaded = loadFile(seed, STATE_SCHEMA, { env, stateAt: [[]] });
    const [first, ...more] = stateProblems(loaded.value);
    if (first) throw new UsageError(`${seed}, line ${loaded.lineOf(first.path)}: ${describePath(first.path)}: ${first.message}${moreProblems(more.length)}.`);
    return loaded.value;
  }
  if (seed === null || typeof seed !== 'object' || Array.isArray(seed)) throw new UsageError('seed must be a state file path or a state object.');
  const [first, ...more] = stateProblems(seed);
  if (first) throw new UsageError(`seed: ${describePath(first.path)}: ${first.message}${moreProblems(more.length)}.`);
  return { ...seed };
}

function moreProblems(count: number): string {
  return count > 0 ? ` (and ${count} more problem${count === 1 ? '' : 's'})` : '';
}

/**
 * Plans the state against the sandbox and carries it out; returns how many actions ran.
 * `nowSeconds` is the sandbox's domain clock (time left on keys and subscriptions is counted
 * from it). What the seed asks and the server refuses, or what no call can make, is the seed's
 * fault (a UsageError); anything else keeps its code.
 */
export async function applySeed(api: SellerApi, state: Record<string, unknown>, source: string, nowSeconds: () => number): Promise<number> {
  const plan = planning({ prune: false });
  const actions = await planState(api, state, plan);
  const problems = [...callProblems(actions), ...plan.leftOut];
  if (problems.length > 0) throw new UsageError(`The seed (${source}) cannot be applied: ${problems[0]!.replace(/\.$/, '')}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}.`);
  const io: ActionIO = { send: (call) => sendCall(api, call), nowSeconds };
  for (const unit of units(actions)) {
    try {
      await unit.run(io);
    } catch (error) {
      if (!(error instanceof ApiFailure)) throw error;
      const [action] = unit.actions;
      throw new UsageError(`The seed (${source}) could not be applied: ${action!.verb} ${action!.section} ${action!.id}: ${error.message}`, { cause: error });
    }
  }
  return actions.length;
}
