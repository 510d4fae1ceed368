/**
 * Users with their subscriptions and HWIDs, a page at a time, searchable; ban, unban and HWID
 * reset run the seller API's `banuser`, `unbanuser` and `resetuser`.
 */
import { listUserSubs } from '../../domain/user-subs.js';
import type { UserRow } from '../../domain/rows.js';
import { formatUtc, html, joinHtml, type Html } from '../../client/page-layout.js';
import { shownDuration } from '../../domain/shown.js';
import { postForm, table, viewPath, whenCell } from '../layout.js';
import { containing, pageAsked, paged, pager } from '../paging.js';
import { runSellerOp } from '../seller-ops.js';
import type { Notice } from '../ui-sessions.js';
import type { DashboardView, ViewContext } from '../view.js';

function subsOf(ctx: ViewContext, user: UserRow): Html {
  const subs = listUserSubs(ctx.page.store, user.id);
  if (subs.length === 0) return html`<span class="note">none</span>`;
  const items = subs.map((sub) => {
    const when = sub.paused ? `paused, ${shownDuration(sub.expiry)} left` : sub.expiry > ctx.page.now ? `until ${formatUtc(sub.expiry)}` : `expired ${formatUtc(sub.expiry)}`;
    return html`<li>${sub.subscription}: ${when}${sub.key === null ? html`` : html` (key <code>${sub.key}</code>)`}</li>`;
  });
  return html`<ul>${joinHtml(items)}</ul>`;
}

function actionsOf(ctx: ViewContext, user: UserRow): Html {
  const who = html`<input type="hidden" name="user" value="${user.username}">`;
  const path = viewPath('users');
  const ban =
    user.banned === null
      ? postForm(ctx.session, `${path}/ban`, html`${who}<input name="reason" aria-label="Ban reason for ${user.username}" placeholder="reason" required>`, 'Ban')
      : postForm(ctx.session, `${path}/unban`, who, 'Unban');
  const reset = user.hwid === null || user.hwid === '' ? html`` : postForm(ctx.session, `${path}/reset-hwid`, who, 'Reset HWID');
  return html`${ban}${reset}`;
}

function show(ctx: ViewContext): { body: Html } {
  const { page, app, params } = ctx;
  const q = params.raw('q')?.trim() || undefined;
  const where = q === undefined ? 'appId = ?' : `appId = ? AND (username LIKE ? ESCAPE '\\' OR hwid LIKE ? ESCAPE '\\' OR ip LIKE ? ESCAPE '\\')`;
  const args = q === undefined ? [app.id] : [app.id, containing(q), containing(q), containing(q)];
  const list = paged<UserRow>(page.store, { from: `users WHERE ${where}`, args, order: 'id DESC' }, pageAsked(params));
  const rows = list.rows.map(
    (user) =>
      html`<tr><td>${user.username}</td><td>${subsOf(ctx, user)}</td><td><code>${user.hwid ?? ''}</code></td><td>${user.ip ?? ''}</td><td>${user.banned === null ? 'no' : html`yes: ${user.banned}`}</td><td>${user.twofaEnabled ? 'on' : 'off'}</td>${whenCell(user.lastlogin === null ? 'never' : formatUtc(user.lastlogin))}<td>${actionsOf(ctx, user)}</td></tr>`,
  );
  return {
    body: html`<form method="get" action="${viewPath('users')}" class="inline-fields"><label>Username, HWID or IP<input name="q" value="${q ?? ''}"></label><button type="submit">Search</button></form>
${pager(list, viewPath('users'), 'users', { q })}
${list.total === 0 ? html`` : table('Users, newest first', ['Username', 'Subscriptions', 'HWID', 'IP', 'Banned', '2FA', 'Last login', 'Actions'], rows)}`,
  };
}

/** A seller operation on the user the form names. */
function onUser(type: string, extra: (ctx: ViewContext) => Record<string, string | undefined> = () => ({})): (ctx: ViewContext) => Promise<Notice> {
  return async (ctx) => (await runSellerOp(ctx, type, { user: ctx.params.raw('user'), ...extra(ctx) })).notice;
}

export const usersView: DashboardView = {
  id: 'users',
  label: 'Users',
  show,
  actions: [
    { name: 'ban', run: onUser('banuser', (ctx) => ({ reason: ctx.params.raw('reason') })) },
    { name: 'unban', run: onUser('unbanuser') },
    { name: 'reset-hwid', run: onUser('resetuser') },
  ],
};
