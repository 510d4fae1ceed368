/**
 * Customer panel sign-ins (src/server/panel/), kept in memory beside the store: a sandbox
 * restart signs everyone out, as a test server may. Only sign-ins are kept (a user who still
 * owes the 2FA code, or a signed-in user); an anonymous visitor holds nothing here (see
 * panel/panel-sessions.ts), so visits cost no memory and no sweep.
 *
 * Here, beside the client sessions, so that whatever ends a user's client sessions (a password
 * change, `resetpw`, `pauseuser`, a ban, deletion: domain/sessions.ts `deleteSessionsOf`) ends
 * their panel sign-ins too. Expired sign-ins are dropped when met and by a sweep the server runs
 * on a timer (`sweepPanelSignIns`), never by walking the map on a request.
 */
import { randomBytes } from 'node:crypto';
import type { Store } from '../store/store.js';
import { perStore } from '../store/per-store.js';

export interface PanelSignIn {
  /** The cookie's value: 24 random bytes, base64url. */
  readonly id: string;
  readonly appId: number;
  readonly userId: number;
  readonly stage: 'needs-2fa' | 'signed-in';
  /** Domain-clock seconds; each use moves it PANEL_SESSION_SECONDS ahead. */
  readonly expiresAt: number;
}

/** Idle lifetime of a panel sign-in, seconds. */
export const PANEL_SESSION_SECONDS = 30 * 60;

const signInsOf = perStore(() => new Map<string, PanelSignIn>());

/** A new random id (also what an anonymous visitor's cookie holds). */
export function newPanelId(): string {
  return randomBytes(24).toString('base64url');
}

/** The live sign-in `id` of this app, its expiry moved ahead; else undefined. */
export function findPanelSignIn(store: Store, appId: number, id: string, now: number): PanelSignIn | undefined {
  const map = signInsOf(store);
  const found = map.get(id);
  if (found === undefined) return undefined;
  if (found.expiresAt <= now) {
    map.delete(id);
    return undefined;
  }
  if (found.appId !== appId) return undefined;
  const renewed = { ...found, expiresAt: now + PANEL_SESSION_SECONDS };
  map.set(id, renewed);
  return renewed;
}

/** A new sign-in under a new id; `replaces` (the visitor's previous sign-in, if any) ends. */
export function startPanelSignIn(store: Store, input: { appId: number; userId: number; stage: PanelSignIn['stage']; replaces?: string | undefined }, now: number): PanelSignIn {
  const map = signInsOf(store);
  if (input.replaces !== undefined) map.delete(input.replaces);
  const signIn: PanelSignIn = { id: newPanelId(), appId: input.appId, userId: input.userId, stage: input.stage, expiresAt: now + PANEL_SESSION_SECONDS };
  map.set(signIn.id, signIn);
  return signIn;
}

export function endPanelSignIn(store: Store, id: string): void {
  signInsOf(store).delete(id);
}

/** Ends every panel sign-in of the user (all browsers). Returns how many there were. */
export function endPanelSignInsOf(store: Store, appId: number, userId: number): number {
  return endWhere(store, (signIn) => signIn.appId === appId && signIn.userId === userId);
}

/** Ends every panel sign-in of the app. */
export function endAppPanelSignIns(store: Store, appId: number): number {
  return endWhere(store, (signIn) => signIn.appId === appId);
}

/** Drops the sign-ins that expired by `now`; the server calls it on a timer. */
export function sweepPanelSignIns(store: Store, now: number): number {
  return endWhere(store, (signIn) => signIn.expiresAt <= now);
}

/** How many sign-ins are kept (tests, the bench). */
export function panelSignInCount(store: Store): number {
  return signInsOf(store).size;
}

function endWhere(store: Store, matches: (signIn: PanelSignIn) => boolean): number {
  const map = signInsOf(store);
  let ended = 0;
  for (const [id, signIn] of map) {
    if (!matches(signIn)) continue;
    map.delete(id);
    ended++;
  }
  return ended;
}
