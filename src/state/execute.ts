/**
 * Carries out a plan through the seller API, one call after another (paced like every other
 * command). When a call fails, it says which actions were done and which were not, and
 * stops with exit 1: the server keeps what was done, and applying the file again finishes it.
 */
import type { SellerApi } from '../api/seller-api.js';
import { findSellerOp } from '../api/seller-catalog/index.js';
import type { Context } from '../context.js';
import { ApiFailure, KactlError, PartialFailure } from '../errors.js';
import type { Action } from './records.js';
import { planLine } from './plan.js';

export interface ExecuteResult {
  done: Action[];
  notDone: Action[];
  failed?: { action: Action; message: string };
}

async function send(api: SellerApi, action: Action): Promise<void> {
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

export async function execute(ctx: Context, api: SellerApi, actions: readonly Action[], report: (line: string) => void): Promise<ExecuteResult> {
  const done: Action[] = [];
  for (const [index, action] of actions.entries()) {
    try {
      await send(api, action);
      done.push(action);
      report(`${planLine(action).slice(0, 1)} done: ${action.section} ${action.id}`);
    } catch (error) {
      if (!(error instanceof KactlError)) throw error;
      return { done, notDone: actions.slice(index), failed: { action, message: error.message } };
    }
  }
  void ctx;
  return { done, notDone: [] };
}

/** The error for a run that stopped part way, after the lists have been printed. */
export function partialError(result: ExecuteResult): PartialFailure {
  const failed = result.failed!;
  return new PartialFailure(
    `Stopped at ${failed.action.verb} ${failed.action.section} ${failed.action.id}: ${failed.message} ${result.done.length} change${result.done.length === 1 ? ' was' : 's were'} made, ${result.notDone.length} not; apply the file again to finish.`,
    { done: result.done.length, notDone: result.notDone.length },
  );
}
