/**
 * Webhooks in a state file. The seller API lists only the first SHORT_LINK_LENGTH characters of
 * a webhook's URL (`short_baselink`) and never the rest, so a file from `export` (or a backup)
 * may hold only the start of a URL: it says so (`truncated: true`), and such a webhook is never
 * created from that start, which would point it somewhere else while reporting success. The
 * whole URL comes from `--url ID=URL`; without it the webhook is left out, and the run says so.
 *
 * There is no edit: a change is a new webhook with the same id, tried first under another id
 * (replace.ts). The old one cannot be put back if that fails, since its URL cannot be read.
 */
import type { Action, Call, Planning, Row } from './actions.js';
import { changed, flag, idOf, keyed, shown, text } from './records.js';
import { replaceAction } from './replace.js';

/** How much of a URL `fetchallwebhooks` shows (docs/protocol/seller-api.md §3.11). */
export const SHORT_LINK_LENGTH = 21;

/** The URL as far as the list shows it, and whether that is all of it (as far as anyone can tell). */
export function listedUrl(row: Row): { url: string; truncated: boolean } {
  // A server that gives the whole URL is taken at its word.
  if (typeof row.baselink === 'string' && row.baselink !== '') return { url: row.baselink, truncated: false };
  const url = text(row.short_baselink);
  return { url, truncated: [...url].length >= SHORT_LINK_LENGTH };
}

/** The URL to create `d` with, or undefined (and a reason in `plan.leftOut`) when only its start is known. */
function fullUrl(d: Row, plan: Planning, doing: string): string | undefined {
  const given = plan.urls.get(text(d.id));
  if (given !== undefined) return given;
  if (d.truncated !== true) return text(d.url);
  plan.leftOut.push(`webhook ${idOf(d, 'id')}: only the start of its URL is known ("${text(d.url)}…"), so it is not ${doing}; give the whole URL with --url ${text(d.id)}=URL.`);
  return undefined;
}

function addCall(d: Row, url: string, webid = text(d.id)): Call {
  return { type: 'addwebhook', params: { webid, baseurl: url, authed: flag(d.authed ?? false) ? '1' : '0', ...(d.useragent === undefined ? {} : { ua: text(d.useragent) }) } };
}

function replaceWebhook(d: Row, url: string, detail: string[]): Action {
  const probe = `kactl-probe-${Math.random().toString(36).slice(2, 10)}`;
  return replaceAction({
    section: 'webhooks',
    id: idOf(d, 'id'),
    detail,
    probe: { create: addCall(d, url, probe), remove: { type: 'delwebhook', params: { webid: probe } }, id: `webhook ${probe}` },
    remove: { type: 'delwebhook', params: { webid: text(d.id) } },
    create: addCall(d, url),
    noPutBack: 'the old one cannot be put back, since the server never shows its whole URL',
    what: `webhook ${text(d.id)}`,
  });
}

export function planWebhooks(desired: Row[], current: Row[], plan: Planning): Action[] {
  return keyed(desired, current, (r) => text(r.id), (r) => text(r.webid), {
    create: (d) => {
      const url = fullUrl(d, plan, 'created');
      const detail = [d.truncated === true ? `${text(d.url)}… (--url)` : idOf(d, 'url'), `authed ${flag(d.authed ?? false)}`, ...(d.useragent === undefined ? [] : [`useragent ${shown(d, 'useragent')}`])];
      return url === undefined ? undefined : { section: 'webhooks', verb: 'create', id: idOf(d, 'id'), detail, calls: [addCall(d, url)] };
    },
    update: (d, c) => {
      const detail: string[] = [];
      const listed = listedUrl(c);
      const wanted = plan.urls.get(text(d.id)) ?? text(d.url);
      // Only the listed start can be compared: a URL that does not begin with it is another URL.
      const sameUrl = d.truncated === true && !plan.urls.has(text(d.id)) ? wanted === listed.url : wanted.startsWith(listed.url);
      if (!sameUrl) detail.push(`url: "${listed.url}${listed.truncated ? '…' : ''}" → ${d.truncated === true && !plan.urls.has(text(d.id)) ? `"${wanted}…"` : 'a new URL'}`);
      if (d.useragent !== undefined && text(d.useragent) !== text(c.useragent)) changed(detail, 'useragent', text(c.useragent), text(d.useragent));
      if (d.authed !== undefined && flag(d.authed) !== flag(c.authed)) changed(detail, 'authed', flag(c.authed), flag(d.authed));
      if (detail.length === 0) return undefined;
      const url = fullUrl(d, plan, 'replaced');
      // What the file leaves out is not compared: the new webhook keeps the old one's.
      const kept = { ...d, authed: d.authed ?? flag(c.authed), ...(d.useragent === undefined && text(c.useragent) !== '' ? { useragent: text(c.useragent) } : {}) };
      return url === undefined ? undefined : replaceWebhook(kept, url, detail);
    },
    remove: (c) => ({ section: 'webhooks', verb: 'delete', id: text(c.webid), detail: [], calls: [{ type: 'delwebhook', params: { webid: text(c.webid) } }] }),
  }, plan);
}
