/**
 * The page a `forgot` email links to: `GET /sandbox/reset/<secret>` shows a form (new password
 * twice, no JavaScript); `POST` to the same URL with `password` and `confirm` sets it. Passwords
 * are read as the API reads `pass` (trimmed, tags stripped), so the new one logs in as typed, and
 * follow the same rules as at register (domain/password-rules.ts).
 */
import { getApp } from '../domain/apps.js';
import { hashPassword } from '../domain/passwords.js';
import { newPasswordProblem } from '../domain/password-rules.js';
import { completePasswordReset, findPasswordReset, passwordResetPath, passwordResetState, type PasswordResetRow } from '../domain/password-resets.js';
import type { Params } from '../dispatch/params.js';
import type { PageContext, PageReply, PageRoute } from '../http/pages.js';
import { formatUtc, html, renderPage, type PageOptions } from './page-layout.js';

/** A page a mail in the outbox links to: its footer says where the link came from. */
function linkedPage(options: PageOptions): PageReply {
  return renderPage({ ...options, mail: 'link' });
}

export const RESET_PAGE_MESSAGES = {
  missing: 'Type a new password in both fields.',
  mismatch: 'The two passwords differ. Type the same password twice.',
} as const;

function notFound(): PageReply {
  return linkedPage({ title: 'Link not valid', status: 404, body: html`<p>This password reset link is not valid. Ask for a new one from the application.</p>` });
}

function form(ctx: PageContext, row: PasswordResetRow, error?: string): PageReply {
  const app = getApp(ctx.store, row.appId);
  return linkedPage({
    title: 'Choose a new password',
    status: error === undefined ? 200 : 400,
    body: html`${error === undefined ? html`` : html`<p role="alert">${error}</p>`}
<dl>
<dt>Application</dt><dd>${app.name}</dd>
<dt>Account</dt><dd>${row.username}</dd>
<dt>Link expires</dt><dd>${formatUtc(row.expiresAt)}</dd>
</dl>
<form method="post" action="${passwordResetPath(row.secret)}">
<label for="password">New password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required>
<label for="confirm">New password again</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" required>
<div class="actions"><button type="submit" class="primary">Set password</button></div>
</form>`,
  });
}

function closed(state: 'used' | 'expired'): PageReply {
  return state === 'used'
    ? linkedPage({ title: 'Link already used', status: 410, body: html`<p>This link has already been used to set a password. Ask for a new one if you need to.</p>` })
    : linkedPage({ title: 'Link expired', status: 410, body: html`<p>This link has expired. Ask for a new one from the application.</p>` });
}

function show(ctx: PageContext): PageReply {
  const row = findPasswordReset(ctx.store, ctx.pathParams['secret'] ?? '');
  if (row === undefined) return notFound();
  const state = passwordResetState(row, ctx.now);
  return state === 'valid' ? form(ctx, row) : closed(state);
}

async function submit(ctx: PageContext, params: Params): Promise<PageReply> {
  const secret = ctx.pathParams['secret'] ?? '';
  const row = findPasswordReset(ctx.store, secret);
  if (row === undefined) return notFound();
  const state = passwordResetState(row, ctx.now);
  if (state !== 'valid') return closed(state);
  const password = params.get('password');
  const confirm = params.get('confirm');
  if (password === undefined || confirm === undefined) return form(ctx, row, RESET_PAGE_MESSAGES.missing);
  if (password !== confirm) return form(ctx, row, RESET_PAGE_MESSAGES.mismatch);
  const problem = newPasswordProblem(ctx.store, getApp(ctx.store, row.appId), password);
  if (problem !== undefined) return form(ctx, row, problem.message);

  const passwordHash = await hashPassword(password);
  const done = completePasswordReset(ctx.store, secret, passwordHash, ctx.now);
  if (!done.ok) {
    if (done.code === 'used' || done.code === 'expired') return closed(done.code);
    return done.code === 'notfound' ? notFound() : linkedPage({ title: 'Account gone', status: 410, body: html`<p>${done.message}</p>` });
  }
  const app = getApp(ctx.store, row.appId);
  return linkedPage({ title: 'Password changed', body: html`<p>The password of <strong>${done.value.username}</strong> on ${app.name} is changed. Sign in again from the application.</p>` });
}

export const resetPages: readonly PageRoute[] = [
  { method: 'GET', path: passwordResetPath(':secret'), handle: show },
  { method: 'POST', path: passwordResetPath(':secret'), handle: submit },
];
