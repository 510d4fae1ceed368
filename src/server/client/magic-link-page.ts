/**
 * The page a magic link opens: `GET /sandbox/magic/<token>` shows the app and the user with an
 * Approve and a Refuse button (a plain form, no JavaScript); `POST` to the same URL with
 * `decision=approve` or `decision=deny` records the choice. The client's `magicLinkCheck` then
 * logs in (approved) or reports the link expired (refused).
 */
import { getApp } from '../domain/apps.js';
import { decideMagicLink, findMagicLink, magicLinkPath, magicLinkState, type MagicLinkDecisionResult, type MagicLinkRow } from '../domain/magic-links.js';
import { getUserById } from '../domain/users.js';
import type { Params } from '../dispatch/params.js';
import type { PageContext, PageReply, PageRoute } from '../http/pages.js';
import { formatUtc, html, renderPage, type PageOptions, type Html } from './page-layout.js';

/** A page a mail in the outbox links to: its footer says where the link came from. */
function linkedPage(options: PageOptions): PageReply {
  return renderPage({ ...options, mail: 'link' });
}

function notFound(): PageReply {
  return linkedPage({ title: 'Link not valid', status: 404, body: html`<p>This sign-in link is not valid. Ask the application for a new one.</p>` });
}

function describe(ctx: PageContext, link: MagicLinkRow): Html {
  const app = getApp(ctx.store, link.appId);
  const username = getUserById(ctx.store, link.userId)?.username ?? '(deleted user)';
  return html`<dl>
<dt>Application</dt><dd>${app.name}</dd>
<dt>Account</dt><dd>${username}</dd>
<dt>Link expires</dt><dd>${formatUtc(link.expiresAt)}</dd>
</dl>`;
}

/** The page for a link in a state that wants no decision (or after one). */
function outcomePage(ctx: PageContext, link: MagicLinkRow, result: Exclude<MagicLinkDecisionResult, 'notfound'>): PageReply {
  const details = describe(ctx, link);
  switch (result) {
    case 'approved':
    case 'already-approved':
      return linkedPage({ title: 'Sign-in approved', body: html`${details}<p>Go back to the application: it finishes signing you in on its own.</p>` });
    case 'denied':
      return linkedPage({ title: 'Sign-in refused', body: html`${details}<p>Nobody can use this link now. The application reports it as expired.</p>` });
    case 'used':
      return linkedPage({ title: 'Link already used', status: 410, body: html`${details}<p>This link has already signed someone in. Each link works once.</p>` });
    case 'expired':
      return linkedPage({ title: 'Link expired', status: 410, body: html`${details}<p>This link has expired or was replaced by a newer one. Ask the application for a new link.</p>` });
  }
}

function show(ctx: PageContext): PageReply {
  const link = findMagicLink(ctx.store, ctx.pathParams['token'] ?? '');
  if (link === undefined) return notFound();
  const state = magicLinkState(link, ctx.now);
  if (state !== 'pending') return outcomePage(ctx, link, state);
  return linkedPage({
    title: 'Approve this sign-in?',
    body: html`<p>Someone asked to sign in with this email address. Approve only if it is you.</p>
${describe(ctx, link)}
<form method="post" action="${magicLinkPath(link.token)}">
<div class="actions">
<button type="submit" name="decision" value="approve" class="primary">Approve sign-in</button>
<button type="submit" name="decision" value="deny">Refuse</button>
</div>
</form>`,
  });
}

function decide(ctx: PageContext, params: Params): PageReply {
  const token = ctx.pathParams['token'] ?? '';
  const decision = params.get('decision');
  if (decision !== 'approve' && decision !== 'deny') {
    if (findMagicLink(ctx.store, token) === undefined) return notFound();
    return linkedPage({ title: 'Choose an answer', status: 400, body: html`<p role="alert">Press Approve sign-in or Refuse.</p><p><a href="${magicLinkPath(token)}">Back to the sign-in request</a></p>` });
  }
  const result = decideMagicLink(ctx.store, token, decision, ctx.now);
  const link = findMagicLink(ctx.store, token);
  if (result === 'notfound' || link === undefined) return notFound();
  return outcomePage(ctx, link, result);
}

export const magicLinkPages: readonly PageRoute[] = [
  { method: 'GET', path: magicLinkPath(':token'), handle: show },
  { method: 'POST', path: magicLinkPath(':token'), handle: decide },
];
