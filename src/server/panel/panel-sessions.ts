/**
 * Customer panel sign-ins, kept in memory (a sandbox restart signs everyone out, as a test
 * server may). Every visitor gets a session on first sight, so even the sign-in form carries
 * a form token; signing in replaces the session id (no fixation) and the token with it.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Store } from '../store/store.js';
import { perStore } from '../store/per-store.js';

export interface PanelSession {
  readonly id: string;
  readonly appId: number;
  /** Signed-in user, or the user who still owes a 2FA code. */
  readonly userId: number | undefined;
  readonly stage: 'anonymous' | 'needs-2fa' | 'signed-in';
  /** Form token every POST must carry. */
  readonly formToken: string;
  readonly expiresAt: number;
}

/** Idle lifetime of a panel sign-in, seconds. */
export const PANEL_SESSION_SECONDS = 30 * 60;
export const PANEL_COOKIE = 'kactl_panel';

const sessions = perStore(() => new Map<string, PanelSession>());

const token = (): string => randomBytes(24).toString('base64url');

/** The live session named by the cookie for this app, sliding its expiry; else undefined. */
export function findPanelSession(store: Store, appId: number, id: string | undefined, now: number): PanelSession | undefined {
  if (id === undefined) return undefined;
  const map = sessions(store);
  const found = map.get(id);
  if (found === undefined || found.appId !== appId || found.expiresAt <= now) {
    if (found !== undefined && found.expiresAt <= now) map.delete(id);
    return undefined;
  }
  const renewed = { ...found, expiresAt: now + PANEL_SESSION_SECONDS };
  map.set(id, renewed);
  return renewed;
}

/** A new session (new id and form token) in `stage`; `replaces` is ended. */
export function startPanelSession(store: Store, input: { appId: number; userId?: number; stage: PanelSession['stage']; replaces?: string }, now: number): PanelSession {
  const map = sessions(store);
  if (input.replaces !== undefined) map.delete(input.replaces);
  for (const [id, old] of map) if (old.expiresAt <= now) map.delete(id);
  const session: PanelSession = { id: token(), appId: input.appId, userId: input.userId, stage: input.stage, formToken: token(), expiresAt: now + PANEL_SESSION_SECONDS };
  map.set(session.id, session);
  return session;
}

export function endPanelSession(store: Store, id: string): void {
  sessions(store).delete(id);
}

export function formTokenMatches(session: PanelSession, sent: string | undefined): boolean {
  if (sent === undefined) return false;
  const a = Buffer.from(session.formToken);
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
