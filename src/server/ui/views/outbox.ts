/**
 * The outbox: the email the sandbox would have sent, newest first, a page at a time; magic
 * links and password-reset links are links (open them here to approve or reset).
 */
import { formatUtc, html, type Html } from '../../client/page-layout.js';
import { table, viewPath, whenCell } from '../layout.js';
import { safeLink } from '../links.js';
import { pageAsked, paged, pager } from '../paging.js';
import type { DashboardView, ViewContext } from '../view.js';

interface OutboxListed {
  readonly id: number;
  readonly kind: string;
  readonly recipient: string;
  readonly subject: string;
  readonly text: string;
  readonly link: string | null;
  readonly createdAt: number;
}

function show(ctx: ViewContext): { body: Html } {
  const list = paged<OutboxListed>(ctx.page.store, { from: 'outbox WHERE appId IS NULL OR appId = ?', args: [ctx.app.id], order: 'id DESC' }, pageAsked(ctx.params));
  const rows = list.rows.map(
    (mail) => html`<tr>${whenCell(formatUtc(mail.createdAt))}<td>${mail.kind}</td><td>${mail.recipient}</td><td>${mail.subject}</td><td><pre>${mail.text}</pre></td><td>${mail.link === null ? '' : safeLink(mail.link, 'Open link')}</td></tr>`,
  );
  return {
    body: html`<p class="note">Also <code>kactl sandbox outbox</code>.</p>${pager(list, viewPath('outbox'), 'messages')}${list.total === 0 ? html`` : table('Messages, newest first', ['Sent', 'Kind', 'To', 'Subject', 'Text', 'Link'], rows)}`,
  };
}

export const outboxView: DashboardView = { id: 'outbox', label: 'Outbox', show };
