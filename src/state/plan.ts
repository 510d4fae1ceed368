/**
 * A state body against what the server holds: the list of actions, in an order the server
 * accepts (subscriptions before the users that need them, users before the keys bound to them
 * and before their variables; deletions last, in reverse), and what cannot be done
 * (`plan.leftOut`).
 */
import type { SellerApi } from '../api/seller-api.js';
import { UsageError } from '../errors.js';
import type { Action, Batch, Planning, Row } from './actions.js';
import type { Current } from './records.js';
import * as r from './records.js';
import { canonicalLicense, planLicenses } from './license-plan.js';
import { keysPerCallFor } from './key-batches.js';
import { planUsers, wantedSubs } from './user-plan.js';
import type { KeyGrants } from './license-plan.js';
import { planWebhooks } from './webhook-plan.js';
import { sectionSource } from './sections.js';

/** `fetchallusers` stops at this many rows (docs/protocol/seller-api.md §3.10). */
const USER_LIST_CAP = 520;

/** The users on the server, all of them: past the list's cap, the usernames list fills in the rest. */
async function readUsers(api: SellerApi): Promise<Row[]> {
  const rows = await r.readSection(api, 'users');
  if (rows.length < USER_LIST_CAP) return rows;
  const listed = new Set(rows.map((u) => r.text(u.username)));
  const names = await r.listAll(api, 'fetchallusernames');
  return [...rows, ...names.filter((n) => !listed.has(r.text(n.username))).map((n) => ({ username: r.text(n.username) }))];
}

export async function planState(api: SellerApi, state: Row, plan: Planning): Promise<Action[]> {
  const rows = (name: string): Row[] | undefined => {
    const value = state[name];
    if (value === undefined) return undefined;
    if (name === 'licenses') return (value as Row[]).map(canonicalLicense);
    return name === 'variables' ? r.variableRows(value as Row) : (value as Row[]);
  };
  const cache = new Map<keyof Current, Promise<Row[]>>();
  const read = (section: keyof Current): Promise<Row[]> => {
    if (!cache.has(section)) cache.set(section, section === 'users' ? readUsers(api) : r.readSection(api, section));
    return cache.get(section)!;
  };
  for (const member of rows('team') ?? []) {
    const id = r.text(member.username);
    if (member.password === undefined || member.email === undefined) {
      const current = await read('team');
      if (!current.some((c) => r.text(c.username) === id)) throw new UsageError(`team member "${id}" does not exist yet, and creating one needs a password and an email.`);
    }
  }
  const desiredLicenses = rows('licenses');
  const subscriptionNames = async (): Promise<string[]> => [...new Set([...(rows('subscriptions') ?? []).map((s) => r.text(s.name)), ...(await read('subscriptions')).map((s) => r.text(s.name))])];
  let desiredUsers = rows('users');
  if (desiredUsers !== undefined) {
    // Only users still to be made need their subscriptions.
    const existing = new Set((await read('users')).map((u) => r.text(u.username)));
    const unknown = unknownSubscriptions(desiredUsers.filter((u) => !existing.has(r.text(u.username))), await subscriptionNames());
    // apply refuses the file; a restore puts back the other users.
    if (unknown.length > 0 && !plan.createOnly) throw new UsageError(`${unknown[0]!.why}${unknown.length > 1 ? ` (and ${unknown.length - 1} more user${unknown.length === 2 ? '' : 's'})` : ''}.`);
    for (const { why } of unknown) plan.leftOut.push(`${why}.`);
    desiredUsers = desiredUsers.filter((u) => !unknown.some((x) => x.user === u));
  }
  // Who a used key can be bound to: users on the server, and users this plan makes.
  const users = new Set<string>();
  let grants: KeyGrants = new Map();
  if ((desiredLicenses ?? []).some((d) => d.used_by !== undefined)) {
    const onServer = await read('users');
    for (const u of onServer) users.add(r.text(u.username));
    for (const u of desiredUsers ?? []) users.add(r.text(u.username));
    grants = keyGrants(desiredUsers ?? [], new Set(onServer.map((u) => r.text(u.username))));
  }

  const actions: Action[] = [];
  if (state.app !== undefined) actions.push(...r.planApp(state.app as Row, await r.readApp(api)));
  const subscriptions = rows('subscriptions');
  if (subscriptions !== undefined) actions.push(...r.planSubscriptions(subscriptions, await read('subscriptions'), plan));
  if (desiredLicenses !== undefined) plan.keysPerCall = await keysPerCallFor(api, desiredLicenses, await read('licenses'));
  const licenses = desiredLicenses === undefined ? undefined : planLicenses(desiredLicenses, await read('licenses'), plan, users, grants);
  actions.push(...(licenses?.actions ?? []));
  if (desiredUsers !== undefined) {
    const keyOwners = new Set((desiredLicenses ?? []).filter((k) => k.used_by !== undefined && r.text(k.used_by) === r.text(k.key)).map((k) => r.text(k.key)));
    actions.push(...planUsers(desiredUsers, await read('users'), plan, await subscriptionNames(), { bound: licenses?.bound ?? new Set(), keyOwners }));
  }
  actions.push(...(licenses?.bindings ?? []));
  const later: [keyof Current, (d: Row[], c: Row[], p: Planning) => Action[]][] = [
    ['variables', r.planVariables],
    ['uservars', r.planUservars],
    ['channels', r.planChannels],
    ['webhooks', planWebhooks],
    ['files', r.planFiles],
    ['blacklists', r.planBlacklists],
    ['team', r.planTeam],
  ];
  for (const [section, planSection] of later) {
    const desired = section === 'uservars' ? await uservarsOfUsers(rows(section), desiredUsers, actions, () => read('users'), plan) : rows(section);
    if (desired !== undefined) actions.push(...planSection(desired, await read(section), plan));
  }
  const whitelists = rows('whitelists');
  // Read back and compared once the catalog can list them; until then, ensured.
  const listed = sectionSource('whitelists') === undefined ? undefined : await r.readSection(api, 'whitelists');
  if (whitelists !== undefined) actions.push(...r.planWhitelists(whitelists, listed, plan));
  const deletions = actions.filter((a) => a.verb === 'delete').reverse();
  return [...actions.filter((a) => a.verb !== 'delete'), ...deletions];
}

/**
 * The user variables whose user is on the server or made by this plan; the others are left
 * out with a reason (a user the plan could not make takes their variables with them).
 */
async function uservarsOfUsers(desired: Row[] | undefined, desiredUsers: Row[] | undefined, actions: readonly Action[], current: () => Promise<Row[]>, plan: Planning): Promise<Row[] | undefined> {
  if (desired === undefined || desiredUsers === undefined) return desired;
  // A lane names its user as the server does (an id may hide a value from the environment).
  const users = new Set([...(await current()).map((u) => r.text(u.username)), ...actions.filter((a) => a.section === 'users' && a.verb === 'create').map((a) => a.lane?.replace(/^user:/, ''))]);
  const kept = desired.filter((v) => users.has(r.text(v.username)));
  const dropped = [...new Set(desired.filter((v) => !kept.includes(v)).map((v) => r.idOf(v, 'username')))];
  for (const user of dropped) plan.leftOut.push(`user variables of ${user}: ${user} is neither on the server nor made by this run.`);
  return kept;
}

/** The subscriptions the file says a key granted, by key, of the users this plan makes (`existing` are on the server). */
function keyGrants(desiredUsers: readonly Row[], existing: ReadonlySet<string>): KeyGrants {
  const grants = new Map<string, { user: string; subs: ReturnType<typeof wantedSubs> }>();
  for (const user of desiredUsers) {
    const name = r.text(user.username);
    if (existing.has(name)) continue;
    for (const sub of wantedSubs(user)) {
      if (sub.key === undefined) continue;
      const grant = grants.get(sub.key) ?? { user: name, subs: [] };
      // A key is used by one user: a second user naming it keeps their subscription as any other.
      if (grant.user === name) grants.set(sub.key, { user: name, subs: [...grant.subs, sub] });
    }
  }
  return grants;
}

/** Users given a subscription that is neither on the server nor in the file, and why each cannot be made. */
function unknownSubscriptions(users: readonly Row[], names: readonly string[]): { user: Row; why: string }[] {
  const known = new Set(names);
  const out: { user: Row; why: string }[] = [];
  for (const user of users) {
    const wanted = Array.isArray(user.subscriptions) ? (user.subscriptions as Row[]).map((s) => r.text(s.name)) : [r.text(user.subscription)];
    const missing = wanted.find((name) => name !== '' && !known.has(name));
    if (missing !== undefined) out.push({ user, why: `user ${r.idOf(user, 'username')}: there is no subscription "${missing}" on the server or in the file (the subscriptions are ${names.join(', ') || 'none'})` });
  }
  return out;
}

export interface PlanCounts {
  create: number;
  update: number;
  replace: number;
  delete: number;
  ensure: number;
}

export function countActions(actions: readonly Action[]): PlanCounts {
  const counts: PlanCounts = { create: 0, update: 0, replace: 0, delete: 0, ensure: 0 };
  for (const action of actions) counts[action.verb]++;
  return counts;
}

/** Actions that change something for sure (an `ensure` may be a no-op). */
export function changes(actions: readonly Action[]): Action[] {
  return actions.filter((a) => a.verb !== 'ensure');
}

const SIGN: Record<Action['verb'], string> = { create: '+', update: '~', replace: '±', delete: '-', ensure: '=' };

/** One plan line, Terraform style: `+ create license CI-KEY-0001 (level 1, expiry 30d)`. */
export function planLine(action: Action): string {
  const singular = action.section.replace(/s$/, '').replace(/^team$/, 'team member').replace(/^app$/, 'app');
  return `${SIGN[action.verb]} ${action.verb} ${singular} ${action.id}${action.detail.length > 0 ? ` (${action.detail.join(', ')})` : ''}`;
}

export function countsLine(counts: PlanCounts): string {
  const parts = [`${counts.create} to create`, `${counts.update} to update`, `${counts.replace} to replace`, `${counts.delete} to delete`];
  if (counts.ensure > 0) parts.push(`${counts.ensure} to ensure`);
  return `Plan: ${parts.join(', ')}.`;
}

/** The plan for --json: no parameters (they may hold passwords). */
export function planJson(actions: readonly Action[]): unknown[] {
  return actions.map((a) => ({ action: a.verb, type: a.section, id: a.id, changes: a.detail, calls: a.calls.map((c) => c.type) }));
}

/** How many calls a plan makes (what the estimate counts): a batch's call once. */
export function callCount(actions: readonly Action[]): number {
  const batches = new Set<Batch>();
  let calls = 0;
  for (const action of actions) {
    if (action.batch === undefined) calls += action.calls.length;
    else batches.add(action.batch);
  }
  return calls + batches.size;
}
