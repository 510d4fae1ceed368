/**
 * `kactl licenses create --amount N …`: any number of keys, made in calls of at most 100 (the
 * server's cap) paced to the seller budget by SellerApi, with a progress bar on a terminal.
 *
 * Keys go out as they arrive: one a line on stdout, or appended to `--out FILE` (key-sink.ts), so
 * a run cut short still leaves every key it made. `--json` prints one JSON array at the end (to
 * the file with `--out`). Creation is never retried blindly (only a rate-limit refusal is): a
 * retried call could make keys twice.
 *
 * Every key the server made is accounted for, whatever stops the run:
 * - a refused call: the keys made are printed, stderr says how many of how many are missing and
 *   the `--amount` that makes the rest, exit 1;
 * - a call whose answer was lost (timeout, reset, 5xx): the key list read before the first call
 *   and again now says what that call made (key-readback.ts), and those keys are printed too;
 * - Ctrl-C: the call in flight finishes (its answer names keys already made), then the run stops
 *   with exit 130;
 * - stdout or the file refusing a write (a full disk): the run stops, and the keys it could not
 *   take go to a recovery file or stderr (key-rescue.ts), named in the message.
 */
import type { Context } from '../../context.js';
import { pacingNote } from '../../context.js';
import { findSellerOp } from '../../api/seller-catalog/index.js';
import type { SellerOp } from '../../api/seller-catalog/index.js';
import { ApiFailure, InterruptedError, PartialFailure, UsageError } from '../../errors.js';
import { isQuotaMessage } from '../../api/retry.js';
import { createProgress, pacingWaits } from '../../io/progress.js';
import { chunkSizes, KEYS_PER_DAY, keysBefore, readBackLost, runKeyCalls } from '../../api/bulk-licenses.js';
import { rescueKeys } from './key-rescue.js';
import { openSink, type KeySink } from './key-sink.js';
import { printDryRun } from './dry-run.js';
import { responseOptions } from '../../api/seller-call-options.js';

export interface CreateOptions {
  dryRun: boolean;
  /** Write the keys here instead of stdout. */
  out?: string;
  /** Overwrite `out` if it exists. */
  force: boolean;
}

export { chunkSizes, keysFrom } from '../../api/bulk-licenses.js';

function checkRequest(params: Readonly<Record<string, string>>): number {
  const amount = Number(params.amount ?? '1');
  if (!Number.isInteger(amount) || amount < 1) throw new UsageError('--amount must be a whole number, 1 or more.');
  // Every server refuses it; asked before any call, so a mistake costs no request.
  const expiry = Number(params.expiry);
  if (params.expiry !== undefined && !(expiry > 0)) throw new UsageError(`--expiry is the keys' duration in days and must be above 0 (30, or 0.5 for 12 hours), not ${params.expiry}.`);
  const mask = params.mask;
  // A mask without `*` is one fixed key: the server refuses it with an amount above 1.
  if (mask !== undefined && !mask.includes('*') && amount > 1) {
    throw new UsageError(`The mask "${mask}" has no * so it is one fixed key; add * where random characters go, or use --amount 1.`);
  }
  return amount;
}

/**
 * A key grants the subscriptions of its level: keys at a level no subscription has give a user
 * nothing. Said before making them (one read of the subscription list); when the list cannot be
 * read the keys are made without the check, since it only warns.
 */
async function warnIfNoSubscriptionAt(ctx: Context, level: string): Promise<void> {
  const subs = findSellerOp('fetchallsubs')!;
  let levels: string[];
  try {
    const body = await (await ctx.sellerApi()).call(subs.type, {}, { effect: 'read', ...responseOptions(subs) });
    levels = (body.subs as { level?: unknown }[]).map((sub) => String(sub.level));
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return;
  }
  if (levels.includes(String(Number(level)))) return;
  const known = levels.length === 0 ? 'the application has no subscriptions yet' : `the subscriptions have level ${[...new Set(levels)].sort().join(', ')}`;
  ctx.output.warn(`No subscription has level ${level} (${known}): these keys will grant nothing until one does (kactl subs create --name NAME --level ${level}).`);
}

export async function createLicenses(ctx: Context, op: SellerOp, params: Readonly<Record<string, string>>, options: CreateOptions): Promise<void> {
  const amount = checkRequest(params);
  const calls = chunkSizes(amount).map((size) => ({ ...params, amount: String(size) }));
  if (options.dryRun) return printDryRun(ctx, op, calls, { backup: false });
  if (amount > KEYS_PER_DAY) ctx.output.warn(`The hosted service makes at most ${KEYS_PER_DAY} keys a day through the seller API; calls past that will fail.`);

  if (params.level !== undefined) await warnIfNoSubscriptionAt(ctx, params.level);

  const sink = openSink(ctx, { ...(options.out === undefined ? {} : { out: options.out }), force: options.force, document: ctx.output.wantsJson ? (keys) => ctx.output.document(keys) : undefined });
  // A bar over the keys would be noise for a single call.
  const progress = createProgress(ctx.io, { total: amount, label: 'Creating licenses', enabled: calls.length > 1 });
  // Pacing waits: beside the bar when one is drawn, else the Context's single wait line.
  const api = await ctx.sellerApi({ onWait: pacingWaits(progress, ctx.now, (ms) => ctx.showWait(pacingNote(ms))) });
  const before = await keysBefore(api, ctx.signal);
  // Ctrl-C lets the call in flight finish: its answer names keys the server has already made.
  const run = await runKeyCalls(api, calls, {
    type: op.type,
    signal: ctx.signal,
    shouldStop: () => sink.failure !== undefined,
    onKeys: (keys, made) => {
      progress.above(() => sink.add(keys));
      progress.update(made);
    },
    onAbortInFlight: () => progress.above(() => ctx.output.note('Stopping after the call in flight, so the keys it makes are not lost; Ctrl-C again stops at once.')),
  });
  // An answer lost in transit: the server's list says what that call made.
  let unread = 0;
  if (run.unsure > 0) {
    const found = await readBackLost(api, before, new Set(run.made), params, ctx.signal);
    if (found === undefined) unread = run.unsure;
    else if (found.length > 0) {
      run.made.push(...found);
      progress.above(() => sink.add(found));
      progress.update(run.made.length);
      ctx.output.warn(
        found.length <= run.unsure
          ? `The answer to one call was lost; the ${plural(found.length, 'key')} it made ${found.length === 1 ? 'was' : 'were'} read back from the server.`
          : `The answer to one call was lost; ${found.length} keys with this level and note were read back, more than it asked for (${run.unsure}): another process may be making such keys too.`,
      );
    }
  }
  progress.stop();
  sink.finish(run.made);
  const undelivered = run.made.filter((key) => !sink.delivered.has(key));
  const rescued = undelivered.length > 0 ? rescueKeys(ctx, undelivered, sink) : undefined;
  const made = run.made.length;
  const missing = Math.max(0, amount - made);
  const place = whereKeysAre(made, sink, undelivered.length, rescued);
  if (ctx.signal.aborted) {
    ctx.output.note(`Interrupted after ${made} of ${amount} licenses.${place}${missing > 0 ? ` Run again with --amount ${missing} to make the rest.` : ''}`);
    throw new InterruptedError();
  }
  // Done when every key asked for is made and delivered, even if an answer had to be read back.
  if (missing === 0 && sink.failure === undefined && unread === 0) {
    ctx.output.success(`Created ${plural(made, 'license')}${options.out === undefined ? '' : ` in ${options.out}`}.`);
    return;
  }
  const error = run.failure;
  const reason = error instanceof Error ? error.message : String(error);
  // The seller API's quota is per 24 hours: running again at once would only be refused again.
  const quota = error instanceof ApiFailure && isQuotaMessage(error.message);
  const next =
    unread > 0
      ? ` The call that failed may have made up to ${unread} more keys that kactl could not read back: check \`kactl licenses list\` before making the other ${missing}.`
      : missing === 0 || made === 0
        ? ''
        : quota
          ? ` The server's limit is per 24 hours (${reason.replace(/\.$/, '')}): make the other ${missing} once its window allows, at most ${KEYS_PER_DAY} a day.`
          : ` Run again with --amount ${missing} to make the rest.`;
  if (`${place}${next}` !== '') ctx.output.note(`${place}${next}`.trim());
  // Nothing made: the failure is the whole story (no "make the rest": there is no rest, only the
  // same request, which the error says what to change in), with its own exit code (3 for a refused key…).
  if (made === 0 && sink.failure === undefined) throw error;
  // Everything asked for was made: what failed was only where the keys went.
  if (missing === 0 && sink.failure !== undefined) throw sink.failure;
  const why = sink.failure !== undefined ? sink.failure.message : `The call that failed said: ${reason}`;
  throw new PartialFailure(`Created ${made} of ${amount} licenses; ${missing} are missing. ${why}`, run.made, sink.failure ?? error);
}

/** `1 key`, `5 keys`. */
function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** " The 200 keys made are in keys.txt (100) and in /…/recovery/….txt (100, which keys.txt could not take)." */
function whereKeysAre(made: number, sink: KeySink, undelivered: number, rescued: string | undefined): string {
  if (made === 0) return '';
  const subject = `The ${plural(made, 'key')} made ${made === 1 ? 'is' : 'are'}`;
  if (undelivered === 0 || rescued === undefined) return ` ${subject} ${sink.where}.`;
  if (undelivered === made) return ` ${subject} ${rescued} (${sink.name} could not take ${made === 1 ? 'it' : 'them'}).`;
  return ` ${subject} ${sink.where} (${made - undelivered}) and ${rescued} (${undelivered}, which ${sink.name} could not take).`;
}
