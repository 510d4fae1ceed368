/**
 * Carries out a plan through the seller API: the bulk engine of `apply` and `restore`, built
 * like `licenses create`'s (paced by SellerApi to the profile's budget, a progress bar with the
 * pacing waits beside it). It says before it starts how many calls it makes and how long that
 * takes at the profile's pace, shows count and time left as it goes (a line every few seconds
 * without a terminal), and runs independent actions side by side when nothing is paced (a
 * sandbox without a rate limit), one after another otherwise.
 *
 * Order: actions run in the plan's order, a record type at a time; within one, actions on the
 * same lane (the same user) one after another. The actions of a batch (keys one `add` makes
 * together: key-batches.ts) run as one, where the first of them was, and are done or not
 * together.
 *
 * Ctrl-C stops starting actions and lets the ones under way finish (a key half made could be a
 * used key made unused): their calls go through a SellerApi of their own that Ctrl-C does not
 * abort. A second Ctrl-C ends the process at once. A failure stops the run the same way.
 */
import type { Context } from '../context.js';
import { pacingNote } from '../context.js';
import type { SellerApi } from '../api/seller-api.js';
import { InterruptedError, KactlError } from '../errors.js';
import { createProgress, pacingWaits, timeLeftText } from '../io/progress.js';
import type { Progress } from '../io/progress.js';
import type { Action, ActionIO } from './actions.js';
import { callCount, planLine } from './plan.js';
import { sendCall, units, type Unit } from './run-units.js';
import { HalfDoneReplace } from './replace.js';

export interface RunResult {
  done: Action[];
  notDone: Action[];
  /** The action that failed, and why. */
  failed?: { action: Action; message: string };
  /** Replaces that deleted the old record and could not make the new one. */
  halfDone: { action: Action; error: HalfDoneReplace }[];
  /** Ctrl-C stopped the run. */
  interrupted: boolean;
}

export interface RunOptions {
  /** `Restoring`, `Applying`: the progress bar's label. */
  label: string;
  /** Print nothing (a sandbox's seed). */
  quiet?: boolean;
  /** What a call took while planning, for the estimate. */
  roundTripMs?: number;
  /** The API to run with instead of the profile's (a sandbox's seed: its own server and key). */
  api?: SellerApi;
}

/** Side by side when nothing is paced: enough to keep a local server busy, not to flood it. */
const UNPACED_CONCURRENCY = 8;
/** A call's round trip when none was measured. */
const DEFAULT_ROUND_TRIP_MS = 100;
/** Below this, an estimate is not worth a line. */
const ESTIMATE_FROM_MS = 2000;
const LINE_EVERY_MS = 5000;

/**
 * Runs one unit. Until its first call is on its way, Ctrl-C may still cancel it (a pacing
 * wait can be a minute long); after that it runs to its end. Resolves false when it was
 * cancelled before it started.
 */
async function perform(unit: Unit, api: SellerApi, ctx: Context): Promise<boolean> {
  let sent = 0;
  const io: ActionIO = {
    send: (call) => sendCall(api, call, sent++ === 0 ? ctx.signal : undefined),
    nowSeconds: () => Math.floor(ctx.serverNow() / 1000),
  };
  try {
    await unit.run(io);
    return true;
  } catch (error) {
    if (sent === 1 && ctx.signal.aborted && error instanceof InterruptedError) return false;
    throw error;
  }
}

/** Consecutive actions of one record type (deletions apart): what may run side by side. */
function groups(actions: readonly Action[]): Action[][] {
  const out: Action[][] = [];
  for (const action of actions) {
    const last = out.at(-1);
    const head = last?.[0];
    if (last && head && head.section === action.section && (head.verb === 'delete') === (action.verb === 'delete')) last.push(action);
    else out.push([action]);
  }
  return out;
}

/** The line said before a long run: `1202 calls at 120 a minute: about 10m 12s.` */
export function estimateLine(calls: number, perMinute: number, ms: number): string {
  const pace = perMinute === 0 ? 'with no pacing' : `at ${perMinute} a minute`;
  return `${calls} call${calls === 1 ? '' : 's'} ${pace}: ${timeLeftText(ms)}.`;
}

/**
 * What a run starts with: the API (with an abort of its own, so Ctrl-C never cuts a call; its
 * pacing waits shown beside the bar), the estimate said first when the run is long, the bar.
 */
async function startRun(ctx: Context, actions: readonly Action[], options: RunOptions): Promise<{ api: SellerApi; concurrency: number; progress: Progress }> {
  // The bar, once drawn: pacing waits are shown beside it.
  const bar: { progress?: Progress } = {};
  // Ctrl-C must not cut an action in two: this API's calls end only when the process does.
  const own = new AbortController();
  const api = options.api ?? await ctx.sellerApi({
    signal: own.signal,
    onWait: (ms) => {
      const elsewhere = (wait: number): void | (() => void) => (options.quiet ? undefined : ctx.showWait(pacingNote(wait)));
      return bar.progress === undefined ? elsewhere(ms) : pacingWaits(bar.progress, ctx.now, elsewhere)(ms);
    },
  });
  const concurrency = api.callsPerMinute === 0 ? UNPACED_CONCURRENCY : 1;
  const calls = callCount(actions);
  const estimateMs = api.estimateMs(calls, (options.roundTripMs ?? DEFAULT_ROUND_TRIP_MS) / concurrency);
  if (!options.quiet && estimateMs >= ESTIMATE_FROM_MS) ctx.output.note(estimateLine(calls, api.callsPerMinute, estimateMs));
  const progress = createProgress(ctx.io, {
    total: actions.length,
    label: options.label,
    enabled: !options.quiet && actions.length > 1,
    eta: { now: ctx.now, estimateMs, lineEveryMs: LINE_EVERY_MS, line: (text) => ctx.output.note(text) },
  });
  bar.progress = progress;
  return { api, concurrency, progress };
}

export async function runPlan(ctx: Context, actions: readonly Action[], options: RunOptions): Promise<RunResult> {
  const { api, concurrency, progress } = await startRun(ctx, actions, options);
  const result: RunResult = { done: [], notDone: [], halfDone: [], interrupted: false };
  let stopping = false;
  let unexpected: Error | undefined;
  const running = new Set<Promise<void>>();
  const onInterrupt = (): void => {
    if (stopping) return;
    stopping = true;
    result.interrupted = true;
    if (running.size > 0) progress.above(() => ctx.output.note('Stopping: a record already under way is finished first (Ctrl-C again stops at once).'));
  };
  ctx.signal.addEventListener('abort', onInterrupt, { once: true });
  if (ctx.signal.aborted) onInterrupt();
  try {
    for (const group of groups(actions)) {
      const waiting = units(group);
      const busy = new Set<string>();
      while ((waiting.length > 0 && !stopping) || running.size > 0) {
        const index = stopping || running.size >= concurrency ? -1 : waiting.findIndex((u) => u.lane === undefined || !busy.has(u.lane));
        if (index < 0) {
          if (running.size === 0) break;
          await Promise.race(running);
          continue;
        }
        const unit = waiting.splice(index, 1)[0]!;
        const [first] = unit.actions as [Action];
        if (unit.lane !== undefined) busy.add(unit.lane);
        const task: Promise<void> = perform(unit, api, ctx).then(
          (started) => {
            if (!started) return;
            result.done.push(...unit.actions);
            progress.update(result.done.length);
            for (const action of unit.actions) ctx.verbose(`${planLine(action).slice(0, 1)} done: ${action.section} ${action.id}`);
          },
          (error: unknown) => {
            stopping = true;
            if (error instanceof HalfDoneReplace) result.halfDone.push({ action: first, error });
            if (!(error instanceof KactlError)) unexpected ??= error instanceof Error ? error : new Error(`unexpected failure: ${JSON.stringify(error)}`);
            else result.failed ??= { action: first, message: error.message };
            result.notDone.push(...unit.actions);
          },
        ).finally(() => {
          running.delete(task);
          if (unit.lane !== undefined) busy.delete(unit.lane);
        });
        running.add(task);
      }
      if (stopping) break;
    }
  } finally {
    ctx.signal.removeEventListener('abort', onInterrupt);
    progress.stop();
  }
  if (unexpected !== undefined) throw unexpected;
  const finished = new Set([...result.done, ...result.notDone]);
  result.notDone.push(...actions.filter((a) => !finished.has(a)));
  return result;
}
