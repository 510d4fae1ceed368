/**
 * The record types of a state file: how each is read through the seller API, what identifies
 * a record, and which calls create, update or delete it. plan.ts compares; apply.ts sends.
 *
 * What the seller API cannot read back is never compared (so a second apply plans nothing):
 * user passwords, emails and subscriptions of existing users, a webhook's full URL (the list
 * shows only its start), whitelists (there is no list operation: they are "ensured", sent
 * again on each apply, and an "already there" answer counts as done).
 */
import type { SellerApi } from '../api/seller-api.js';
import { findSellerOp } from '../api/seller-catalog/index.js';
import { responseOptions } from '../api/seller-call-options.js';
import { APP_SETTINGS } from './app-settings.js';
import { APP_SETTING_ALIASES } from './schema.js';
import { durationDays } from './load.js';

export interface Call {
  type: string;
  params: Record<string, string>;
  /** A failure whose message matches counts as done (e.g. a whitelist already there). */
  okIf?: RegExp;
}

export type Verb = 'create' | 'update' | 'delete' | 'replace' | 'ensure';

export interface Action {
  section: Section;
  verb: Verb;
  /** Who: a key, a username, a name. */
  id: string;
  /** What changes, for the plan (never a password). */
  detail: string[];
  calls: Call[];
}

export const SECTIONS = ['app', 'subscriptions', 'licenses', 'users', 'variables', 'uservars', 'channels', 'webhooks', 'files', 'blacklists', 'whitelists', 'team'] as const;
export type Section = (typeof SECTIONS)[number];

type Row = Record<string, unknown>;

export async function listAll(api: SellerApi, type: string, key?: string): Promise<Row[]> {
  const op = findSellerOp(type)!;
  const body = await api.call(type, {}, { effect: 'read', ...responseOptions(op) });
  const rows = body[key ?? (op.response.kind === 'list' ? op.response.key : type)];
  return Array.isArray(rows) ? (rows.filter((row) => row !== null && typeof row === 'object') as Row[]) : [];
}

export function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function flag(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true';
}

function days(value: string | number): string {
  return String(Number(durationDays(value).toFixed(6)));
}

function seconds(value: string | number): number {
  return Math.round(durationDays(value) * 86_400);
}

/** A duration in seconds as the shortest exact `…d`, `…h`, `…m` or `…s`. */
export function durationText(totalSeconds: number): string {
  if (totalSeconds % 86_400 === 0) return `${totalSeconds / 86_400}d`;
  if (totalSeconds % 3600 === 0) return `${totalSeconds / 3600}h`;
  if (totalSeconds % 60 === 0) return `${totalSeconds / 60}m`;
  return `${totalSeconds}s`;
}

// --- app settings -------------------------------------------------------------------------

function settingWire(name: string): string {
  const param = findSellerOp('updatesettings')!.params.find((p) => p.flag === name);
  return param!.wire;
}

export function canonicalSettings(app: Row): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(app)) out[APP_SETTING_ALIASES[name] ?? name] = text(value);
  // The server keeps VPN ranges without blanks; compare them the same way.
  if (out['vpn-ranges'] !== undefined) out['vpn-ranges'] = out['vpn-ranges'].split(',').map((r) => r.trim()).filter((r) => r !== '').join(',');
  return out;
}

export async function readApp(api: SellerApi): Promise<Record<string, string>> {
  const body = await api.call('getsettings', {}, { effect: 'read' });
  // A real server has no `sandbox` object: its sandbox-only settings then read as unset.
  const sandbox = (body.sandbox !== null && typeof body.sandbox === 'object' ? body.sandbox : {}) as Row;
  const out: Record<string, string> = {};
  for (const setting of APP_SETTINGS) {
    const value = (setting.sandbox ? sandbox : body)[setting.field];
    if (value !== null && value !== undefined && value !== '') out[setting.name] = text(value);
  }
  return out;
}

export function planApp(desired: Row, current: Record<string, string>): Action[] {
  const wanted = canonicalSettings(desired);
  const params: Record<string, string> = {};
  const detail: string[] = [];
  for (const { name } of APP_SETTINGS) {
    const value = wanted[name];
    if (value === undefined || value === current[name]) continue;
    params[settingWire(name)] = value;
    detail.push(`${name}: ${JSON.stringify(current[name] ?? null)} → ${JSON.stringify(value)}`);
  }
  return detail.length === 0 ? [] : [{ section: 'app', verb: 'update', id: 'settings', detail, calls: [{ type: 'updatesettings', params }] }];
}

// --- keyed records ------------------------------------------------------------------------

export interface Current {
  subscriptions: Row[];
  licenses: Row[];
  users: Row[];
  variables: Row[];
  uservars: Row[];
  channels: Row[];
  webhooks: Row[];
  files: Row[];
  blacklists: Row[];
  team: Row[];
}

export async function readSection(api: SellerApi, section: keyof Current): Promise<Row[]> {
  switch (section) {
    case 'subscriptions': return listAll(api, 'fetchallsubs');
    case 'licenses': return listAll(api, 'fetchallkeys');
    case 'users': return listAll(api, 'fetchallusers');
    case 'variables': return listAll(api, 'fetchallvars');
    case 'uservars': return listAll(api, 'fetchalluservars');
    case 'channels': return listAll(api, 'fetchallchats');
    case 'webhooks': return listAll(api, 'fetchallwebhooks');
    case 'files': return listAll(api, 'fetchallfiles');
    case 'blacklists': return listAll(api, 'fetchallblacks');
    case 'team': {
      const body = await api.call('fetchteam', {}, { effect: 'read', list: { key: 'resellers', emptyMessage: 'No team members found' } });
      const resellers = Array.isArray(body.resellers) ? (body.resellers as Row[]) : [];
      const managers = Array.isArray(body.managers) ? (body.managers as Row[]) : [];
      return [...resellers.map((r) => ({ ...r, role: 'reseller' })), ...managers.map((m) => ({ ...m, role: 'manager' }))];
    }
  }
}

/** Plans one keyed section: create what is missing, update what differs, delete extras when pruning. */
function keyed(
  section: Section,
  desired: Row[],
  current: Row[],
  key: (row: Row) => string,
  currentKey: (row: Row) => string,
  make: { create: (d: Row) => Action; update?: (d: Row, c: Row) => Action | undefined; remove: (c: Row) => Action },
  prune: boolean,
): Action[] {
  const existing = new Map(current.map((row) => [currentKey(row), row]));
  const actions: Action[] = [];
  const listed = new Set<string>();
  for (const row of desired) {
    const id = key(row);
    listed.add(id);
    const found = existing.get(id);
    if (!found) actions.push(make.create(row));
    else {
      const change = make.update?.(row, found);
      if (change) actions.push(change);
    }
  }
  if (prune) for (const [id, row] of existing) if (!listed.has(id)) actions.push(make.remove(row));
  void section;
  return actions;
}

function changed(detail: string[], name: string, from: unknown, to: unknown): void {
  detail.push(`${name}: ${JSON.stringify(from)} → ${JSON.stringify(to)}`);
}

export function planSubscriptions(desired: Row[], current: Row[], prune: boolean): Action[] {
  return keyed('subscriptions', desired, current, (r) => text(r.name), (r) => text(r.name), {
    create: (d) => ({ section: 'subscriptions', verb: 'create', id: text(d.name), detail: [`level ${text(d.level)}`], calls: [{ type: 'addsub', params: { name: text(d.name), level: text(d.level) } }] }),
    update: (d, c) => (text(d.level) === text(c.level) ? undefined : {
      section: 'subscriptions', verb: 'update', id: text(d.name), detail: [`level: ${text(c.level)} → ${text(d.level)}`], calls: [{ type: 'editsub', params: { sub: text(d.name), level: text(d.level) } }],
    }),
    remove: (c) => ({ section: 'subscriptions', verb: 'delete', id: text(c.name), detail: [], calls: [{ type: 'delappsub', params: { name: text(c.name) } }] }),
  }, prune);
}

function licenseCreate(d: Row, amount: number, key?: string): Call {
  const params: Record<string, string> = { expiry: days(d.expiry as string), level: text(d.level ?? '1'), amount: String(amount) };
  if (key !== undefined) params.mask = key;
  else if (d.mask !== undefined) params.mask = text(d.mask);
  if (d.note !== undefined) params.note = text(d.note);
  return { type: 'add', params };
}

const UNUSED = /^not used$/i;

export function planLicenses(desired: Row[], current: Row[], prune: boolean): Action[] {
  const byKey = new Map(current.map((row) => [text(row.key), row]));
  const fixed = desired.filter((d) => d.key !== undefined);
  const fixedKeys = new Set(fixed.map((d) => text(d.key)));
  const actions: Action[] = [];
  for (const d of fixed) {
    const id = text(d.key);
    const c = byKey.get(id);
    const describe = [`level ${text(d.level ?? '1')}`, `expiry ${text(d.expiry)}`, ...(d.note === undefined ? [] : [`note ${JSON.stringify(d.note)}`])];
    if (!c) {
      actions.push({ section: 'licenses', verb: 'create', id, detail: describe, calls: [licenseCreate(d, 1, id)] });
      continue;
    }
    const unused = UNUSED.test(text(c.status));
    if (text(d.level ?? '1') !== text(c.level) && unused) {
      actions.push({ section: 'licenses', verb: 'replace', id, detail: [`level: ${text(c.level)} → ${text(d.level ?? '1')}`], calls: [{ type: 'del', params: { key: id } }, licenseCreate(d, 1, id)] });
      continue;
    }
    const detail: string[] = [];
    const calls: Call[] = [];
    if (d.note !== undefined && text(d.note) !== text(c.note)) {
      changed(detail, 'note', text(c.note), text(d.note));
      calls.push({ type: 'setnote', params: { key: id, note: text(d.note) } });
    }
    if (unused && seconds(d.expiry as string) !== Number(c.expires)) {
      changed(detail, 'expiry', durationText(Number(c.expires)), text(d.expiry));
      calls.push({ type: 'edit', params: { key: id, expiry: String(seconds(d.expiry as string)) } });
    }
    if (calls.length > 0) actions.push({ section: 'licenses', verb: 'update', id, detail, calls });
  }
  // Generated batches: reconciled by note and level; made until `count` exist.
  const claimed = new Set<string>();
  for (const d of desired.filter((row) => row.key === undefined)) {
    const level = text(d.level ?? '1');
    const note = text(d.note);
    const matching = current.filter((c) => !fixedKeys.has(text(c.key)) && text(c.level) === level && text(c.note) === note);
    for (const c of matching) claimed.add(text(c.key));
    const missing = Number(d.count ?? 1) - matching.length;
    const id = `${text(d.count ?? 1)} × level ${level}${note ? ` note ${JSON.stringify(note)}` : ''}`;
    if (missing <= 0) continue;
    const calls: Call[] = [];
    for (let left = missing; left > 0; left -= 100) calls.push(licenseCreate(d, Math.min(left, 100)));
    actions.push({ section: 'licenses', verb: 'create', id, detail: [`${missing} new key${missing === 1 ? '' : 's'}`, `expiry ${text(d.expiry)}`], calls });
  }
  if (prune) {
    for (const c of current) {
      const id = text(c.key);
      if (!fixedKeys.has(id) && !claimed.has(id)) actions.push({ section: 'licenses', verb: 'delete', id, detail: [], calls: [{ type: 'del', params: { key: id } }] });
    }
  }
  return actions;
}

export function planUsers(desired: Row[], current: Row[], prune: boolean): Action[] {
  return keyed('users', desired, current, (r) => text(r.username), (r) => text(r.username), {
    create: (d) => {
      const params: Record<string, string> = { user: text(d.username), sub: text(d.subscription), expiry: days(d.expiry as string) };
      if (d.password !== undefined) params.pass = text(d.password);
      const calls: Call[] = [{ type: 'adduser', params }];
      if (d.email !== undefined) calls.push({ type: 'editemail', params: { user: text(d.username), email: text(d.email) } });
      const detail = [`subscription ${text(d.subscription)}`, `expiry ${text(d.expiry)}`, ...(d.password === undefined ? [] : ['password (set)']), ...(d.email === undefined ? [] : [`email ${text(d.email)}`])];
      return { section: 'users', verb: 'create', id: text(d.username), detail, calls };
    },
    remove: (c) => ({ section: 'users', verb: 'delete', id: text(c.username), detail: [], calls: [{ type: 'deluser', params: { user: text(c.username) } }] }),
  }, prune);
}

/** `variables` is a map in the file; this turns it into rows. */
export function variableRows(variables: Row): Row[] {
  return Object.entries(variables).map(([name, spec]) => ({ name, ...(spec as Row) }));
}

export function planVariables(desired: Row[], current: Row[], prune: boolean): Action[] {
  const create = (d: Row): Call => ({ type: 'addvar', params: { name: text(d.name), data: text(d.value), authed: flag(d.authed ?? false) ? '1' : '0' } });
  return keyed('variables', desired, current, (r) => text(r.name), (r) => text(r.varid), {
    create: (d) => ({ section: 'variables', verb: 'create', id: text(d.name), detail: [`value ${JSON.stringify(text(d.value))}`, `authed ${flag(d.authed ?? false)}`], calls: [create(d)] }),
    update: (d, c) => {
      if (d.authed !== undefined && flag(d.authed) !== flag(c.authed)) {
        return { section: 'variables', verb: 'replace', id: text(d.name), detail: [`authed: ${flag(c.authed)} → ${flag(d.authed)}`], calls: [{ type: 'delvar', params: { name: text(d.name) } }, create(d)] };
      }
      if (text(d.value) === text(c.msg)) return undefined;
      return { section: 'variables', verb: 'update', id: text(d.name), detail: [`value: ${JSON.stringify(text(c.msg))} → ${JSON.stringify(text(d.value))}`], calls: [{ type: 'editvar', params: { varid: text(d.name), data: text(d.value) } }] };
    },
    remove: (c) => ({ section: 'variables', verb: 'delete', id: text(c.varid), detail: [], calls: [{ type: 'delvar', params: { name: text(c.varid) } }] }),
  }, prune);
}

export function planUservars(desired: Row[], current: Row[], prune: boolean): Action[] {
  const set = (d: Row): Call => ({ type: 'setvar', params: { user: text(d.username), var: text(d.name), data: text(d.value), ...(d.readonly === undefined ? {} : { readOnly: flag(d.readonly) ? '1' : '0' }) } });
  return keyed('uservars', desired, current, (r) => `${text(r.username)}/${text(r.name)}`, (r) => `${text(r.user)}/${text(r.name)}`, {
    create: (d) => ({ section: 'uservars', verb: 'create', id: `${text(d.username)}/${text(d.name)}`, detail: [`value ${JSON.stringify(text(d.value))}`], calls: [set(d)] }),
    update: (d, c) => (text(d.value) === text(c.data) ? undefined : {
      section: 'uservars', verb: 'update', id: `${text(d.username)}/${text(d.name)}`, detail: [`value: ${JSON.stringify(text(c.data))} → ${JSON.stringify(text(d.value))}`], calls: [set(d)],
    }),
    remove: (c) => ({ section: 'uservars', verb: 'delete', id: `${text(c.user)}/${text(c.name)}`, detail: [], calls: [{ type: 'deluservar', params: { user: text(c.user), var: text(c.name) } }] }),
  }, prune);
}

export function planChannels(desired: Row[], current: Row[], prune: boolean): Action[] {
  return keyed('channels', desired, current, (r) => text(r.name), (r) => text(r.name), {
    create: (d) => ({ section: 'channels', verb: 'create', id: text(d.name), detail: [`delay ${text(d.delay ?? 0)} s`], calls: [{ type: 'addchannel', params: { name: text(d.name), delay: text(d.delay ?? 0) } }] }),
    // Created in seconds but edited in minutes (the server multiplies the edit by 60).
    update: (d, c) => (d.delay === undefined || Number(d.delay) === Number(c.delay) ? undefined : {
      section: 'channels', verb: 'update', id: text(d.name), detail: [`delay: ${text(c.delay)} s → ${text(d.delay)} s`], calls: [{ type: 'editchan', params: { name: text(d.name), delay: String(Number(d.delay) / 60) } }],
    }),
    remove: (c) => ({ section: 'channels', verb: 'delete', id: text(c.name), detail: [], calls: [{ type: 'delchannel', params: { name: text(c.name) } }] }),
  }, prune);
}

export function planWebhooks(desired: Row[], current: Row[], prune: boolean): Action[] {
  const add = (d: Row): Call => ({ type: 'addwebhook', params: { webid: text(d.id), baseurl: text(d.url), authed: flag(d.authed ?? false) ? '1' : '0', ...(d.useragent === undefined ? {} : { ua: text(d.useragent) }) } });
  return keyed('webhooks', desired, current, (r) => text(r.id), (r) => text(r.webid), {
    create: (d) => ({ section: 'webhooks', verb: 'create', id: text(d.id), detail: [text(d.url)], calls: [add(d)] }),
    // There is no edit: a change is a delete and a new webhook with the same id.
    update: (d, c) => {
      const detail: string[] = [];
      if (d.useragent !== undefined && text(d.useragent) !== text(c.useragent)) changed(detail, 'useragent', text(c.useragent), text(d.useragent));
      if (d.authed !== undefined && flag(d.authed) !== flag(c.authed)) changed(detail, 'authed', flag(c.authed), flag(d.authed));
      return detail.length === 0 ? undefined : { section: 'webhooks', verb: 'replace', id: text(d.id), detail, calls: [{ type: 'delwebhook', params: { webid: text(d.id) } }, add(d)] };
    },
    remove: (c) => ({ section: 'webhooks', verb: 'delete', id: text(c.webid), detail: [], calls: [{ type: 'delwebhook', params: { webid: text(c.webid) } }] }),
  }, prune);
}

export function planFiles(desired: Row[], current: Row[], prune: boolean): Action[] {
  return keyed('files', desired, current, (r) => text(r.url), (r) => text(r.url), {
    create: (d) => ({ section: 'files', verb: 'create', id: text(d.url), detail: [], calls: [{ type: 'upload', params: { url: text(d.url) } }] }),
    remove: (c) => ({ section: 'files', verb: 'delete', id: text(c.url), detail: [`id ${text(c.id)}`], calls: [{ type: 'delfile', params: { fileid: text(c.id) } }] }),
  }, prune);
}

function blackKey(row: Row): string {
  if (row.type !== undefined) return `${text(row.type)}:${text(row.type === 'ip' ? row.ip : row.hwid)}`;
  return row.hwid !== undefined ? `hwid:${text(row.hwid)}` : `ip:${text(row.ip)}`;
}

export function planBlacklists(desired: Row[], current: Row[], prune: boolean): Action[] {
  return keyed('blacklists', desired, current, blackKey, blackKey, {
    create: (d) => {
      const params: Record<string, string> = d.hwid !== undefined ? { hwid: text(d.hwid) } : { ip: text(d.ip) };
      return { section: 'blacklists', verb: 'create', id: blackKey(d), detail: [], calls: [{ type: 'black', params }] };
    },
    remove: (c) => {
      const [type, data] = [text(c.type), text(c.type === 'ip' ? c.ip : c.hwid)];
      return { section: 'blacklists', verb: 'delete', id: blackKey(c), detail: [], calls: [{ type: 'delblack', params: { data, blacktype: type } }] };
    },
  }, prune);
}

export function planWhitelists(desired: Row[]): Action[] {
  return desired.map((d) => ({ section: 'whitelists', verb: 'ensure', id: text(d.ip), detail: ['the seller API cannot list whitelists: sent again, "already there" counts as done'], calls: [{ type: 'addWhite', params: { ip: text(d.ip) }, okIf: /failed to add whitelist|already/i }] }));
}

export function planTeam(desired: Row[], current: Row[], prune: boolean): Action[] {
  return keyed('team', desired, current, (r) => text(r.username), (r) => text(r.username), {
    create: (d) => {
      const params: Record<string, string> = { role: d.role === 'manager' ? 'Manager' : 'Reseller', user: text(d.username), pass: text(d.password), email: text(d.email) };
      if (d.keylevels !== undefined) params.keylevels = text(d.keylevels);
      if (d.perms !== undefined) params.perms = text(d.perms);
      return { section: 'team', verb: 'create', id: text(d.username), detail: [text(d.role), ...(d.keylevels === undefined ? [] : [`keylevels ${text(d.keylevels)}`])], calls: [{ type: 'addAccount', params }] };
    },
    remove: (c) => ({ section: 'team', verb: 'delete', id: text(c.username), detail: [text(c.role)], calls: [{ type: 'deleteAccount', params: { user: text(c.username) } }] }),
  }, prune);
}
