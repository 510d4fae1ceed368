/**
 * Client sessions. Every `init` opens a new session with a fresh random id (docs/design.md: the real
 * server's one-session-per-IP reuse is not copied). A session lives for the app's session length
 * from its creation, with no sliding renewal; `login`, `license`, `register` validate it.
 *
 * Ending a user's sessions ends their customer panel sign-ins too (domain/panel-sign-ins.ts):
 * whatever locks a user out of the program locks them out of the panel.
 */
import { perStore } from '../store/per-store.js';
import type { Store } from '../store/store.js';
import { tableMemo } from '../store/table-memo.js';
import { endAppPanelSignIns, endPanelSignInsOf } from './panel-sign-ins.js';
import { randomString } from './random.js';
import type { AppRow, ApiVersion, SessionRow } from './rows.js';
import { clockNote, shownDuration, shownSession } from './shown.js';

/** 10 alphanumerics, as the real 1.2 server and its `sessions.id varchar(10)`: ~59 bits. */
export const SESSION_ID_LENGTH = 10;

export interface NewSession {
  /** The client's init `enckey` (sanitized, ≤ 35 characters), if it sent one. */
  readonly enckey?: string | undefined;
  readonly ip: string;
  readonly api: ApiVersion;
}

/**
 * Expired sessions are purged at most once a PURGE_EVERY_SECONDS of domain time per app, by the
 * `init` that comes after that: purging at every init was a statement of its own on the busiest
 * write, and an expired session is never live whether its row is there or not (every read asks
 * `expiry > now`). When the domain clock goes back (`kactl sandbox advance -…`), the next init purges.
 */
export const PURGE_EVERY_SECONDS = 60;
const lastPurge = perStore((): Map<number, number> => new Map());

/**
 * Opens a new, unvalidated session of `app` expiring `app.sessionLength` seconds from `now`.
 * Expired sessions of the app are purged in the same transaction, now and then (above). Without
 * a purge the session is one INSERT, atomic by itself: no transaction is opened around it (a
 * BEGIN and a COMMIT cost about what the INSERT does).
 */
export function createSession(store: Store, app: AppRow, input: NewSession, now: number): SessionRow {
  const purged = lastPurge(store);
  const last = purged.get(app.id);
  if (last !== undefined && now - last < PURGE_EVERY_SECONDS && now >= last) return insertSession(store, app, input, now);
  return store.tx(() => {
    store.run('DELETE FROM sessions WHERE appId = ? AND expiry <= ?', app.id, now);
    purged.set(app.id, now);
    return insertSession(store, app, input, now);
  });
}

function insertSession(store: Store, app: AppRow, input: NewSession, now: number): SessionRow {
  const expiry = now + app.sessionLength;
  const enckey = input.enckey ?? null;
  for (;;) {
    const id = randomString(SESSION_ID_LENGTH);
    const inserted = store.run(
      'INSERT OR IGNORE INTO sessions (id, appId, credential, validated, expiry, createdAt, enckey, ip, api) VALUES (?, ?, NULL, 0, ?, ?, ?, ?, ?)',
      id, app.id, expiry, now, enckey, input.ip, input.api,
    );
    // A clash of two random 10-character ids is astronomically rare; draw again if it happens.
    // The row is what was just written: it is not read back.
    if (inserted.changes === 1) return { id, appId: app.id, credential: null, validated: 0, expiry, createdAt: now, enckey, ip: input.ip, api: input.api };
  }
}

/**
 * The app's session `id` if it exists and has not expired (`expiry > now`). Most client requests
 * ask, and a whole row read costs a share of the request: rows found are kept until a session
 * row is changed or deleted (a new session changes no row found before: the sessions stamp counts
 * no INSERT), as store/table-memo.ts keeps them. Rows are never changed in place, so a kept one
 * can be handed out again.
 */
export function findLiveSession(store: Store, appId: number, id: string, now: number): SessionRow | undefined {
  const kept = keptSessions(store);
  let row = kept?.get(id);
  if (row === undefined) {
    row = store.get<SessionRow>('SELECT * FROM sessions WHERE id = ?', id);
    if (row === undefined) return undefined;
    kept?.set(id, row);
  }
  return row.appId === appId && row.expiry > now ? row : undefined;
}

const keptSessions = tableMemo<SessionRow>('sessions', 10_000);

/** Why `id` names no live session of the app, in plain words (the request inspector records it). */
export function whySessionMissing(store: Store, appId: number, id: string | undefined, now: number): string {
  if (id === undefined) return 'no sessionid was sent';
  const row = store.get<{ expiry: number; appId: number }>('SELECT expiry, appId FROM sessions WHERE id = ?', id);
  if (row === undefined) return `session ${shownSession(id)} does not exist (never made by init, ended by logout or a seller action, or purged after it expired)`;
  if (row.appId !== appId) return `session ${shownSession(id)} belongs to another app`;
  return `session ${shownSession(id)} expired ${shownDuration(now - row.expiry)} ago${clockNote(store)}`;
}

/** Marks the session validated for `credential` (a username; a license user's key). */
export function validateSession(store: Store, sessionId: string, credential: string): void {
  store.run('UPDATE sessions SET validated = 1, credential = ? WHERE id = ?', credential, sessionId);
}

/** Ends one session of the app. Returns whether it existed. */
export function deleteSession(store: Store, appId: number, id: string): boolean {
  return store.run('DELETE FROM sessions WHERE id = ? AND appId = ?', id, appId).changes > 0;
}

/** Ends every session of the app, and every customer panel sign-in. Returns how many client sessions there were. */
export function deleteAllSessions(store: Store, appId: number): number {
  endAppPanelSignIns(store, appId);
  return store.run('DELETE FROM sessions WHERE appId = ?', appId).changes;
}

/**
 * Ends every session logged in as `credential` (a username, or a license user's key), and the
 * panel sign-ins of the user of that name: a password change or reset, `resetpw`, `pauseuser`, a
 * ban, a rename, a deletion. Call it while the user still has that name (before deleting them).
 * Returns how many client sessions there were.
 */
export function deleteSessionsOf(store: Store, appId: number, credential: string): number {
  const user = store.get<{ id: number }>('SELECT id FROM users WHERE appId = ? AND username = ?', appId, credential);
  if (user !== undefined) endPanelSignInsOf(store, appId, user.id);
  return store.run('DELETE FROM sessions WHERE appId = ? AND credential = ?', appId, credential).changes;
}

/** The app's live sessions, oldest first. */
export function listLiveSessions(store: Store, appId: number, now: number): SessionRow[] {
  return store.all<SessionRow>('SELECT * FROM sessions WHERE appId = ? AND expiry > ? ORDER BY createdAt, id', appId, now);
}

/** Distinct credentials of validated live sessions (`fetchOnline`), in order of first login. */
export function onlineCredentials(store: Store, appId: number, now: number): string[] {
  return store
    .all<{ credential: string }>(
      'SELECT credential FROM sessions WHERE appId = ? AND validated = 1 AND expiry > ? AND credential IS NOT NULL GROUP BY credential ORDER BY MIN(createdAt), credential',
      appId, now,
    )
    .map((row) => row.credential);
}
