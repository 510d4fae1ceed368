/**
 * Magic links (interface spec §3, §5: single use, 15 minutes). `magicLinkSend` stores a random
 * token bound to the session that asked (and the HWID it sent); the mailed link opens a page on
 * the sandbox where the user approves (or refuses) the login; `magicLinkCheck` on that session
 * then logs the user in and spends the link.
 *
 * States: `pending` → `approved` (page) → `used` (check). A link past its expiry, superseded by
 * a newer link of the same session, or refused on the page is `expired`. (The store has no
 * separate "refused" state; a refusal reads as expired to the client, and the page says which.)
 */
import type { Store } from '../store/store.js';
import { randomHex } from './random.js';

/** Lifetime of a link, seconds. */
export const MAGIC_LINK_TTL = 15 * 60;

export type MagicLinkState = 'pending' | 'approved' | 'used' | 'expired';

export interface MagicLinkRow {
  /** 64 hex characters from the CSPRNG; the secret part of the link. */
  readonly token: string;
  readonly appId: number;
  readonly userId: number;
  readonly sessionId: string;
  readonly hwid: string | null;
  readonly state: MagicLinkState;
  readonly createdAt: number;
  readonly expiresAt: number;
}

export interface NewMagicLink {
  readonly appId: number;
  readonly userId: number;
  readonly sessionId: string;
  readonly hwid: string | undefined;
}

/** The path of a link's page on the sandbox. */
export function magicLinkPath(token: string): string {
  return `/sandbox/magic/${token}`;
}

/**
 * Stores a new pending link for the session and returns it. Earlier links of the same session
 * that were not used are expired: the session waits for the newest one only.
 */
export function createMagicLink(store: Store, input: NewMagicLink, now: number): MagicLinkRow {
  return store.tx(() => {
    store.run("UPDATE magic_links SET state = 'expired' WHERE sessionId = ? AND state IN ('pending', 'approved')", input.sessionId);
    const token = randomHex(32);
    store.run(
      "INSERT INTO magic_links (token, appId, userId, sessionId, hwid, state, createdAt, expiresAt) VALUES (?, ?, ?, ?, ?, 'pending', ?, ?)",
      token, input.appId, input.userId, input.sessionId, input.hwid ?? null, now, now + MAGIC_LINK_TTL,
    );
    const link = findMagicLink(store, token);
    if (link === undefined) throw new Error('Magic link vanished right after its insert');
    return link;
  });
}

export function findMagicLink(store: Store, token: string): MagicLinkRow | undefined {
  return store.get<MagicLinkRow>('SELECT * FROM magic_links WHERE token = ?', token);
}

/** The newest link sent for the session, if any. */
export function latestMagicLinkOfSession(store: Store, appId: number, sessionId: string): MagicLinkRow | undefined {
  return store.get<MagicLinkRow>('SELECT * FROM magic_links WHERE appId = ? AND sessionId = ? ORDER BY createdAt DESC, rowid DESC LIMIT 1', appId, sessionId);
}

/** The state as of `now`: an unused link past its expiry is expired whatever the row says. */
export function magicLinkState(link: MagicLinkRow, now: number): MagicLinkState {
  if ((link.state === 'pending' || link.state === 'approved') && link.expiresAt <= now) return 'expired';
  return link.state;
}

export type MagicLinkDecision = 'approve' | 'deny';

/** What the page reports after a decision. */
export type MagicLinkDecisionResult = 'approved' | 'denied' | 'already-approved' | 'used' | 'expired' | 'notfound';

/**
 * Approves or refuses a pending link (the page's buttons). Only a pending, unexpired link
 * changes; anything else reports why not.
 */
export function decideMagicLink(store: Store, token: string, decision: MagicLinkDecision, now: number): MagicLinkDecisionResult {
  return store.tx(() => {
    const link = findMagicLink(store, token);
    if (link === undefined) return 'notfound';
    const state = magicLinkState(link, now);
    if (state === 'used' || state === 'expired') return state;
    if (state === 'approved') return decision === 'approve' ? 'already-approved' : refuse(store, link, now);
    if (decision === 'deny') return refuse(store, link, now);
    store.run("UPDATE magic_links SET state = 'approved' WHERE token = ?", token);
    return 'approved';
  });
}

function refuse(store: Store, link: MagicLinkRow, now: number): 'denied' {
  store.run("UPDATE magic_links SET state = 'expired', expiresAt = MIN(expiresAt, ?) WHERE token = ?", now, link.token);
  return 'denied';
}

/** Spends an approved, unexpired link. False when it was not (or no longer) spendable. */
export function consumeMagicLink(store: Store, token: string, now: number): boolean {
  return store.run("UPDATE magic_links SET state = 'used' WHERE token = ? AND state = 'approved' AND expiresAt > ?", token, now).changes === 1;
}
