/**
 * Who is looking at a customer panel page: the app the address names, its path, and the visitor's
 * sign-in (panel-sessions.ts). Every panel page reads these (the panel itself, the web loader's
 * page); they live here so those pages need not import one another.
 */
import { getUserById } from '../domain/users.js';
import type { AppRow, UserRow } from '../domain/rows.js';
import type { PageContext } from '../http/pages.js';
import { PANEL_COOKIE, panelVisitor, readCookie, type PanelSession } from './panel-sessions.js';

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
