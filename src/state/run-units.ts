/**
 * Carrying out a plan's actions, whoever runs them: a call sent as the seller catalog says (its
 * effect, a list's empty answer as empty, a refusal its `okIf` allows taken as done), and the
 * plan cut into units, each an action or the actions of one batch (key-batches.ts) that a single
 * call does. run-plan.ts runs the units for apply and restore, paced and side by side; the
 * library's sandbox seeds (src/sandbox/seed.ts) run them one after another. Nothing here knows
 * the CLI.
 */
import { findSellerOp } from '../api/seller-catalog/index.js';
import type { SellerApi } from '../api/seller-api.js';
import { ApiFailure } from '../api/errors.js';
import type { Action, ActionIO, Batch, Call } from './actions.js';

/** `waitSignal`: what may still cancel the call while it waits for the pacing budget. */
export function sendCall(api: SellerApi, call: Call, waitSignal?: AbortSignal): Promise<Record<string, unknown>> {
  const op = findSellerOp(call.type);
  const list = op?.response.kind === 'list' ? { list: { key: op.response.key, emptyMessage: op.response.emptyMessage } } : {};
  return api.call(call.type, call.params, { effect: op?.effect === 'read' ? 'read' : 'write', ...list, ...(waitSignal ? { waitSignal } : {}) }).catch((error: unknown) => {
    if (call.okIf && error instanceof ApiFailure && call.okIf.test(error.message)) return {};
    throw error;
  });
}

/** What runs as one: an action, or the actions of one batch, which a single call does. */
export interface Unit {
  actions: Action[];
  lane: string | undefined;
  run(io: ActionIO): Promise<void>;
}

/** A group's actions as units, in order: a batch where its first action was. */
export function units(group: readonly Action[]): Unit[] {
  const out: Unit[] = [];
  const byBatch = new Map<Batch, Unit>();
  for (const action of group) {
    const batch = action.batch;
    const known = batch === undefined ? undefined : byBatch.get(batch);
    if (known !== undefined) {
      known.actions.push(action);
      continue;
    }
    const run = batch !== undefined ? (io: ActionIO) => batch.run(io) : action.run ?? (async (io: ActionIO) => {
      for (const call of action.calls) await io.send(call);
    });
    const unit: Unit = { actions: [action], lane: action.lane, run };
    if (batch !== undefined) byBatch.set(batch, unit);
    out.push(unit);
  }
  return out;
}
