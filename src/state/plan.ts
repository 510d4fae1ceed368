/**
 * A state body against what the server holds: the list of actions, in an order the server
 * accepts (subscriptions before the users that need them, users before their variables;
 * deletions last, in reverse).
 */
import type { SellerApi } from '../api/seller-api.js';
import { UsageError } from '../errors.js';
import type { Action, Current } from './records.js';
import * as r from './records.js';

type Row = Record<string, unknown>;

export async function planState(api: SellerApi, state: Row, options: { prune: boolean }): Promise<Action[]> {
  const prune = options.prune;
  const rows = (name: string): Row[] | undefined => {
    const value = state[name];
    if (value === undefined) return undefined;
    return name === 'variables' ? r.variableRows(value as Row) : (value as Row[]);
  };
  const read = async (section: keyof Current): Promise<Row[]> => r.readSection(api, section);
  for (const member of rows('team') ?? []) {
    const id = r.text(member.username);
    if (member.password === undefined || member.email === undefined) {
      const current = await read('team');
      if (!current.some((c) => r.text(c.username) === id)) throw new UsageError(`team member "${id}" does not exist yet, and creating one needs a password and an email.`);
    }
  }
  const actions: Action[] = [];
  if (state.app !== undefined) actions.push(...r.planApp(state.app as Row, await r.readApp(api)));
  const plans: [keyof Current, (d: Row[], c: Row[], p: boolean) => Action[]][] = [
    ['subscriptions', r.planSubscriptions],
    ['licenses', r.planLicenses],
    ['users', r.planUsers],
    ['variables', r.planVariables],
    ['uservars', r.planUservars],
    ['channels', r.planChannels],
    ['webhooks', r.planWebhooks],
    ['files', r.planFiles],
    ['blacklists', r.planBlacklists],
    ['team', r.planTeam],
  ];
  for (const [section, plan] of plans) {
    const desired = rows(section);
    if (desired !== undefined) actions.push(...plan(desired, await read(section), prune));
  }
  const whitelists = rows('whitelists');
  if (whitelists !== undefined) actions.push(...r.planWhitelists(whitelists));
  const deletions = actions.filter((a) => a.verb === 'delete').reverse();
  return [...actions.filter((a) => a.verb !== 'delete'), ...deletions];
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
