/**
 * Who a customer panel visitor is, from the panel cookie: a sign-in kept in memory
 * (domain/panel-sign-ins.ts: a user who owes the 2FA code, or a signed-in user), or an anonymous
 * visitor, who is kept nowhere. An anonymous cookie holds a random id only so that the sign-in
 * form's token is bound to this browser: the token is an HMAC, under a key made per store, of
 * the app and the cookie's id, so every form (the sign-in form included) carries a token a
 * forged cross-site post cannot have, and 60,000 anonymous visits store nothing.
 *
 * Signing in replaces the cookie's id (no fixation), and the token with it.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { findPanelSignIn, newPanelId, PANEL_SESSION_SECONDS } from '../domain/panel-sign-ins.js';
import type { Store } from '../store/store.js';
import { perStore } from '../store/per-store.js';

export { PANEL_SESSION_SECONDS };

export interface PanelSession {
  /** The cookie's value: a sign-in's id, or an anonymous visitor's random id. */
  readonly id: string;
  readonly appId: number;
  /** Signed-in user, or the user who still owes a 2FA code; undefined for an anonymous visitor. */
  readonly userId: number | undefined;
  readonly stage: 'anonymous' | 'needs-2fa' | 'signed-in';
  /** Form token every POST must carry. */
  readonly formToken: string;
}

export const PANEL_COOKIE = 'kactl_panel';

/** What newPanelId makes: 24 bytes, base64url. A cookie of another shape is replaced. */
const ID_SHAPE = /^[A-Za-z0-9_-]{32}$/;

const formKeyOf = perStore(() => randomBytes(32));

function formToken(store: Store, appId: number, id: string): string {
  return createHmac('sha256', formKeyOf(store)).update(`panel-form\u0000${appId}\u0000${id}`).digest('base64url');
}

/**
 * The visitor named by the cookie `id`: their live sign-in for this app, else an anonymous
 * visitor (the cookie's id kept when it has the right shape, so open tabs keep working, else a
 * new one). Nothing is stored for an anonymous visitor.
 */
export function panelVisitor(store: Store, appId: number, id: string | undefined, now: number): PanelSession {
  const signIn = id === undefined ? undefined : findPanelSignIn(store, appId, id, now);
  if (signIn !== undefined) return { id: signIn.id, appId, userId: signIn.userId, stage: signIn.stage, formToken: formToken(store, appId, signIn.id) };
  const anonymousId = id !== undefined && ID_SHAPE.test(id) ? id : newPanelId();
  return anonymousSession(store, appId, anonymousId);
}

/** The visitor a sign-in (or the sign-out) turned them into. */
export function sessionOf(store: Store, signIn: { id: string; appId: number; userId: number; stage: 'needs-2fa' | 'signed-in' }): PanelSession {
  return { id: signIn.id, appId: signIn.appId, userId: signIn.userId, stage: signIn.stage, formToken: formToken(store, signIn.appId, signIn.id) };
}

/** A fresh anonymous visitor (after signing out). */
export function anonymousSession(store: Store, appId: number, id: string = newPanelId()): PanelSession {
  return { id, appId, userId: undefined, stage: 'anonymous', formToken: formToken(store, appId, id) };
}

export function formTokenMatches(session: PanelSession, sent: string | undefined): boolean {
  return sameToken(session.formToken, sent);
}

/** Whether a form sent back the token it was given (constant time; the dashboard's forms use it too). */
export function sameToken(expected: string, sent: string | undefined): boolean {
  if (sent === undefined) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(sent);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The value of cookie `name` in a Cookie header. */
export function readCookie(header: string | string[] | undefined, name: string): string | undefined {
  const text = Array.isArray(header) ? header.join('; ') : (header ?? '');
  for (const piece of text.split(';')) {
    const eq = piece.indexOf('=');
    if (eq > 0 && piece.slice(0, eq).trim() === name) return piece.slice(eq + 1).trim();
  }
  return undefined;
}

/** The Set-Cookie value for a session: HttpOnly, SameSite=Lax, scoped to the app's panel path. */
export function sessionCookie(session: PanelSession, path: string): string {
  return `${PANEL_COOKIE}=${session.id}; Path=${path}; HttpOnly; SameSite=Lax; Max-Age=${PANEL_SESSION_SECONDS}`;
}
