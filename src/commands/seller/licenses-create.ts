/**
 * `kactl licenses create --amount N …`: any number of keys, made in calls of at most 100 (the
 * server's cap) paced to the seller budget by SellerApi, with a progress bar on a terminal.
 *
 * Keys go out as they arrive: one a line on stdout, or appended to `--out FILE` (created new;
 * `--force` overwrites), so a run cut short still leaves every key it made. `--json` prints one
 * JSON array at the end (to the file with `--out`). If a call fails after some keys were made,
 * those keys are printed, stderr says how many of how many are missing, and the exit code is 1.
 * Creation is never retried blindly (only a rate-limit refusal is): a retried call could make
 * keys twice.
 */
import fs from 'node:fs';
import type { Context } from '../../context.js';
import { pacingNote } from '../../context.js';
import { findSellerOp } from '../../api/seller-catalog/index.js';
import type { SellerOp } from '../../api/seller-catalog/index.js';
import { ApiFailure, InterruptedError, NetworkError, PartialFailure, UsageError } from '../../errors.js';
import { isQuotaMessage } from '../../api/retry.js';
import { createProgress } from '../../io/progress.js';
import { printDryRun } from './dry-run.js';
import { responseOptions } from './call-options.js';

/** The server's cap per `add` call (docs/protocol/seller-api.md §1.5). */
export const KEYS_PER_CALL = 100;
/** The hosted service's cap per app and day through the seller API. */
const KEYS_PER_DAY = 5000;

export interface CreateOptions {
  dryRun: boolean;
  /** Write the keys here instead of stdout. */
  out?: string;
  /** Overwrite `out` if it exists. */
  force: boolean;
}

/** `250` → `[100, 100, 50]`. */
export function chunkSizes(total: number, perCall = KEYS_PER_CALL): number[] {
  const sizes: number[] = [];
  for (let left = total; left > 0; left -= perCall) sizes.push(Math.min(perCall, left));
  return sizes;
}

/** The keys of an `add` answer: `key` for one (HTTP 200), `keys` for several (HTTP 302). */
export function keysFrom(body: Record<string, unknown>): string[] {
  if (Array.isArray(body.keys)) return body.keys.filter((k): k is string => typeof k === 'string' && k !== '');
  if (typeof body.key === 'string' && body.key !== '') return [body.key];
  throw new NetworkError('The server reported success but its answer holds no keys.');
}

/** Where the keys go: stdout or a file, one a line as they come, or one JSON array at the end. */
interface KeySink {
  add(keys: readonly string[]): void;
  finish(all: readonly string[]): void;
  /** For messages: "on stdout" / "in keys.txt". */
  readonly where: string;
}

function openSink(ctx: Context, options: CreateOptions, json: boolean): KeySink {
  if (options.out === undefined) {
    return {
      where: 'on stdout',
      add: (keys) => {
        if (!json) for (const key of keys) ctx.output.line(key);
      },
      finish: (all) => {
        if (json) ctx.output.json(all);
      },
    };
  }
  const file = options.out;
  let fd: number;
  try {
    // License keys are secrets: 0600 like backups, also when --force reuses an existing file.
    fd = fs.openSync(file, options.force ? 'w' : 'wx', 0o600);
    fs.fchmodSync(fd, 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new UsageError(`${file} already exists; add --force to overwrite it.`);
    throw new UsageError(`Can't write --out ${file} (${code ?? 'error'}).`);
  }
  return {
    where: `in ${file}`,
    add: (keys) => {
      if (!json && keys.length > 0) fs.writeSync(fd, `${keys.join('\n')}\n`);
    },
    finish: (all) => {
      if (json) fs.writeSync(fd, `${JSON.stringify(all, null, 2)}\n`);
      fs.closeSync(fd);
    },
  };
}

function checkRequest(params: Readonly<Record<string, string>>): number {
  const amount = Number(params.amount ?? '1');
  if (!Number.isInteger(amount) || amount < 1) throw new UsageError('--amount must be a whole number, 1 or more.');
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

  const json = ctx.output.wantsJson;
  const sink = openSink(ctx, options, json);
  // A bar over the keys would be noise for a single call.
  const progress = createProgress(ctx.io, { total: amount, label: 'Creating licenses', enabled: calls.length > 1 });
  // Pacing waits: beside the bar when one is drawn, else the Context's single wait line.
  const api = await ctx.sellerApi({
    onWait: (ms) => {
      if (!progress.drawing) return ctx.showWait(pacingNote(ms));
      progress.status(`pacing ${(ms / 1000).toFixed(1)} s`);
      return () => progress.status(undefined);
    },
  });
  const made: string[] = [];
  try {
    for (const call of calls) {
      const keys = keysFrom(await api.call(op.type, call, { effect: op.effect }));
      progress.above(() => sink.add(keys));
      made.push(...keys);
      progress.update(made.length);
      const asked = Number(call.amount);
      if (keys.length < asked) throw new NetworkError(`The server made ${keys.length} of the ${asked} keys one call asked for.`);
    }
  } catch (error) {
    progress.stop();
    sink.finish(made);
    if (ctx.signal.aborted) {
      ctx.output.note(`Interrupted after ${made.length} of ${amount} licenses; the keys made are ${sink.where}.`);
      throw new InterruptedError();
    }
    // Nothing made: the failure is the whole story, with its own exit code (3 for a refused key…).
    if (made.length === 0) throw error;
    const missing = amount - made.length;
    const reason = error instanceof Error ? error.message : String(error);
    // The seller API's quota is per 24 hours: running again at once would only be refused again.
    const quota = error instanceof ApiFailure && isQuotaMessage(error.message);
    const next = quota
      ? `The server's limit is per 24 hours (${reason.replace(/\.$/, '')}): make the other ${missing} once its window allows, at most ${KEYS_PER_DAY} a day.`
      : `Run again with --amount ${missing} to make the rest.`;
    ctx.output.note(`The ${made.length} keys made are ${sink.where}. ${next}`);
    throw new PartialFailure(`Created ${made.length} of ${amount} licenses; ${missing} are missing. The call that failed said: ${reason}`, made, error);
  }
  progress.stop();
  sink.finish(made);
  ctx.output.success(`Created ${made.length} license${made.length === 1 ? '' : 's'}${options.out === undefined ? '' : ` in ${options.out}`}.`);
}
