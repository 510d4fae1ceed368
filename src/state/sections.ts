/**
 * What the state engine knows of each record type, derived from the seller catalog rather than
 * written out beside it: the CLI group a section is (`channels` are `chats`), the list a section
 * is read from (and backed up from), and the calls that make, change and delete its records,
 * built from the catalog's flag names (`catalogCall`). Whether a section can be read back at all
 * follows from whether its group has a `list` command: add one to the catalog and the section is
 * read, compared and backed up like the others (test/unit/state/sections.test.ts holds this).
 */
import { findOpByPath, opsForGroup } from '../api/seller-catalog/index.js';
import type { SellerGroup, SellerOp } from '../api/seller-catalog/index.js';
import type { Call, Section } from './actions.js';

/** The catalog group each section's records live in. */
export const SECTION_GROUPS: Readonly<Record<Exclude<Section, 'app'>, SellerGroup>> = {
  subscriptions: 'subs',
  licenses: 'licenses',
  users: 'users',
  variables: 'vars',
  uservars: 'uservars',
  channels: 'chats',
  webhooks: 'webhooks',
  files: 'files',
  blacklists: 'blacklists',
  whitelists: 'whitelists',
  team: 'team',
};

/** The group's `list` command (its default entry), if the catalog has one. */
export function listOpOf(section: Section): SellerOp | undefined {
  if (section === 'app') return undefined;
  return opsForGroup(SECTION_GROUPS[section]).find((op) => op.response.kind === 'list' && op.command.join(' ') === 'list' && op.selector === undefined);
}

/** Where a section is read from (and backed up from): the list's type and answer key; undefined when the seller API cannot list it. */
export function sectionSource(section: Section): { type: string; key: string } | undefined {
  const op = listOpOf(section);
  return op?.response.kind === 'list' ? { type: op.type, key: op.response.key } : undefined;
}

/**
 * The call of the catalog entry `kactl <group> <command…> [--selector]`, its values given by the
 * CLI's flag names (`{ name, level }` for `subs create`), sent under the wire names the catalog
 * gives them. A flag the entry does not have is a mistake in kactl, never sent silently.
 */
export function catalogCall(group: SellerGroup, command: readonly string[], values: Readonly<Record<string, string | undefined>>, selector?: string): Call {
  const op = findOpByPath(group, command, selector);
  if (!op) throw new Error(`the seller catalog has no ${group} ${command.join(' ')}${selector ? ` --${selector}` : ''}`);
  const params: Record<string, string> = {};
  for (const [flag, value] of Object.entries(values)) {
    const param = op.params.find((p) => p.flag === flag);
    if (!param) throw new Error(`${group} ${command.join(' ')} has no --${flag}`);
    if (value !== undefined) params[param.wire] = value;
  }
  return { type: op.type, params: { ...params, ...op.fixedParams } };
}
