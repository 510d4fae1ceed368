/**
 * The server's current state as a state body: what `kactl export` prints and what `apply` reads
 * back to the same result. The same mappers (stateRecords) turn a backup's records into a state
 * body for `kactl restore`.
 *
 * Nothing secret comes out (no passwords, hashes, app secret, shop secrets). Used and banned keys
 * come out as such, with their user and ban reason; durations are exact; a user's subscriptions
 * end at a moment (UTC), so two exports an hour apart are equal. What the seller API cannot read
 * or make is not there, or marked: user emails and IPs, whitelists, team emails, a key's usedon
 * date, and a webhook's full URL (its listed start comes out with `truncated: true`).
 *
 * Every record is checked against what `apply` accepts (check.ts); one that no state file can
 * hold (a duration of 0 s, a level that is not a number) is left out with a warning, never
 * written as something `apply` would refuse or read differently. Every `$` comes out as `$$`
 * (load.ts), so text an end user wrote can never read the environment of whoever applies it.
 */
// Imported statically: in the bundle a dynamic import of yaml (CommonJS) yields only a default export.
import { stringify } from 'yaml';
import type { SellerApi } from '../api/seller-api.js';
import { appSetting } from './app-settings.js';
import { recordRefusal } from './check.js';
import { keyStatus } from './license-plan.js';
import { escapeDollars } from './load.js';
import type { Row, Section } from './actions.js';
import { durationText, flag, readApp, readSection, text } from './records.js';
import { gapLines, userGaps } from './unreadable.js';
import { momentText } from './user-plan.js';
import { listedUrl } from './webhook-plan.js';

function boolOf(value: string): boolean | string {
  return value === 'true' ? true : value === 'false' ? false : value;
}

/** A setting's text as the file holds it: flags as booleans, counts as numbers. */
function typed(name: string, value: string): unknown {
  const kind = appSetting(name)?.kind;
  if (kind === 'flag') return boolOf(value);
  if (kind === 'count' && /^[0-9]+$/.test(value)) return Number(value);
  return value;
}

/** A level as the file holds it: a number when it is one. */
function level(value: unknown): number | string {
  return /^[0-9]{1,12}$/.test(text(value)) ? Number(text(value)) : text(value);
}

/** What the list of a record type lacks, fetched separately (usersub per user, the user variables). */
export interface RecordExtras {
  /** username → that user's `usersub` rows; absent when they were not fetched. */
  subscriptions?: Readonly<Record<string, readonly unknown[]>>;
}

export interface StateRecords {
  rows: Row[];
  /** Records left out, one sentence each. */
  refused: string[];
  /** What comes back different, one sentence each (said, not refused). */
  notes: string[];
}

function licenseRecord(k: Row): Row | string {
  const status = keyStatus(k);
  if (status === 'paused') return `license ${text(k.key)}: paused, which the seller API cannot make`;
  const user = text(k.usedby);
  return {
    key: text(k.key),
    level: level(k.level),
    duration: Number.isSafeInteger(Number(k.expires)) ? durationText(Number(k.expires)) : text(k.expires),
    ...(text(k.note) === '' ? {} : { note: text(k.note) }),
    ...(status === 'unused' ? {} : { status }),
    ...(status !== 'unused' && user !== '' ? { used_by: user } : {}),
    ...(status === 'banned' && text(k.banned) !== '' ? { ban_reason: text(k.banned) } : {}),
  };
}

function isRow(value: unknown): value is Row {
  return value !== null && typeof value === 'object';
}

function userRecord(u: Row, extras: RecordExtras, nowSeconds: number, notes: string[]): Row | string {
  const username = text(u.username);
  const subs = extras.subscriptions?.[username];
  if (subs === undefined) return `user ${username}: the backup holds no subscriptions for them, and a user is made with one`;
  const rows = subs.filter(isRow);
  const paused = rows.filter((s) => text(s.paused) === '1');
  if (paused.length > 0) notes.push(`user ${username}: ${paused.length} paused subscription${paused.length === 1 ? ' is' : 's are'} left out (the seller API makes no paused subscription).`);
  // Ended subscriptions grant nothing, and no call makes one.
  const live = rows.filter((s) => text(s.paused) !== '1' && Number(s.expiry) > nowSeconds);
  return {
    username,
    // The key that granted a subscription is carried: a restore or apply that makes the key used again lets it grant it.
    subscriptions: live.map((s) => ({ name: text(s.subscription), expiry: momentText(Number(s.expiry)), ...(text(s.key) === '' ? {} : { key: text(s.key) }) })),
    ...(text(u.hwid) === '' ? {} : { hwid: text(u.hwid) }),
    ...(text(u.banned) === '' ? {} : { banned: text(u.banned) }),
  };
}

function webhookRecord(w: Row): Row {
  const { url, truncated } = listedUrl(w);
  return { id: text(w.webid), url, ...(text(w.useragent) === '' ? {} : { useragent: text(w.useragent) }), authed: text(w.authed) === '1', ...(truncated ? { truncated: true } : {}) };
}

function oneRecord(section: Section, row: Row, extras: RecordExtras, nowMs: number, notes: string[]): Row | string | undefined {
  switch (section) {
    case 'subscriptions': return { name: text(row.name), level: level(row.level) };
    case 'licenses': return licenseRecord(row);
    case 'users': return userRecord(row, extras, Math.floor(nowMs / 1000), notes);
    case 'variables': return { name: text(row.varid), value: text(row.msg), authed: text(row.authed) === '1' };
    case 'uservars': return { username: text(row.user), name: text(row.name), value: text(row.data), ...(flag(row.readOnly) ? { readonly: true } : {}) };
    case 'channels': return { name: text(row.name), delay: Number(row.delay) };
    case 'webhooks': return webhookRecord(row);
    case 'files': return { url: text(row.url) };
    case 'blacklists': return text(row.type) === 'ip' ? { ip: text(row.ip) } : { hwid: text(row.hwid) };
    case 'team':
      return {
        role: text(row.role) || 'reseller', username: text(row.username), ...(row.key_levels === undefined ? {} : { keylevels: text(row.key_levels) }), ...(row.permissions === undefined ? {} : { perms: text(row.permissions) }),
      };
    default: return undefined;
  }
}

/** Records as the seller API lists them → rows of a state file's section, and what had to be left out. */
export function stateRecords(section: Section, rows: readonly Row[], nowMs: number, extras: RecordExtras = {}): StateRecords {
  const out: StateRecords = { rows: [], refused: [], notes: [] };
  for (const row of rows) {
    const record = oneRecord(section, row, extras, nowMs, out.notes);
    if (record === undefined) continue;
    if (typeof record === 'string') {
      out.refused.push(`${record}.`);
      continue;
    }
    const refusal = recordRefusal(section, record);
    if (refusal === undefined) out.rows.push(record);
    else out.refused.push(`${section.replace(/s$/, '')} ${text(record.key ?? record.username ?? record.id ?? record.name ?? record.url)}: ${refusal}; no state file can hold it.`);
  }
  return out;
}

/** A section's rows in the file's shape (`variables` is a map by name). */
export function sectionBody(section: Section, rows: readonly Row[]): unknown {
  if (section !== 'variables') return rows;
  return Object.fromEntries(rows.map((v) => [text(v.name), { value: text(v.value), authed: v.authed === true }]));
}

const EXPORTED: readonly Section[] = ['subscriptions', 'licenses', 'users', 'variables', 'uservars', 'channels', 'webhooks', 'files', 'blacklists', 'team'];

/**
 * The order records come out in: by what identifies them, so two servers holding the same
 * records (one restored or applied in another order) export the same file. Subscriptions keep
 * the server's order, which decides which one a key of their level grants.
 */
function sortKey(section: Section, row: Row): string {
  switch (section) {
    case 'licenses': return text(row.key);
    case 'users':
    case 'team': return text(row.username);
    case 'variables':
    case 'channels': return text(row.name);
    case 'uservars': return `${text(row.username)}\u0000${text(row.name)}`;
    case 'webhooks': return text(row.id);
    case 'files': return text(row.url);
    case 'blacklists': return `${text(row.hwid)}\u0000${text(row.ip)}`;
    default: return '';
  }
}

function sorted(section: Section, rows: Row[]): Row[] {
  if (section === 'subscriptions') return rows;
  return [...rows].sort((a, b) => (sortKey(section, a) < sortKey(section, b) ? -1 : sortKey(section, a) > sortKey(section, b) ? 1 : 0));
}

export interface Exported {
  state: Row;
  /** Records left out, one sentence each (said on stderr). */
  refused: string[];
  notes: string[];
}

/** `now`: the server's clock in ms (a sandbox's domain clock is known once it has answered). */
export async function exportState(api: SellerApi, now: () => number): Promise<Exported> {
  const app = await readApp(api);
  // A message as every new app has it says nothing: only the ones the seller changed come out.
  const changed = Object.entries(app).filter(([name, value]) => appSetting(name)?.defaultText !== value);
  const state: Row = { app: Object.fromEntries(changed.map(([name, value]) => [name, typed(name, value)])) };
  const refused: string[] = [];
  const notes: string[] = [];
  const read: Partial<Record<Section, { rows: Row[]; extras: RecordExtras }>> = {};
  for (const section of EXPORTED) {
    const rows = await readSection(api, section as Parameters<typeof readSection>[1]);
    const extras: RecordExtras = {};
    if (section === 'users') extras.subscriptions = await userSubscriptions(api, rows);
    read[section] = { rows, extras };
    const records = stateRecords(section, rows, now(), extras);
    state[section] = sectionBody(section, sorted(section, records.rows));
    refused.push(...records.refused);
    notes.push(...records.notes);
  }
  const users = read.users;
  if (users !== undefined) notes.push(...gapLines(userGaps(users.rows, users.extras.subscriptions, read.uservars?.rows), 'export'));
  return { state: escapeDollars(state) as Row, refused, notes };
}

/** Each user's subscriptions (`usersub`, one call a user, paced like every call). */
export async function userSubscriptions(api: SellerApi, users: readonly Row[]): Promise<Record<string, unknown[]>> {
  const subscriptions: Record<string, unknown[]> = {};
  for (const user of users) {
    const body = await api.call('usersub', { user: text(user.username) }, { effect: 'read', list: { key: 'subs', emptyMessage: 'No Subscriptions Found' } });
    subscriptions[text(user.username)] = Array.isArray(body.subs) ? body.subs : [];
  }
  return subscriptions;
}

/** A state body as the YAML file `kactl export` prints, with a first line saying what it is. */
export function stateAsYaml(state: Row): string {
  return `# kactl state file: kactl apply -f FILE makes a server hold this (kactl schema state describes it; $$ stands for $)\n${stringify(state)}`;
}
