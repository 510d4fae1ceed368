/**
 * The bulk engine of license creation: any number of keys, made in `add` calls of at most 100
 * (the server's cap, docs/protocol/seller-api.md §1.5) one after the other, each paced by
 * SellerApi to the key's budget. `kactl licenses create --amount N` and the library's
 * `seller.createLicenses()` both run it.
 *
 * Every key the server made is accounted for, whatever stops the run:
 * - keys are handed over as each answer arrives (`onKeys`), so a run cut short has delivered
 *   every key it learnt of;
 * - a call whose answer was lost (a timeout, a reset, a 5xx) may still have made its keys: the
 *   key list read before the first call and again afterwards says which (key-readback.ts);
 * - an abort lets the call in flight finish (its answer names keys already made), then stops.
 * Creation is never retried blindly (only a rate-limit refusal is): a retried call could make
 * keys twice.
 */
import { TransportError } from './api-errors.js';
import { InterruptedError, KactlError, NetworkError, PartialFailure, UsageError } from './errors.js';
import { keysMadeUnseen, serverKeys } from './key-readback.js';
import type { SellerApi } from './seller-api.js';

/** The server's cap per `add` call (docs/protocol/seller-api.md §1.5). */
export const KEYS_PER_CALL = 100;
/** The hosted service's cap per app and day through the seller API. */
export const KEYS_PER_DAY = 5000;

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
  throw new NetworkError('The server reported success but its answer holds no keys.', { code: 'BAD_ANSWER' });
}

/** How a run of calls went: the keys the answers named, and what stopped it early, if anything did. */
export interface BulkRun {
  readonly made: string[];
  /** The call that failed; undefined when every call answered. */
  failure?: unknown;
  /** The keys the failed call asked for when its answer was lost, so it may have made them. */
  unsure: number;
}

export interface BulkCallOptions {
  /** The wire type of the calls (`add`). */
  readonly type: string;
  /** Stops starting calls; the call in flight finishes (the SellerApi's own signal ends a pacing wait). */
  readonly signal?: AbortSignal | undefined;
  /** The keys of one answer, as it arrives; `made` counts all so far. */
  readonly onKeys?: (keys: readonly string[], made: number) => void;
  /** Asked before each call: true stops the run (somewhere the keys go refuses them). */
  readonly shouldStop?: () => boolean;
  /** The signal aborted while a call was under way (its answer is awaited). */
  readonly onAbortInFlight?: () => void;
}

/** Connection failures before the request could reach the server: nothing can have been made. */
const NOT_SENT: ReadonlySet<string> = new Set(['refused', 'dns', 'connect-timeout', 'unreachable', 'tls']);

/** True when a call may have done its work though its answer never arrived whole. */
export function answerLost(error: unknown): boolean {
  if (error instanceof TransportError) return !NOT_SENT.has(error.kind);
  return !(error instanceof KactlError) || error.code === 'NETWORK' || error.code === 'BAD_ANSWER';
}

/** The calls, one after the other, each one's keys handed over as they come. */
export async function runKeyCalls(api: SellerApi, calls: readonly Readonly<Record<string, string>>[], options: BulkCallOptions): Promise<BulkRun> {
  const run: BulkRun = { made: [], unsure: 0 };
  const { signal } = options;
  let inFlight = false;
  const onAbort = (): void => {
    if (inFlight) options.onAbortInFlight?.();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (const call of calls) {
      if (signal?.aborted || options.shouldStop?.()) break;
      let keys: string[];
      inFlight = true;
      try {
        // No signal of the call's own: an abort must not cut a request whose answer names keys
        // already made (finishOnInterrupt); the SellerApi's signal still ends a pacing wait.
        keys = keysFrom(await api.call(options.type, call, { effect: 'write', finishOnInterrupt: true }));
      } catch (error) {
        if (answerLost(error)) run.unsure = Number(call.amount);
        throw error;
      } finally {
        inFlight = false;
      }
      run.made.push(...keys);
      options.onKeys?.(keys, run.made.length);
      const asked = Number(call.amount);
      if (keys.length < asked) throw new NetworkError(`The server made ${keys.length} of the ${asked} keys one call asked for.`, { code: 'BAD_ANSWER' });
    }
  } catch (error) {
    run.failure = error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  return run;
}

/** The keys on the server before the first call, or undefined when they cannot be read. */
export async function keysBefore(api: SellerApi, signal?: AbortSignal): Promise<Set<string> | undefined> {
  try {
    return await serverKeys(api);
  } catch (error) {
    // A refused key or a dead server: the first call says so with its own error.
    if (signal?.aborted) throw error;
    return undefined;
  }
}

/** The keys a lost answer held, read back; undefined when that cannot be told. */
export async function readBackLost(
  api: SellerApi,
  before: ReadonlySet<string> | undefined,
  known: ReadonlySet<string>,
  params: Readonly<Record<string, string>>,
  signal?: AbortSignal,
): Promise<string[] | undefined> {
  if (before === undefined || signal?.aborted) return undefined;
  try {
    return await keysMadeUnseen(api, before, known, params);
  } catch {
    return undefined;
  }
}

/** What to make: the `add` operation's parameters (docs/protocol/seller-api.md §3.6). */
export interface LicenseRequest {
  /** How many keys; any number, made 100 a call. */
  readonly amount: number;
  /** Duration in days, counted from redemption; fractions allowed. */
  readonly expiry: number;
  /** The level whose subscriptions the keys grant (server default 1). */
  readonly level?: number;
  /** Layout: each `*` becomes a random character (server default `******-******-******-******-******-******`). */
  readonly mask?: string;
  /** Note stored on each key. */
  readonly note?: string;
  /** Characters: 1 mixed case and digits, 2 upper case and digits, 3 lower case and digits. */
  readonly character?: 1 | 2 | 3;
  /** Recorded as creator (server default `SellerAPI`). */
  readonly owner?: string;
}

export interface CreateLicensesOptions {
  /**
   * Stops after the call in flight; the keys made so far are in the PartialFailure thrown. (A
   * pacing wait already begun ends with the seller's own `signal`.)
   */
  readonly signal?: AbortSignal;
  /** The keys of each answer as it arrives (write them somewhere as they come). */
  readonly onKeys?: (keys: readonly string[]) => void;
  /** Keys made so far, of `amount`. */
  readonly onProgress?: (made: number, amount: number) => void;
}

export interface CreatedLicenses {
  /** Every key made, in order. */
  readonly keys: string[];
  /** Of those, the keys read back from the server after an answer was lost on the way. */
  readonly readBack: string[];
}

/** The wire parameters of a request, checked; `amount` is the whole run's. */
export function licenseParams(request: LicenseRequest): Record<string, string> {
  const { amount, expiry, level, mask, note, character, owner } = request;
  if (!Number.isInteger(amount) || amount < 1) throw new UsageError('amount must be a whole number, 1 or more.');
  if (typeof expiry !== 'number' || !Number.isFinite(expiry) || expiry <= 0) throw new UsageError('expiry must be a number of days above 0.');
  if (mask !== undefined && !mask.includes('*') && amount > 1) {
    throw new UsageError(`The mask "${mask}" has no * so it is one fixed key; add * where random characters go, or make one key.`);
  }
  const params: Record<string, string> = { expiry: String(expiry), amount: String(amount) };
  if (level !== undefined) params.level = String(level);
  if (mask !== undefined) params.mask = mask;
  if (note !== undefined) params.note = note;
  if (character !== undefined) params.character = String(character);
  if (owner !== undefined) params.owner = owner;
  return params;
}

/**
 * Makes `amount` keys. Resolves with every key when all were made. Otherwise throws: the failure
 * itself when no key was made (an AuthError for a refused seller key…), an InterruptedError when
 * the signal stopped it before any key, and a PartialFailure whose `partial` is the keys made
 * (`string[]`) and whose `cause` is what stopped the run when only some were.
 */
export async function createLicenses(api: SellerApi, request: LicenseRequest, options: CreateLicensesOptions = {}): Promise<CreatedLicenses> {
  const params = licenseParams(request);
  const amount = request.amount;
  const calls = chunkSizes(amount).map((size) => ({ ...params, amount: String(size) }));
  const { signal } = options;
  const before = await keysBefore(api, signal);
  const run = await runKeyCalls(api, calls, {
    type: 'add',
    signal,
    onKeys: (keys, made) => {
      options.onKeys?.(keys);
      options.onProgress?.(made, amount);
    },
  });
  const readBack: string[] = [];
  let unread = 0;
  if (run.unsure > 0) {
    const found = await readBackLost(api, before, new Set(run.made), params, signal);
    if (found === undefined) unread = run.unsure;
    else if (found.length > 0) {
      run.made.push(...found);
      readBack.push(...found);
      options.onKeys?.(found);
      options.onProgress?.(run.made.length, amount);
    }
  }
  const made = run.made.length;
  const missing = Math.max(0, amount - made);
  if (missing === 0 && unread === 0 && !signal?.aborted) return { keys: run.made, readBack };
  const stopped = signal?.aborted ? new InterruptedError() : run.failure;
  if (made === 0) throw stopped;
  const why = stopped instanceof Error ? stopped.message : String(stopped);
  const unsure = unread > 0 ? ` The call that failed may have made up to ${unread} more keys that could not be read back.` : '';
  throw new PartialFailure(`Created ${made} of ${amount} licenses; ${missing} are missing. ${signal?.aborted ? 'Interrupted.' : `The call that failed said: ${why}`}${unsure}`, run.made, stopped);
}
