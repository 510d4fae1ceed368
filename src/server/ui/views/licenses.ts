/**
 * License keys, a page at a time (a sandbox may hold 100,000), filtered by status or by text in
 * the key, note or user; a form creates keys through the seller API's `add`.
 */
import type { LicenseRow } from '../../domain/rows.js';
import { formatUtc, html, joinHtml, type Html } from '../../client/page-layout.js';
import { shownDuration } from '../../domain/shown.js';
import { postForm, table, viewPath, whenCell } from '../layout.js';
import { containing, pageAsked, paged, pager } from '../paging.js';
import { runSellerOp } from '../seller-ops.js';
import type { DashboardView, ViewContext } from '../view.js';

const STATUSES = ['Not Used', 'Used', 'Banned', 'Paused'] as const;

function show(ctx: ViewContext): { body: Html } {
  const { page, app, params, session } = ctx;
  const status = STATUSES.find((candidate) => candidate === params.raw('status'));
  const q = params.raw('q')?.trim() || undefined;
  const where = ['appId = ?'];
  const args: (string | number)[] = [app.id];
  if (status !== undefined) {
    where.push('status = ?');
    args.push(status);
  }
  if (q !== undefined) {
    where.push(`(key LIKE ? ESCAPE '\\' OR note LIKE ? ESCAPE '\\' OR usedby LIKE ? ESCAPE '\\')`);
    args.push(containing(q), containing(q), containing(q));
  }
  const list = paged<LicenseRow>(page.store, { from: `licenses WHERE ${where.join(' AND ')}`, args, order: 'id DESC' }, pageAsked(params));
  const rows = list.rows.map(
    (key) => html`<tr><td><code>${key.key}</code></td><td>${key.status}</td><td>${key.level}</td><td>${shownDuration(key.expires)}</td><td>${key.note ?? ''}</td><td>${key.usedby ?? ''}</td>${whenCell(key.usedon === null ? '' : formatUtc(key.usedon))}<td>${key.genby ?? ''}</td>${whenCell(formatUtc(key.gendate))}</tr>`,
  );
  const options = ['', ...STATUSES].map((value) => html`<option value="${value}"${value === (status ?? '') ? html` selected` : html``}>${value === '' ? 'any' : value}</option>`);
  const create = postForm(
    session,
    `${viewPath('licenses')}/create`,
    html`<label>How many<input name="amount" type="number" min="1" max="100" value="1" required></label><label>Days<input name="expiry" inputmode="decimal" value="30" required></label><label>Level<input name="level" value="1" required></label><label>Mask<input name="mask" value="******-******-******-******-******-******"></label><label>Note<input name="note"></label>`,
    'Create licenses',
    { className: 'inline-fields', primary: true },
  );
  return {
    body: html`<h2>Create</h2>${create}
<h2>Keys</h2>
<form method="get" action="${viewPath('licenses')}" class="inline-fields"><label>Status<select name="status">${joinHtml(options)}</select></label><label>Key, note or user<input name="q" value="${q ?? ''}"></label><button type="submit">Filter</button></form>
${pager(list, viewPath('licenses'), 'keys', { status, q })}
${list.total === 0 ? html`` : table('License keys, newest first', ['Key', 'Status', 'Level', 'Lasts', 'Note', 'Used by', 'Used on', 'Made by', 'Made'], rows)}`,
  };
}

export const licensesView: DashboardView = {
  id: 'licenses',
  label: 'Licenses',
  show,
  actions: [
    {
      name: 'create',
      run: async (ctx) => {
        const values = { amount: ctx.params.raw('amount'), expiry: ctx.params.raw('expiry'), level: ctx.params.raw('level'), mask: ctx.params.raw('mask'), note: ctx.params.raw('note') };
        const { reply, notice } = await runSellerOp(ctx, 'add', Object.fromEntries(Object.entries(values).map(([name, value]) => [name, value?.trim() || undefined])));
        const keys = reply.fields['keys'] ?? (reply.fields['key'] === undefined ? undefined : [reply.fields['key']]);
        return Array.isArray(keys) ? { ok: notice.ok, text: `${notice.text}: ${keys.join(', ')}` } : notice;
      },
    },
  ],
};
