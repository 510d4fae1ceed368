/**
 * Seeding a sandbox the library started: a state file (YAML or JSON, docs/state-and-flows.md) or
 * the same thing as an object, applied through the sandbox's own seller API as
 * `kactl sandbox start --seed` applies it: the state engine plans (src/state/plan.ts), and each
 * action's calls go out one after another, unpaced (the sandbox is ours and fresh).
 */
import { ApiFailure, UsageError } from '../api/errors.js';
import type { SellerApi } from '../api/seller-api.js';
import { findSellerOp } from '../api/seller-catalog/index.js';
import { loadFile, withEnvironment } from '../state/load.js';
import { planState } from '../state/plan.js';
import type { Action } from '../state/records.js';
import { STATE_SCHEMA } from '../state/schema.js';
import { validate } from '../state/validate.js';

/** A state as an object: the shape of a state file (docs/state-and-flows.md), e.g. `{ subscriptions: [...], licenses: [...] }`. */
export type SandboxState = Readonly<Record<string, unknown>>;

/** The state a seed names: a file read and checked (`${NAME}` from `env`), or an object checked. */
export function readSeed(seed: string | SandboxState, env: Readonly<Record<string, string | undefined>>): Record<string, unknown> {
  if (typeof seed === 'string') {
    const loaded = loadFile(seed, STATE_SCHEMA);
    return withEnvironment(loaded, loaded.value, env);
  }
  if (seed === null || typeof seed !== 'object' || Array.isArray(seed)) throw new UsageError('seed must be a state file path or a state object.');
  const [first, ...more] = validate(seed, STATE_SCHEMA);
  if (first) {
    const where = first.path.map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`)).join('') || 'the top level';
    throw new UsageError(`seed: ${where}: ${first.message}${more.length > 0 ? ` (and ${more.length} more problem${more.length === 1 ? '' : 's'})` : ''}.`);
  }
  return { ...seed };
}

/** One action's calls, in order; a failure its `okIf` allows (already there) is not one. */
async function perform(api: SellerApi, action: Action): Promise<void> {
  for (const call of action.calls) {
    const op = findSellerOp(call.type);
    try {
      await api.call(call.type, call.params, { effect: op?.effect === 'read' ? 'read' : 'write' });
    } catch (error) {
      if (call.okIf && error instanceof ApiFailure && call.okIf.test(error.message)) continue;
      throw error;
    }
  }
}

/** Plans the state against the sandbox and carries it out; returns how many actions ran. */
export async function applySeed(api: SellerApi, state: Record<string, unknown>, source: string): Promise<number> {
  const actions = await planState(api, state, { prune: false });
  for (const action of actions) {
    try {
      await perform(api, action);
    } catch (error) {
      // The server refusing what the seed asks is the seed's fault; anything else keeps its code.
      if (!(error instanceof ApiFailure)) throw error;
      throw new UsageError(`The seed (${source}) could not be applied: ${action.verb} ${action.section} ${action.id}: ${error.message}`, { cause: error });
    }
  }
  return actions.length;
}
