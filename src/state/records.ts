/**
 * The record types of a state file: how each is read through the seller API, what identifies
 * a record, and which calls create, update or delete it. plan.ts compares; run-plan.ts sends.
 * Licenses, users and webhooks have files of their own (license-plan.ts, user-plan.ts,
 * webhook-plan.ts); a replace that deletes first is built in replace.ts.
 *
 * Which list each section is read from and which calls make, change and delete its records come
 * from the seller catalog (sections.ts): calls are written with the CLI's flag names and sent
 * under the catalog's wire names.
 *
 * What the seller API cannot read back is never compared (so a second apply plans nothing):
 * user passwords, emails and subscriptions of existing users, a webhook's full URL (the list
 * shows only its start), and a section whose group has no list command in the catalog
 * (whitelists today): its records are "ensured", sent again on each apply, and an "already
 * there" answer counts as done.
 *
 * A value the file read from the environment (`!env NAME`) is never shown: plan lines say
 * `(from $NAME)` instead (shown, idOf).
 */
import type { SellerApi } from '../api/seller-api.js';
import { findOpByPath, findSellerOp } from '../api/seller-catalog/index.js';
import { responseOptions } from '../api/seller-call-options.js';
import { APP_SETTINGS } from './app-settings.js';
import { APP_SETTING_ALIASES } from './schema.js';
import { durationSeconds, envName } from './load.js';
import { replaceAction } from './replace.js';
import { catalogCall, SECTION_GROUPS, sectionSource } from './sections.js';
import { ownValue } from '../util/own.js';
import { fractionalAmount } from '../util/duration.js';
import type { Action, Call, Planning, Row, Section } from './actions.js';
import { planning } from './actions.js';

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

export function flag(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true';
}

/** A value of the file as a plan shows it (quoted), or where it came from when that was the environment. */
export function shown(row: object, field: string): string {
  const name = envName(row, field);
  return name === undefined ? JSON.stringify(text((row as Row)[field])) : `(from $${name})`;
}

/** A record's id as a plan shows it: the value itself, unless it came from the environment. */
export function idOf(row: object, field: string): string {
  const name = envName(row, field);
  return name === undefined ? text((row as Row)[field]) : `(from $${name})`;
}

/** Seconds as the days `add`, `adduser` and `extend` take, exact to the second (util/duration.ts). */
export function daysParam(seconds: number): string {
  return fractionalAmount(seconds, 'days');
}

/** A state file's duration as the days a call takes. */
export function days(value: string | number): string {
  return daysParam(durationSeconds(value));
}

/** A duration in seconds as the shortest exact `…d`, `…h`, `…m` or `…s`. */
export function durationText(totalSeconds: number): string {
  if (totalSeconds % 86_400 === 0) return `${totalSeconds / 86_400}d`;
  if (totalSeconds % 3600 === 0) return `${totalSeconds / 3600}h`;
  if (totalSeconds % 60 === 0) return `${totalSeconds / 60}m`;
  return `${totalSeconds}s`;
}

export function changed(detail: string[], name: string, from: unknown, to: unknown): void {
  detail.push(`${name}: ${JSON.stringify(from)} → ${JSON.stringify(to)}`);
}

// --- app settings -------------------------------------------------------------------------

function settingWire(name: string): string {
  const param = findSellerOp('updatesettings')!.params.find((p) => p.flag === name);
  return param!.wire;
}

function canonicalName(name: string): string {
  return ownValue(APP_SETTING_ALIASES, name) ?? name;
}

export function canonicalSettings(app: Row): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(app)) out[canonicalName(name)] = text(value);
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
  const fromEnv = new Map(Object.keys(desired).flatMap((key) => {
    const name = envName(desired, key);
    return name === undefined ? [] : [[canonicalName(key), name] as const];
  }));
  const params: Record<string, string> = {};
  const detail: string[] = [];
  for (const { name } of APP_SETTINGS) {
    const value = wanted[name];
    if (value === undefined || value === current[name]) continue;
    params[settingWire(name)] = value;
    const variable = fromEnv.get(name);
    detail.push(variable === undefined ? `${name}: ${JSON.stringify(current[name] ?? null)} → ${JSON.stringify(value)}` : `${name}: (from $${variable})`);
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

export async function readSection(api: SellerApi, section: Exclude<Section, 'app'>): Promise<Row[]> {
  if (section === 'team') return readTeam(api);
  const source = sectionSource(section);
  return source === undefined ? [] : listAll(api, source.type, source.key);
}

/** `fetchteam` answers two lists at once (its two catalog entries): resellers and managers. */
async function readTeam(api: SellerApi): Promise<Row[]> {
  const resellers = findOpByPath('team', ['list'])!;
  const managers = findOpByPath('team', ['list'], 'managers')!;
  const keyOf = (op: typeof resellers): string => (op.response.kind === 'list' ? op.response.key : '');
  const body = await api.call(resellers.type, {}, { effect: 'read', ...responseOptions(resellers) });
  const rows = (key: string): Row[] => (Array.isArray(body[key]) ? (body[key] as Row[]) : []);
  return [...rows(keyOf(resellers)).map((r) => ({ ...r, role: 'reseller' })), ...rows(keyOf(managers)).map((m) => ({ ...m, role: 'manager' }))];
}

/**
 * Plans one keyed section: create what is missing, update what differs (not when only
 * creating), delete extras when pruning.
 */
export function keyed(
  desired: Row[],
  current: Row[],
  key: (row: Row) => string,
  currentKey: (row: Row) => string,
  make: { create: (d: Row) => Action | undefined; update?: (d: Row, c: Row) => Action | undefined; remove: (c: Row) => Action },
  plan: Planning,
): Action[] {
  const existing = new Map(current.map((row) => [currentKey(row), row]));
  const actions: Action[] = [];
  const listed = new Set<string>();
  for (const row of desired) {
    const id = key(row);
    listed.add(id);
    const found = existing.get(id);
    const action = !found ? make.create(row) : plan.createOnly ? undefined : make.update?.(row, found);
    if (action) actions.push(action);
  }
  if (plan.prune) for (const [id, row] of existing) if (!listed.has(id)) actions.push(make.remove(row));
  return actions;
}

export function planSubscriptions(desired: Row[], current: Row[], plan: Planning): Action[] {
  return keyed(desired, current, (r) => text(r.name), (r) => text(r.name), {
    create: (d) => ({ section: 'subscriptions', verb: 'create', id: idOf(d, 'name'), detail: [`level ${idOf(d, 'level')}`], calls: [catalogCall('subs', ['create'], { name: text(d.name), level: text(d.level) })] }),
    update: (d, c) => (text(d.level) === text(c.level) ? undefined : {
      section: 'subscriptions', verb: 'update', id: idOf(d, 'name'), detail: [`level: ${text(c.level)} → ${idOf(d, 'level')}`], calls: [catalogCall('subs', ['edit'], { name: text(d.name), level: text(d.level) })],
    }),
    remove: (c) => ({ section: 'subscriptions', verb: 'delete', id: text(c.name), detail: [], calls: [catalogCall('subs', ['delete'], { name: text(c.name) })] }),
  }, plan);
}

/** `variables` is a map in the file; this turns it into rows. */
export function variableRows(variables: Row): Row[] {
  return Object.entries(variables).map(([name, spec]) => ({ name, ...(spec as Row) }));
}

export function planVariables(desired: Row[], current: Row[], plan: Planning): Action[] {
  const create = (d: Row): Call => catalogCall('vars', ['create'], { name: text(d.name), data: text(d.value), 'require-login': flag(d.authed ?? false) ? '1' : '0' });
  const remove = (name: string): Call => catalogCall('vars', ['delete'], { name });
  return keyed(desired, current, (r) => text(r.name), (r) => text(r.varid), {
    create: (d) => ({ section: 'variables', verb: 'create', id: text(d.name), detail: [`value ${shown(d, 'value')}`, `authed ${flag(d.authed ?? false)}`], calls: [create(d)] }),
    update: (d, c) => {
      if (d.authed !== undefined && flag(d.authed) !== flag(c.authed)) {
        // No edit for `authed`: a new variable replaces it, tried first under another name.
        const probe = `kactl-probe-${Math.random().toString(36).slice(2, 10)}`;
        return replaceAction({
          section: 'variables',
          id: text(d.name),
          // The new variable carries the file's value too.
          detail: [`authed: ${flag(c.authed)} → ${flag(d.authed)}`, ...(text(d.value) === text(c.msg) ? [] : [`value: ${JSON.stringify(text(c.msg))} → ${shown(d, 'value')}`])],
          probe: { create: create({ ...d, name: probe }), remove: remove(probe), id: `variable ${probe}` },
          remove: remove(text(d.name)),
          create: create(d),
          putBack: create({ name: c.varid, value: c.msg, authed: flag(c.authed) }),
          what: `variable ${text(d.name)}`,
        });
      }
      if (text(d.value) === text(c.msg)) return undefined;
      return { section: 'variables', verb: 'update', id: text(d.name), detail: [`value: ${JSON.stringify(text(c.msg))} → ${shown(d, 'value')}`], calls: [catalogCall('vars', ['edit'], { name: text(d.name), data: text(d.value) })] };
    },
    remove: (c) => ({ section: 'variables', verb: 'delete', id: text(c.varid), detail: [], calls: [remove(text(c.varid))] }),
  }, plan);
}

/**
 * User variables. Whether one is read-only is compared only where the server lists it (a kactl
 * sandbox's `readOnly`; the hosted list has no such field): elsewhere `readonly:` is sent with
 * a change of value and when the variable is made.
 */
export function planUservars(desired: Row[], current: Row[], plan: Planning): Action[] {
  const set = (d: Row): Call => catalogCall('uservars', ['set'], { username: text(d.username), name: text(d.name), data: text(d.value), 'read-only': d.readonly === undefined ? undefined : flag(d.readonly) ? '1' : '0' });
  const id = (d: Row): string => `${idOf(d, 'username')}/${idOf(d, 'name')}`;
  const update = (d: Row, c: Row): Action | undefined => {
    const detail: string[] = [];
    if (text(d.value) !== text(c.data)) detail.push(`value: ${JSON.stringify(text(c.data))} → ${shown(d, 'value')}`);
    const listed = c.readOnly !== undefined && c.readOnly !== null;
    if (d.readonly !== undefined && listed && flag(d.readonly) !== flag(c.readOnly)) changed(detail, 'readonly', flag(c.readOnly), flag(d.readonly));
    return detail.length === 0 ? undefined : { section: 'uservars', verb: 'update', id: id(d), detail, calls: [set(d)] };
  };
  return keyed(desired, current, (r) => `${text(r.username)}/${text(r.name)}`, (r) => `${text(r.user)}/${text(r.name)}`, {
    create: (d) => ({ section: 'uservars', verb: 'create', id: id(d), detail: [`value ${shown(d, 'value')}`, ...(d.readonly === true ? ['read-only'] : [])], calls: [set(d)] }),
    update,
    remove: (c) => ({ section: 'uservars', verb: 'delete', id: `${text(c.user)}/${text(c.name)}`, detail: [], calls: [catalogCall('uservars', ['delete'], { username: text(c.user), name: text(c.name) })] }),
  }, plan);
}

export function planChannels(desired: Row[], current: Row[], plan: Planning): Action[] {
  return keyed(desired, current, (r) => text(r.name), (r) => text(r.name), {
    create: (d) => ({ section: 'channels', verb: 'create', id: idOf(d, 'name'), detail: [`delay ${d.delay === undefined ? '0' : idOf(d, 'delay')} s`], calls: [catalogCall('chats', ['create'], { name: text(d.name), 'delay-seconds': text(d.delay ?? 0) })] }),
    // Created in seconds but edited in minutes (the server multiplies the edit by 60).
    update: (d, c) => (d.delay === undefined || Number(d.delay) === Number(c.delay) ? undefined : {
      section: 'channels', verb: 'update', id: idOf(d, 'name'), detail: [`delay: ${text(c.delay)} s → ${idOf(d, 'delay')} s`], calls: [catalogCall('chats', ['edit'], { name: text(d.name), 'delay-minutes': String(Number(d.delay) / 60) })],
    }),
    remove: (c) => ({ section: 'channels', verb: 'delete', id: text(c.name), detail: [], calls: [catalogCall('chats', ['delete'], { name: text(c.name) })] }),
  }, plan);
}

export function planFiles(desired: Row[], current: Row[], plan: Planning): Action[] {
  return keyed(desired, current, (r) => text(r.url), (r) => text(r.url), {
    create: (d) => ({ section: 'files', verb: 'create', id: idOf(d, 'url'), detail: [], calls: [catalogCall('files', ['upload'], { url: text(d.url) })] }),
    remove: (c) => ({ section: 'files', verb: 'delete', id: text(c.url), detail: [`id ${text(c.id)}`], calls: [catalogCall('files', ['delete'], { id: text(c.id) })] }),
  }, plan);
}

function blackKey(row: Row): string {
  if (row.type !== undefined) return `${text(row.type)}:${text(row.type === 'ip' ? row.ip : row.hwid)}`;
  return row.hwid !== undefined ? `hwid:${text(row.hwid)}` : `ip:${text(row.ip)}`;
}

export function planBlacklists(desired: Row[], current: Row[], plan: Planning): Action[] {
  return keyed(desired, current, blackKey, blackKey, {
    create: (d) => {
      const values = d.hwid !== undefined ? { hwid: text(d.hwid) } : { ip: text(d.ip) };
      const id = d.hwid !== undefined ? `hwid:${idOf(d, 'hwid')}` : `ip:${idOf(d, 'ip')}`;
      return { section: 'blacklists', verb: 'create', id, detail: [], calls: [catalogCall('blacklists', ['create'], values)] };
    },
    remove: (c) => {
      const [type, data] = [text(c.type), text(c.type === 'ip' ? c.ip : c.hwid)];
      return { section: 'blacklists', verb: 'delete', id: blackKey(c), detail: [], calls: [catalogCall('blacklists', ['delete'], { value: data, type })] };
    },
  }, plan);
}

/**
 * Whitelisted IPs. While the catalog has no whitelists list, nothing can say which are there:
 * each is "ensured" (sent again, an "already there" answer counts as done). Once it has one,
 * they are read and planned like blacklists (`current` is then what the server listed).
 */
export function planWhitelists(desired: Row[], current: Row[] | undefined, plan: Planning = planning()): Action[] {
  const create = (d: Row): Call => catalogCall('whitelists', ['create'], { ip: text(d.ip) });
  if (current !== undefined) {
    return keyed(desired, current, (r) => text(r.ip), (r) => text(r.ip), {
      create: (d) => ({ section: 'whitelists', verb: 'create', id: idOf(d, 'ip'), detail: [], calls: [create(d)] }),
      remove: (c) => ({ section: 'whitelists', verb: 'delete', id: text(c.ip), detail: [], calls: [catalogCall('whitelists', ['delete'], { ip: text(c.ip) })] }),
    }, plan);
  }
  const why = `the seller API cannot list ${SECTION_GROUPS.whitelists}: sent again, "already there" counts as done`;
  return desired.map((d) => ({ section: 'whitelists', verb: 'ensure', id: idOf(d, 'ip'), detail: [why], calls: [{ ...create(d), okIf: /failed to add whitelist|already/i }] }));
}

export function planTeam(desired: Row[], current: Row[], plan: Planning): Action[] {
  return keyed(desired, current, (r) => text(r.username), (r) => text(r.username), {
    create: (d) => {
      const call = catalogCall('team', ['create'], {
        role: d.role === 'manager' ? 'Manager' : 'Reseller',
        username: text(d.username),
        password: text(d.password),
        email: text(d.email),
        'key-levels': d.keylevels === undefined ? undefined : text(d.keylevels),
        permissions: d.perms === undefined ? undefined : text(d.perms),
      });
      const detail = [idOf(d, 'role'), ...(d.keylevels === undefined ? [] : [`keylevels ${idOf(d, 'keylevels')}`]), ...(d.perms === undefined ? [] : [`perms ${idOf(d, 'perms')}`]), 'email and password (set)'];
      return { section: 'team', verb: 'create', id: idOf(d, 'username'), detail, calls: [call] };
    },
    remove: (c) => ({ section: 'team', verb: 'delete', id: text(c.username), detail: [text(c.role)], calls: [catalogCall('team', ['delete'], { username: text(c.username) })] }),
  }, plan);
}
