/**
 * Who is signed in to the dashboard: a browser that exchanged a one-time code (sign-in-codes.ts)
 * holds a random id in an HttpOnly, SameSite=Strict cookie scoped to `/sandbox/ui` (Secure over
 * HTTPS). Sign-ins live in memory beside the store, on real time (moving the sandbox's clock
 * must not sign the tester out), for 12 hours; a restart signs everyone out.
 *
 * Every form carries a token: an HMAC, under a key made per store, of the sign-in's id (the
 * customer panel's scheme, panel/panel-sessions.ts), so a post from another site lacks it even
 * where a browser would send the cookie. A sign-in also holds the notice of its last action,
 * shown once by the page the action redirects to (POST/redirect/GET without a message in the URL).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { perStore } from '../store/per-store.js';
import type { Store } from '../store/store.js';
import { readCookie, sameToken } from '../panel/panel-sessions.js';

export const UI_COOKIE = 'kactl_ui';
/** Where the dashboard lives; the cookie is sent nowhere else. */
export const UI_BASE = '/sandbox/ui';
/** Lifetime of a dashboard sign-in, seconds (real time). */
export const UI_SIGN_IN_SECONDS = 12 * 3600;
/** Sign-ins kept at once; past it the oldest ends. */
const MAX_SIGN_INS = 50;

/** What an action says on the page it redirects to. */
export interface Notice {
  readonly ok: boolean;
  readonly text: string;
}

interface SignIn {
  readonly expiresAtMs: number;
  notice: Notice | undefined;
}

export interface UiSession {
  readonly id: string;
  /** The token every form of this sign-in carries (`form_token`). */
  readonly formToken: string;
}

const signInsOf = perStore(() => new Map<string, SignIn>());
const formKeyOf = perStore(() => randomBytes(32));

function formToken(store: Store, id: string): string {
  return createHmac('sha256', formKeyOf(store)).update(`dashboard-form\u0000${id}`).digest('base64url');
}

/** A new sign-in (the code was good); `nowMs` is real time. */
export function startUiSignIn(store: Store, nowMs: number): UiSession {
  const signIns = signInsOf(store);
  for (const [id, signIn] of signIns) if (signIn.expiresAtMs <= nowMs) signIns.delete(id);
  while (signIns.size >= MAX_SIGN_INS) {
    const oldest = signIns.keys().next().value;
    if (oldest === undefined) break;
    signIns.delete(oldest);
  }
  const id = randomBytes(24).toString('base64url');
  signIns.set(id, { expiresAtMs: nowMs + UI_SIGN_IN_SECONDS * 1000, notice: undefined });
  return { id, formToken: formToken(store, id) };
}

/** The live sign-in the request's cookie names, if any. */
export function uiSessionOf(store: Store, cookieHeader: string | string[] | undefined, nowMs: number): UiSession | undefined {
  const id = readCookie(cookieHeader, UI_COOKIE);
  if (id === undefined) return undefined;
  const signIns = signInsOf(store);
  const signIn = signIns.get(id);
  if (signIn === undefined) return undefined;
  if (signIn.expiresAtMs <= nowMs) {
    signIns.delete(id);
    return undefined;
  }
  return { id, formToken: formToken(store, id) };
}

export function formTokenOk(session: UiSession, sent: string | undefined): boolean {
  return sameToken(session.formToken, sent);
}

export function endUiSignIn(store: Store, session: UiSession): void {
  signInsOf(store).delete(session.id);
}

/** Keeps `notice` for the next page this sign-in loads. */
export function leaveNotice(store: Store, session: UiSession, notice: Notice): void {
  const signIn = signInsOf(store).get(session.id);
  if (signIn !== undefined) signIn.notice = notice;
}

/** The notice left by the last action, once. */
export function takeNotice(store: Store, session: UiSession): Notice | undefined {
  const signIn = signInsOf(store).get(session.id);
  const notice = signIn?.notice;
  if (signIn !== undefined) signIn.notice = undefined;
  return notice;
}

/** The cookie that signs this browser in; `secure` over HTTPS. */
export function uiCookie(session: UiSession, secure: boolean): string {
  return `${UI_COOKIE}=${session.id}; Path=${UI_BASE}; HttpOnly; SameSite=Strict; Max-Age=${UI_SIGN_IN_SECONDS}${secure ? '; Secure' : ''}`;
}

/** The cookie that signs this browser out. */
export function clearedUiCookie(secure: boolean): string {
  return `${UI_COOKIE}=; Path=${UI_BASE}; HttpOnly; SameSite=Strict; Max-Age=0${secure ? '; Secure' : ''}`;
}
