/**
 * Licenses in a state file: fixed keys (matched by key) and generated batches (`count:`, matched
 * by note and level, made in calls of KEYS_PER_CALL like `licenses create`).
 *
 * A key is unused, used (by `used_by`) or banned. A used key is never made again as unused: it
 * is created and bound to its user in one action (bindKey), after the users exist, or left out
 * with a reason when its user is neither on the server nor in the file. The seller API has no
 * call that marks a key used without redeeming it, so binding redeems it (`assignkey`) and then
 * takes back what the redemption gave the user: the user's subscriptions end as they were.
 * A key's `usedon` date cannot be set: a bound key shows the day it was bound. When the file says
 * which subscription of the user the key granted (`key:` under the user's subscriptions), that
 * one is not taken back but set to end when the file says: the user's subscription is the key's
 * again (user-plan.ts leaves it to the binding).
 *
 * Missing unused keys that share level, note and duration are made many a call where the server
 * says it can (key-batches.ts); elsewhere one call a key.
 */
import { chunkSizes, KEYS_PER_CALL } from '../api/bulk-licenses.js';
import { KEY_STATUSES } from '../api/seller-catalog/licenses.js';
import type { Action, ActionIO, Call, Planning, Row } from './actions.js';
import { LATER } from './actions.js';
import { days, daysParam, durationText, idOf, shown, text } from './records.js';
import { durationSeconds, renameFields } from './load.js';
import { LICENSE_FIELD_ALIASES } from './schema.js';
import { replaceAction } from './replace.js';
import { batchable, batchKeys } from './key-batches.js';
import type { WantedSub } from './user-plan.js';
import { secondsLeft, settleMoments } from './user-plan.js';

export type KeyStatus = 'unused' | 'used' | 'banned' | 'paused';

/** The seller API's `status` as a state file's: the words `licenses list --status` names (catalog KEY_STATUSES). */
export function keyStatus(row: Row): KeyStatus {
  const status = text(row.status).toLowerCase();
  const found = Object.entries(KEY_STATUSES).find(([, word]) => word.toLowerCase() === status);
  return (found?.[0] ?? 'paused') as KeyStatus;
}

function addCall(d: Row, amount: number, key?: string): Call {
  const params: Record<string, string> = { expiry: days(d.duration as string), level: text(d.level ?? '1'), amount: String(amount) };
  if (key !== undefined) params.mask = key;
  else if (d.mask !== undefined) params.mask = text(d.mask);
  if (d.note !== undefined) params.note = text(d.note);
  return { type: 'add', params };
}

function banCall(key: string, reason: unknown): Call {
  return { type: 'ban', params: { key, ...(text(reason) === '' ? {} : { reason: text(reason) }) } };
}

function isRow(value: unknown): value is Row {
  return value !== null && typeof value === 'object';
}

async function userSubs(io: ActionIO, user: string): Promise<Row[]> {
  const body = await io.send({ type: 'usersub', params: { user } });
  return Array.isArray(body.subs) ? body.subs.filter(isRow) : [];
}

/** A subscription the key granted anew, set to end when the file says (deleted when that has passed). */
function settleGranted(user: string, row: Row, sub: WantedSub, nowSeconds: number): Call[] {
  const left = secondsLeft(sub, nowSeconds);
  if (left < 1) return [{ type: 'delsub', params: { user, sub: sub.name } }];
  const off = Number(row.expiry) - (nowSeconds + left);
  if (off > 0) return [{ type: 'subtract', params: { user, sub: sub.name, seconds: String(off) } }];
  return off < 0 ? [{ type: 'extend', params: { user, sub: sub.name, expiry: daysParam(-off) } }] : [];
}

/**
 * The calls that undo what redeeming a key gave `user` (`before` and `after` are their
 * subscription rows), except a subscription the file says the key granted (`wanted`), which is
 * kept and set to end when the file says. `granted`: the wanted subscriptions the key did grant.
 */
export function compensation(user: string, before: readonly Row[], after: readonly Row[], nowSeconds: number, wanted: readonly WantedSub[] = [], granted = new Set<WantedSub>()): Call[] {
  const earlier = new Map(before.map((row) => [text(row.id), row]));
  const calls: Call[] = [];
  for (const row of after) {
    const sub = text(row.subscription);
    const was = earlier.get(text(row.id));
    const mine = was === undefined ? wanted.find((w) => w.name === sub && !granted.has(w)) : undefined;
    if (mine !== undefined) {
      granted.add(mine);
      calls.push(...settleGranted(user, row, mine, nowSeconds));
      continue;
    }
    if (was === undefined) {
      // Granted by the key: gone again. By name only when no other row has that name.
      const sameName = before.some((other) => text(other.subscription) === sub);
      const left = Number(row.expiry) - nowSeconds;
      if (!sameName) calls.push({ type: 'delsub', params: { user, sub } });
      else if (left > 0) calls.push({ type: 'subtract', params: { user, sub, seconds: String(left) } });
      continue;
    }
    const added = Number(row.expiry) - Number(was.expiry);
    if (added > 0) calls.push({ type: 'subtract', params: { user, sub, seconds: String(added) } });
  }
  return calls;
}

/**
 * Redeems `key` onto `user` and gives back nothing: their subscriptions end as before, but for
 * those the file says the key granted (`wanted`), which end when the file says. One the key did
 * not grant (its level grants another subscription now) is made as any subscription.
 */
export async function bindKey(io: ActionIO, key: string, user: string, wanted: readonly WantedSub[] = []): Promise<void> {
  const before = await userSubs(io, user);
  await io.send({ type: 'assignkey', params: { key, user } });
  const after = await userSubs(io, user);
  const granted = new Set<WantedSub>();
  for (const call of compensation(user, before, after, io.nowSeconds(), wanted, granted)) await io.send(call);
  // A name the user holds already was extended, not granted (and is given back above): nothing to make.
  const held = new Set(after.filter((row) => Number(row.expiry) > io.nowSeconds()).map((row) => text(row.subscription)));
  const rest = wanted.filter((w) => !granted.has(w) && !held.has(w.name) && secondsLeft(w, io.nowSeconds()) >= 1);
  for (const sub of rest) await io.send({ type: 'extend', params: { user, sub: sub.name, expiry: daysParam(secondsLeft(sub, io.nowSeconds())) } });
  if (rest.some((s) => s.at !== undefined)) await settleMoments(io, user, rest);
}

/** Subscriptions the file says a key granted, by key: the user they are for and the subscriptions. */
export type KeyGrants = ReadonlyMap<string, { user: string; subs: readonly WantedSub[] }>;

const BIND_CALLS = (key: string, user: string): Call[] => [
  { type: 'usersub', params: { user } },
  { type: 'assignkey', params: { key, user } },
  { type: 'usersub', params: { user } },
  { type: 'subtract', params: { user, sub: LATER, seconds: LATER } },
];

function describe(d: Row): string[] {
  const status = text(d.status);
  return [
    `level ${d.level === undefined ? '1' : idOf(d, 'level')}`,
    `duration ${idOf(d, 'duration')}`,
    ...(d.note === undefined ? [] : [`note ${shown(d, 'note')}`]),
    ...(d.used_by === undefined ? [] : [`used by ${idOf(d, 'used_by')}`]),
    ...(status === 'banned' ? [`banned${text(d.ban_reason) === '' ? '' : ` (${shown(d, 'ban_reason')})`}`] : []),
  ];
}

/** A missing fixed key: made, bound to its user when it was used, banned when it was banned. */
function createKey(d: Row, id: string, wanted: readonly WantedSub[]): Action {
  const key = text(d.key);
  const user = d.used_by === undefined ? undefined : text(d.used_by);
  const banned = d.status === 'banned';
  const calls: Call[] = [addCall(d, 1, key), ...(user === undefined ? [] : BIND_CALLS(key, user)), ...(banned ? [banCall(key, d.ban_reason)] : [])];
  const action: Action = { section: 'licenses', verb: 'create', id, detail: describe(d), calls };
  if (user === undefined) return action;
  return {
    ...action,
    lane: `user:${user}`,
    async run(io) {
      await io.send(calls[0]!);
      await bindKey(io, key, user, wanted);
      if (banned) await io.send(banCall(key, d.ban_reason));
    },
  };
}

/**
 * A key whose level differs: the seller API cannot change a level, so an unused, unbound key
 * is replaced by a new one with the same name (probed first, put back if the new one fails);
 * any other is left out, said why.
 */
function levelChange(given: Row, c: Row, id: string, plan: Planning, replaceable: boolean): Action | undefined {
  // A note the file leaves out is not compared: the new key keeps the old one's.
  const d = given.note === undefined && text(c.note) !== '' ? { ...given, note: text(c.note) } : given;
  const key = text(d.key);
  if (replaceable) {
    const probe: Call = { type: 'add', params: { ...addCall(d, 1).params, mask: 'KACTL-PROBE-******-******' } };
    return replaceAction({
      section: 'licenses',
      id,
      // Everything the new key differs in, as the update would show it.
      detail: [`level: ${text(c.level)} → ${idOf(d, 'level')}`, ...noteAndDuration(given, c).detail],
      probe: { create: probe, remove: { type: 'del', params: { key: LATER } }, id: 'license KACTL-PROBE-…' },
      remove: { type: 'del', params: { key } },
      create: addCall(d, 1, key),
      putBack: { type: 'add', params: { expiry: daysParam(Number(c.expires)), level: text(c.level), amount: '1', mask: key, ...(text(c.note) === '' ? {} : { note: text(c.note) }) } },
      what: `license ${id}`,
    });
  }
  plan.leftOut.push(`license ${id}: level ${text(c.level)} on the server, ${idOf(d, 'level')} in the file; only an unused key's level can change (a new key replaces it).`);
  return undefined;
}

/** The note and duration of an existing key against the file's: what differs and the calls that change it. */
function noteAndDuration(d: Row, c: Row): { detail: string[]; calls: Call[] } {
  const key = text(d.key);
  const detail: string[] = [];
  const calls: Call[] = [];
  if (d.note !== undefined && text(d.note) !== text(c.note)) {
    detail.push(`note: ${JSON.stringify(text(c.note))} → ${shown(d, 'note')}`);
    calls.push({ type: 'setnote', params: { key, note: text(d.note) } });
  }
  if (durationSeconds(d.duration as string) !== Number(c.expires)) {
    detail.push(`duration: "${durationText(Number(c.expires))}" → "${idOf(d, 'duration')}"`);
    calls.push({ type: 'edit', params: { key, expiry: String(durationSeconds(d.duration as string)) } });
  }
  return { detail, calls };
}

/** An existing fixed key that differs from the file: the calls that make it match, or why it cannot. */
function updateKey(d: Row, c: Row, id: string, plan: Planning, users: ReadonlySet<string>, wanted: readonly WantedSub[]): Action | undefined {
  const key = text(d.key);
  const want = (d.status as KeyStatus | undefined) ?? 'unused';
  const have = keyStatus(c);
  const wantUser = d.used_by === undefined ? undefined : text(d.used_by);
  const haveUser = text(c.usedby) === '' ? undefined : text(c.usedby);
  const level = text(d.level ?? '1');
  if (have === 'paused') {
    plan.leftOut.push(`license ${id}: paused on the server; the seller API cannot change a paused key.`);
    return undefined;
  }
  if (level !== text(c.level)) {
    const replacement = levelChange(d, c, id, plan, have === 'unused' && want === 'unused' && wantUser === undefined);
    if (replacement !== undefined) return replacement;
  }
  const { detail, calls } = noteAndDuration(d, c);
  // Whom a key is bound to can only go from nobody to someone.
  let bindTo: string | undefined;
  let unbanned = false;
  if (wantUser !== haveUser) {
    if (haveUser === undefined && users.has(wantUser!)) {
      bindTo = wantUser;
      detail.push(`used by: nobody → ${idOf(d, 'used_by')}`);
      if (have === 'banned') {
        // A banned key cannot be assigned: unbanned first (back to unused), banned again below if the file says so.
        calls.push({ type: 'unban', params: { key } });
        unbanned = true;
      }
    } else {
      const why = haveUser !== undefined ? `used by ${haveUser} on the server; a used key cannot be made unused or given to another user` : `the file says ${wantUser} used it, who is neither on the server nor in the file`;
      plan.leftOut.push(`license ${id}: ${why}.`);
    }
  }
  const last: Call[] = [];
  const newReason = d.ban_reason !== undefined && text(d.ban_reason) !== text(c.banned);
  if (want === 'banned') {
    if (have !== 'banned') detail.push(`status: ${have} → banned`);
    if (have === 'banned' && newReason) detail.push(`ban reason: ${JSON.stringify(text(c.banned))} → ${shown(d, 'ban_reason')}`);
    // Banned again after the binding unbanned it: with the file's reason, or the one it had.
    if (have !== 'banned' || unbanned || newReason) last.push(banCall(key, d.ban_reason ?? (have === 'banned' ? c.banned : undefined)));
  } else if (have === 'banned') {
    detail.push(`status: banned → ${haveUser === undefined && bindTo === undefined ? 'unused' : 'used'}`);
    if (!unbanned) calls.push({ type: 'unban', params: { key } });
  }
  if (calls.length === 0 && last.length === 0 && bindTo === undefined) return undefined;
  if (bindTo === undefined) return { section: 'licenses', verb: 'update', id, detail, calls: [...calls, ...last] };
  const user = bindTo;
  return {
    section: 'licenses',
    verb: 'update',
    id,
    detail,
    calls: [...calls, ...BIND_CALLS(key, user), ...last],
    lane: `user:${user}`,
    async run(io) {
      for (const call of calls) await io.send(call);
      await bindKey(io, key, user, wanted);
      for (const call of last) await io.send(call);
    },
  };
}

export interface LicensePlan {
  /** In the licenses step: unused and unbound keys, batches, updates that bind nobody. */
  actions: Action[];
  /** After the users step: keys made and bound to a user, and updates that bind one. */
  bindings: Action[];
  /** Keys of `grants` this plan binds to their user: they grant those subscriptions again. */
  bound: Set<string>;
}

/**
 * `users`: who is on the server or made by this plan (a used key needs its user); `grants`: the
 * subscriptions the file says each key granted a user this plan makes.
 */
export function planLicenses(given: Row[], current: Row[], plan: Planning, users: ReadonlySet<string> = new Set(), grants: KeyGrants = new Map()): LicensePlan {
  const desired = given.map(canonicalLicense);
  const byKey = new Map(current.map((row) => [text(row.key), row]));
  const fixed = desired.filter((d) => d.key !== undefined);
  const fixedKeys = new Set(fixed.map((d) => text(d.key)));
  const out: LicensePlan = { actions: [], bindings: [], bound: new Set() };
  // What the file says `key` granted the user it is bound to; the key is then known to grant it again.
  const wantedOf = (key: string, user: string | undefined): readonly WantedSub[] => {
    const grant = grants.get(key);
    return grant === undefined || grant.user !== user ? [] : grant.subs;
  };
  // Missing unused keys: made many a call where the server takes several given keys.
  const together: Action[] = [];
  for (const d of fixed) {
    const id = idOf(d, 'key');
    const c = byKey.get(text(d.key));
    const user = d.used_by === undefined ? undefined : text(d.used_by);
    if (!c) {
      if (user !== undefined && !users.has(user)) {
        plan.leftOut.push(`license ${id}: it was used by ${user}, who is neither on the server nor in the file; a used key is never made again as unused (put ${user} back first).`);
        continue;
      }
      const action = createKey(d, id, wantedOf(text(d.key), user));
      if (action.lane !== undefined && grants.get(text(d.key))?.user === user) out.bound.add(text(d.key));
      (user === undefined ? out.actions : out.bindings).push(action);
      if (batchable(d)) together.push(action);
      continue;
    }
    if (plan.createOnly) continue;
    const action = updateKey(d, c, id, plan, users, wantedOf(text(d.key), user));
    if (action?.lane !== undefined && grants.get(text(d.key))?.user === user) out.bound.add(text(d.key));
    if (action) (action.lane === undefined ? out.actions : out.bindings).push(action);
  }
  batchKeys(together, plan.keysPerCall);
  // Generated batches: reconciled by note and level; made until `count` exist.
  const claimed = new Set<string>();
  for (const d of desired.filter((row) => row.key === undefined)) {
    const level = text(d.level ?? '1');
    const note = text(d.note);
    const matching = current.filter((c) => !fixedKeys.has(text(c.key)) && text(c.level) === level && text(c.note) === note);
    for (const c of matching) claimed.add(text(c.key));
    const missing = Number(d.count ?? 1) - matching.length;
    const id = `${text(d.count ?? 1)} × level ${d.level === undefined ? '1' : idOf(d, 'level')}${note ? ` note ${shown(d, 'note')}` : ''}`;
    if (missing <= 0) continue;
    out.actions.push({
      section: 'licenses',
      verb: 'create',
      id,
      detail: [`${missing} new key${missing === 1 ? '' : 's'}`, `duration ${idOf(d, 'duration')}`],
      calls: chunkSizes(missing, KEYS_PER_CALL).map((size) => addCall(d, size)),
    });
  }
  if (plan.prune) {
    for (const c of current) {
      const id = text(c.key);
      if (!fixedKeys.has(id) && !claimed.has(id)) out.actions.push({ section: 'licenses', verb: 'delete', id, detail: [], calls: [{ type: 'del', params: { key: id } }] });
    }
  }
  return out;
}

/** A state file's license with its fields under their names (schema.ts LICENSE_FIELD_ALIASES): what planning and checking read. */
export function canonicalLicense(row: Row): Row {
  return renameFields(row, LICENSE_FIELD_ALIASES);
}

/** The spellings a license gives one field under (`expiry` and `duration`), for each field given more than once. */
export function givenTwice(row: Row): string[][] {
  const spellings = new Map<string, string[]>();
  for (const field of Object.keys(row)) {
    const name = Object.hasOwn(LICENSE_FIELD_ALIASES, field) ? LICENSE_FIELD_ALIASES[field]! : field;
    spellings.set(name, [...(spellings.get(name) ?? []), field]);
  }
  return [...spellings.values()].filter((names) => names.length > 1);
}
