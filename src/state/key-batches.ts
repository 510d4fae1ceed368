/**
 * Missing keys made many at a time. The seller API has no call that makes several *given* keys:
 * a key is put back by `add` with the key as a fixed `mask`, one call each. A kactl sandbox takes
 * up to 100 in one call (`add` with `keys`, one a line) and says so in `getsettings`, under
 * `sandbox.extensions` (docs/protocol/seller-api.md §1.7). Where it says so, the missing keys
 * that share level, note and duration are made in calls of that many; everywhere else (the
 * hosted service, which would ignore `keys` and make one random key) each key stays a call of
 * its own at the profile's pace. Nothing is guessed: no listing, no extension.
 *
 * Only unused keys go together. A used or banned key is made and then bound or banned within one
 * action of its own (license-plan.ts), so a run cut short never leaves it made but unused.
 */
import type { SellerApi } from '../api/seller-api.js';
import { ADD_KEYS_EXTENSION } from '../api/seller-catalog/licenses.js';
import { keysFrom, KEYS_PER_CALL } from '../api/bulk-licenses.js';
import { ApiFailure, NetworkError } from '../errors.js';
import type { Action, Batch, Call, Row } from './actions.js';
import { text } from './records.js';

function isRow(value: unknown): value is Row {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * How many given keys one `add` of this server makes: what its `getsettings` lists for the
 * extension (at most the 100 of an ordinary `add`), else 1. A server that refuses `getsettings`
 * has no extensions; other failures (network, auth) stop the plan as any read would.
 */
export async function serverKeysPerCall(api: SellerApi): Promise<number> {
  let body: Record<string, unknown>;
  try {
    body = await api.call('getsettings', {}, { effect: 'read' });
  } catch (error) {
    if (error instanceof ApiFailure) return 1;
    throw error;
  }
  const extensions = isRow(body.sandbox) ? body.sandbox.extensions : undefined;
  const limit = isRow(extensions) ? extensions[ADD_KEYS_EXTENSION] : undefined;
  return typeof limit === 'number' && Number.isInteger(limit) && limit > 1 ? Math.min(limit, KEYS_PER_CALL) : 1;
}

/**
 * A fixed key of a state file (its fields by their names: canonicalLicense) that may be made with
 * others when it is missing: unused, and text a list of keys can carry (no line break, no `*`
 * that would make it a mask).
 */
export function batchable(d: Row): boolean {
  const key = text(d.key);
  return d.key !== undefined && (d.status ?? 'unused') === 'unused' && d.used_by === undefined && key !== '' && !/[\n*]/.test(key);
}

/**
 * How many keys one call of this plan may make: the server is asked only when two or more
 * batchable keys of `desired` are missing from `current`, since one key is one call anyway.
 */
export async function keysPerCallFor(api: SellerApi, desired: readonly Row[], current: readonly Row[]): Promise<number> {
  const have = new Set(current.map((c) => text(c.key)));
  const missing = desired.filter((d) => batchable(d) && !have.has(text(d.key))).length;
  return missing >= 2 ? serverKeysPerCall(api) : 1;
}

/** One key's `add` (`mask` = the key) → what it shares with others: everything but the key. */
function shared(call: Call): Record<string, string> {
  const { mask: _key, amount: _amount, ...rest } = call.params;
  return rest;
}

function keyBatch(params: Record<string, string>, keys: readonly string[]): Batch {
  const call: Call = { type: 'add', params: { ...params, keys: keys.join('\n') } };
  return {
    call,
    async run(io) {
      const made = keysFrom(await io.send(call));
      // A server that ignored `keys` would have made one random key: never taken for these.
      if (made.length !== keys.length) {
        throw new NetworkError(`The server answered ${made.length} key${made.length === 1 ? '' : 's'} for the ${keys.length} given in one call; it does not take several given keys after all.`);
      }
    },
  };
}

/**
 * Puts the actions that each make one key (`add` with the key as `mask`) into batches of up to
 * `perCall` that share level, note and duration; a key alone in its group stays as it is.
 */
export function batchKeys(creates: readonly Action[], perCall: number): void {
  if (perCall < 2) return;
  const groups = new Map<string, Action[]>();
  for (const action of creates) {
    const add = action.calls[0]!;
    const id = JSON.stringify(Object.entries(shared(add)).sort());
    const group = groups.get(id);
    if (group === undefined) groups.set(id, [action]);
    else group.push(action);
  }
  for (const group of groups.values()) {
    for (const members of chunks(group, perCall)) {
      if (members.length < 2) continue;
      const batch = keyBatch(shared(members[0]!.calls[0]!), members.map(keyOf));
      for (const action of members) {
        action.batch = batch;
        action.calls = [batch.call];
      }
    }
  }
}

/**
 * How much of a request line the keys of one call may take, percent-encoded: the calls are GETs,
 * and the sandbox reads at most 64 KiB of request line and headers. Keys of the usual length (a
 * few dozen characters) fill a call of 100 long before this.
 */
export const MAX_KEYS_TEXT = 32_000;

function keyOf(action: Action): string {
  return action.calls[0]!.params.mask!;
}

/** `group` in order, in chunks of at most `perCall` keys and MAX_KEYS_TEXT encoded characters. */
function chunks(group: readonly Action[], perCall: number): Action[][] {
  const out: Action[][] = [];
  let chunk: Action[] = [];
  let size = 0;
  for (const action of group) {
    const length = encodeURIComponent(`${keyOf(action)}\n`).length;
    if (chunk.length > 0 && (chunk.length >= perCall || size + length > MAX_KEYS_TEXT)) {
      out.push(chunk);
      chunk = [];
      size = 0;
    }
    chunk.push(action);
    size += length;
  }
  if (chunk.length > 0) out.push(chunk);
  return out;
}
