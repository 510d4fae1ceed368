/**
 * The seller API catalog: every operation of `/api/seller/`, one entry each, by CLI group.
 * Plain data plus small lookups; nothing here may import at runtime beyond this folder, because
 * the CLI loads it to print `--help` (cold start is measured).
 *
 * How the entries read, the same way in every group:
 * - Verbs: `list`, `get`, `create`, `edit` / `set`, `delete`, then domain verbs (`ban`,
 *   `pause`, `reset-hwid`, `extend`, `kill`, `hash add`, ...). The app group's verbs follow
 *   the dashboard: `details`, `settings`, `set`, `stats`.
 * - Positional or flag: the one identifier of an existing record the operation acts on is a
 *   required positional, first in `params` (`licenses delete KEY`, `users ban alice`,
 *   `sessions kill ID`). Everything else is a flag, including every field of a create
 *   (`users create --username U --password P --sub NAME --expiry DAYS`), values of settings and
 *   operations on the whole app (`app hash add --md5 H`, `licenses add-time --days 3`).
 * - Flags say the meaning, not the wire name: the wire `user` is `<username>` / `--username`,
 *   `pass` and `passwd` are `--password`, `authed` is `--require-login`, a duration's flag names
 *   its unit unless the unit is days (`--expiry`, `--days` are days; `--seconds`,
 *   `--delay-minutes` say so).
 * - Selectors: operations that act on many records share the verb of the one-record form and
 *   are picked by a boolean flag: `delete --all | --used | --unused | --expired`,
 *   `reset-hwid --all`, `kill --all`, `extend --all`. A path may have no default operation
 *   (`logs delete` needs `--all`).
 * - Variants: where the server takes `user=all`, the catalog has a second entry of the same
 *   `type` with the selector `all` and without `user`, and `fixedParams: { user: 'all' }`: what
 *   the CLI adds. A bulk entry with nothing to back up from says why in `noBackupReason`.
 *   `fetchteam`'s two lists are two entries the same way. The first entry of a type is the one
 *   the server-side lookups (`findSellerOp`, `wireParamsForType`) describe.
 */
import { APP_OPS } from './app.js';
import { BLACKLISTS_OPS } from './blacklists.js';
import { CHATS_OPS } from './chats.js';
import { FILES_OPS } from './files.js';
import { LICENSES_OPS } from './licenses.js';
import { LOADER_OPS } from './loader.js';
import { LOGS_OPS } from './logs.js';
import { SESSIONS_OPS } from './sessions.js';
import { SUBS_OPS } from './subs.js';
import { TEAM_OPS } from './team.js';
import type { ParamSpec, SellerGroup, SellerOp } from './types.js';
import { USERS_OPS } from './users.js';
import { USERVARS_OPS } from './uservars.js';
import { VARS_OPS } from './vars.js';
import { WEBHOOKS_OPS } from './webhooks.js';
import { WHITELISTS_OPS } from './whitelists.js';

export type { Effect, FilterSpec, FilterTest, ParamSpec, ParamType, ResponseSpec, SellerGroup, SellerOp } from './types.js';
export type { ColumnSpec, WireType } from './columns.js';
export { columnName, findColumn, wireTypeOf } from './columns.js';

/** Group → one line for help. Key order is the display order: daily work first, rare last. */
export const SELLER_GROUPS = {
  app: 'Application details, settings, stats, pause and program hashes',
  licenses: 'License keys: create, list, ban, delete, notes and time',
  users: 'End users: create, ban, pause, HWIDs, passwords and subscription time',
  subs: 'Subscriptions and the license level that grants each',
  uservars: 'Variables stored per user',
  vars: 'Global variables every client can read',
  sessions: 'Open client sessions',
  files: 'Files clients download',
  webhooks: 'Hidden URLs the server calls for clients',
  chats: 'Chat channels, messages and mutes',
  blacklists: 'Refused HWIDs and IPs',
  whitelists: 'IPs exempt from the VPN block',
  loader: 'Web loader buttons',
  logs: 'Logs sent by clients',
  team: 'Reseller and manager accounts and reseller balances',
} as const satisfies Record<SellerGroup, string>;

const OPS_BY_GROUP: Readonly<Record<SellerGroup, readonly SellerOp[]>> = {
  app: APP_OPS,
  licenses: LICENSES_OPS,
  users: USERS_OPS,
  subs: SUBS_OPS,
  uservars: USERVARS_OPS,
  vars: VARS_OPS,
  sessions: SESSIONS_OPS,
  files: FILES_OPS,
  webhooks: WEBHOOKS_OPS,
  chats: CHATS_OPS,
  blacklists: BLACKLISTS_OPS,
  whitelists: WHITELISTS_OPS,
  loader: LOADER_OPS,
  logs: LOGS_OPS,
  team: TEAM_OPS,
};

/** Groups in display order. */
export const SELLER_GROUP_ORDER = Object.keys(SELLER_GROUPS) as readonly SellerGroup[];

/** Every operation, groups in display order. */
export const SELLER_CATALOG: readonly SellerOp[] = SELLER_GROUP_ORDER.flatMap((group) => OPS_BY_GROUP[group]);

/** Types with more than one entry (`extend`, `subtract`, `setvar`, `fetchteam`). */
const VARIANT_TYPES = new Set(SELLER_CATALOG.filter((op, i) => SELLER_CATALOG.findIndex((o) => o.type === op.type) !== i).map((op) => op.type));

/**
 * A name for an entry, unique in the catalog: the wire type, plus `--selector` for the
 * variants of a shared type (`extend --all`, `fetchteam --managers`).
 */
export function opKey(op: SellerOp): string {
  return VARIANT_TYPES.has(op.type) && op.selector !== undefined ? `${op.type} --${op.selector}` : op.type;
}

/** What the user would type after `kactl`: `users delete --expired`. */
export function opCommandLine(op: SellerOp): string {
  const words = [op.group, ...op.command];
  if (op.selector !== undefined) words.push(`--${op.selector}`);
  return words.join(' ');
}

/** Wire parameters to add to the user's for this entry (`user=all` for the all-users variants). */
export function fixedParamsFor(op: SellerOp): Readonly<Record<string, string>> {
  return op.fixedParams ?? {};
}

const BY_TYPE = new Map<string, SellerOp>();
for (const op of SELLER_CATALOG) {
  for (const name of [op.type, ...(op.typeAliases ?? [])]) {
    if (!BY_TYPE.has(name)) BY_TYPE.set(name, op);
  }
}

/** The operation for a wire `type`, exact case, or any recorded alias. First entry for variants. */
export function findSellerOp(type: string): SellerOp | undefined {
  return BY_TYPE.get(type);
}

/** Every wire type and alias the catalog knows (for `seller call` completion and the sandbox). */
export function knownSellerTypes(): readonly string[] {
  return [...BY_TYPE.keys()];
}

export function opsForGroup(group: SellerGroup): readonly SellerOp[] {
  return OPS_BY_GROUP[group];
}

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((word, i) => word === b[i]);
}

/**
 * The distinct command paths of a group in catalog order, each with the entries that share it
 * (the default without a selector, if any, then the selector entries). One commander command each.
 */
export function commandsForGroup(group: SellerGroup): readonly { command: readonly string[]; ops: readonly SellerOp[] }[] {
  const commands: { command: readonly string[]; ops: SellerOp[] }[] = [];
  for (const op of OPS_BY_GROUP[group]) {
    const found = commands.find((c) => samePath(c.command, op.command));
    if (found) found.ops.push(op);
    else commands.push({ command: op.command, ops: [op] });
  }
  return commands;
}

/**
 * The entry `kactl <group> <command...> [--<selector>]` runs. `selector` undefined asks for the
 * path's default, which may not exist (`logs delete` alone).
 */
export function findOpByPath(group: SellerGroup, command: readonly string[], selector?: string): SellerOp | undefined {
  return OPS_BY_GROUP[group].find((op) => samePath(op.command, command) && op.selector === selector);
}

/**
 * Every parameter the server reads for a wire type: the first entry's, then what variants add
 * (`activeOnly` comes with `extend --all`). `required` is the first entry's, the wire contract.
 * The sandbox checks requests against this.
 */
export function wireParamsForType(type: string): readonly ParamSpec[] {
  const primary = findSellerOp(type);
  if (!primary) return [];
  const params = [...primary.params];
  for (const op of SELLER_CATALOG) {
    if (op.type !== primary.type || op === primary) continue;
    for (const param of op.params) {
      if (!params.some((p) => p.wire === param.wire)) params.push(param);
    }
  }
  return params;
}

/**
 * Values the CLI must refuse for this entry's positional because they would quietly turn it into
 * a bulk variant: `kactl users extend all` would send `user=all` without the bulk safeguards.
 */
export function reservedPositionalValues(op: SellerOp): readonly string[] {
  const positional = op.params.find((p) => p.positional);
  if (!positional) return [];
  const values: string[] = [];
  for (const other of SELLER_CATALOG) {
    if (other === op || other.type !== op.type) continue;
    const fixed = fixedParamsFor(other)[positional.wire];
    if (fixed !== undefined) values.push(fixed);
  }
  return values;
}
