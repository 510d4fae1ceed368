/**
 * The server's current state as a state body: what `kactl export` prints and what `apply` reads
 * back to the same result. Nothing secret comes out (no passwords, hashes, app secret, shop
 * secrets); what the seller API cannot read (user emails, a webhook's full URL, whitelists,
 * team emails) is not there either. The same mappers turn a backup's records back into a state
 * body for `kactl restore`.
 */
// Imported statically: in the bundle a dynamic import of yaml (CommonJS) yields only a default export.
import { stringify } from 'yaml';
import type { SellerApi } from '../api/seller-api.js';
import { appSetting } from './app-settings.js';
import type { Section } from './records.js';
import { durationText, readApp, readSection, text } from './records.js';

type Row = Record<string, unknown>;

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

/** Remaining time from now to `expiry` (seconds since the epoch), in whole days rounded up. */
function remaining(expiry: unknown, nowMs: number): string {
  const secondsLeft = Number(expiry) - Math.floor(nowMs / 1000);
  return `${Math.max(1, Math.ceil(secondsLeft / 86_400))}d`;
}

/** Records as the seller API lists them → the section of a state file. */
export function sectionFromRows(section: Section, rows: readonly Row[], nowMs: number, subscriptions: Readonly<Record<string, readonly unknown[]>> = {}): unknown {
  switch (section) {
    case 'subscriptions':
      return rows.map((s) => ({ name: text(s.name), level: Number(s.level) }));
    case 'licenses':
      return rows.map((k) => {
        const unused = /^not used$/i.test(text(k.status));
        const expiry = unused ? durationText(Number(k.expires)) : remaining(k.expires, nowMs);
        return { key: text(k.key), level: Number(k.level), expiry, ...(text(k.note) === '' ? {} : { note: text(k.note) }) };
      });
    case 'users':
      return rows.map((u) => {
        const first = (subscriptions[text(u.username)] ?? [])[0] as Row | undefined;
        return { username: text(u.username), subscription: first ? text(first.subscription) : 'default', expiry: first ? remaining(first.expiry, nowMs) : '1d' };
      });
    case 'variables':
      return Object.fromEntries(rows.map((v) => [text(v.varid), { value: text(v.msg), authed: text(v.authed) === '1' }]));
    case 'uservars':
      return rows.map((v) => ({ username: text(v.user), name: text(v.name), value: text(v.data) }));
    case 'channels':
      return rows.map((c) => ({ name: text(c.name), delay: Number(c.delay) }));
    case 'webhooks':
      return rows.map((w) => ({ id: text(w.webid), url: text(w.short_baselink), ...(text(w.useragent) === '' ? {} : { useragent: text(w.useragent) }), authed: text(w.authed) === '1' }));
    case 'files':
      return rows.map((f) => ({ url: text(f.url) }));
    case 'blacklists':
      return rows.map((b) => (text(b.type) === 'ip' ? { ip: text(b.ip) } : { hwid: text(b.hwid) }));
    case 'team':
      return rows.map((t) => ({
        role: text(t.role) || 'reseller', username: text(t.username), ...(t.key_levels === undefined ? {} : { keylevels: text(t.key_levels) }), ...(t.permissions === undefined ? {} : { perms: text(t.permissions) }),
      }));
    default:
      return undefined;
  }
}

const EXPORTED: readonly Section[] = ['subscriptions', 'licenses', 'users', 'variables', 'uservars', 'channels', 'webhooks', 'files', 'blacklists', 'team'];

export async function exportState(api: SellerApi, nowMs: number): Promise<Row> {
  const app = await readApp(api);
  const state: Row = { app: Object.fromEntries(Object.entries(app).map(([name, value]) => [name, typed(name, value)])) };
  for (const section of EXPORTED) {
    const rows = await readSection(api, section as Parameters<typeof readSection>[1]);
    const subscriptions: Record<string, unknown[]> = {};
    if (section === 'users') {
      for (const user of rows) {
        const body = await api.call('usersub', { user: text(user.username) }, { effect: 'read', list: { key: 'subs', emptyMessage: 'No subscriptions found' } });
        subscriptions[text(user.username)] = Array.isArray(body.subs) ? body.subs : [];
      }
    }
    state[section] = sectionFromRows(section, rows, nowMs, subscriptions);
  }
  return state;
}

/** A state body as the YAML file `kactl export` prints, with a first line saying what it is. */
export function stateAsYaml(state: Row): string {
  return `# kactl state file: kactl apply -f FILE makes a server hold this (kactl schema state describes it)\n${stringify(state)}`;
}
