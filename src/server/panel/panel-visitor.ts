/**
 * Who is looking at a customer panel page: the app the address names, its path, and the visitor's
 * sign-in (panel-sessions.ts), with what each panel page puts in for it (the session's cookie,
 * its form token, an alert). Every panel page uses these (the panel itself, the web loader's
 * page, the password reset); they live here so those pages need not import one another.
 */
import { getUserById } from '../domain/users.js';
import type { AppRow, UserRow } from '../domain/rows.js';
import type { PageContext, PageReply } from '../http/pages.js';
import { html, renderPage, type Html } from '../client/page-layout.js';
import { PANEL_COOKIE, panelVisitor, readCookie, sessionCookie, type PanelSession } from './panel-sessions.js';

/** The answer to an address no app's panel has. */
export function panelNotFound(): PageReply {
  return renderPage({ title: 'Panel not found', status: 404, body: html`<p>No application has a customer panel at this address.</p>` });
}

export function findPanelApp(ctx: PageContext): AppRow | undefined {
  const owner = ctx.pathParams['owner'] ?? '';
  const name = ctx.pathParams['app'] ?? '';
  return ctx.store.get<AppRow>('SELECT * FROM apps WHERE owner = ? AND name = ?', owner, name);
}

export function panelPath(app: AppRow): string {
  return `/panel/${encodeURIComponent(app.owner)}/${encodeURIComponent(app.name)}/`;
}

/** The visitor's sign-in, or an anonymous visitor (kept nowhere: panel-sessions.ts). */
export function visitorSession(ctx: PageContext, app: AppRow): PanelSession {
  return panelVisitor(ctx.store, app.id, readCookie(ctx.request.headers.cookie, PANEL_COOKIE), ctx.now);
}

export function signedInUser(ctx: PageContext, session: PanelSession): UserRow | undefined {
  if (session.stage !== 'signed-in' || session.userId === undefined) return undefined;
  const user = getUserById(ctx.store, session.userId);
  return user !== undefined && user.banned === null ? user : undefined;
}

/** The page with the session's cookie attached (every panel answer refreshes it). */
export function withCookie(reply: PageReply, session: PanelSession, app: AppRow): PageReply {
  return { ...reply, headers: { ...reply.headers, 'set-cookie': sessionCookie(session, panelPath(app)) } };
}

/** The hidden field every panel form carries: the visitor's form token. */
export const tokenField = (session: PanelSession): Html => html`<input type="hidden" name="form_token" value="${session.formToken}">`;

/** What went wrong with the last form, said where a screen reader announces it. */
export const alert = (error: string | undefined): Html => (error === undefined ? html`` : html`<p role="alert">${error}</p>`);
