/**
 * Live client sessions (what the seller API's `fetchallsessions` lists); ending one runs its
 * `kill`. A session id is a secret: the page shows its first characters, the form carries it.
 */
import { listLiveSessions } from '../../domain/sessions.js';
import { shownSession } from '../../domain/shown.js';
import { formatUtc, html, type Html } from '../../client/page-layout.js';
import { postForm, table, viewPath, whenCell } from '../layout.js';
import { runSellerOp } from '../seller-ops.js';
import type { DashboardView, ViewContext } from '../view.js';

function show(ctx: ViewContext): { body: Html } {
  const sessions = listLiveSessions(ctx.page.store, ctx.app.id, ctx.page.now);
  if (sessions.length === 0) return { body: html`<p class="note">No live sessions. A program's <code>init</code> opens one.</p>` };
  const rows = sessions.map((session) => {
    const end = postForm(ctx.session, `${viewPath('sessions')}/end`, html`<input type="hidden" name="sessid" value="${session.id}">`, 'End session');
    return html`<tr><td><code>${shownSession(session.id)}</code></td><td>${session.api}</td><td>${session.credential ?? html`<span class="note">not signed in</span>`}</td><td>${session.validated ? 'yes' : 'no'}</td><td>${session.ip ?? ''}</td>${whenCell(formatUtc(session.createdAt))}${whenCell(formatUtc(session.expiry))}<td>${end}</td></tr>`;
  });
  return { body: table('Live sessions', ['Session', 'API', 'User', 'Signed in', 'IP', 'Opened', 'Expires', ''], rows) };
}

export const sessionsView: DashboardView = {
  id: 'sessions',
  label: 'Sessions',
  show,
  actions: [{ name: 'end', run: async (ctx) => (await runSellerOp(ctx, 'kill', { sessid: ctx.params.raw('sessid') })).notice }],
};
