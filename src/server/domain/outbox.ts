/**
 * The outbox: mail the real service would send (magic links, one-time codes, password resets).
 * `GET /sandbox/outbox` lists it; nothing is ever really sent.
 */
import type { OutboxMessage } from '../../api/sandbox-admin.js';
import type { Store } from '../store/store.js';
import type { OutboxRow } from './rows.js';

export interface NewOutboxMessage {
  readonly appId?: number | null;
  /** What it is: `magic-link`, `email-code`, `password-reset`, ... */
  readonly kind: string;
  /** The address it is for, as the client typed it. */
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  /** The link the mail asks to open (magic link, password reset), if any. */
  readonly link?: string | null;
  /** Machine-readable extras for scripts and tests (`{ code, token }`). */
  readonly data?: Readonly<Record<string, unknown>>;
}

/** How the outbox shows one message: as the admin route's client declares it (src/api/sandbox-admin.ts). */
export type { OutboxMessage };

/** Adds a message. Returns its id (increasing). */
export function addOutboxMessage(store: Store, message: NewOutboxMessage, now: number): number {
  return store.run(
    'INSERT INTO outbox (appId, kind, recipient, subject, text, link, data, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    message.appId ?? null, message.kind, message.to, message.subject, message.text, message.link ?? null, JSON.stringify(message.data ?? {}), now,
  ).lastInsertRowid;
}

export interface OutboxQuery {
  /** Only messages with an id greater than this. */
  readonly after?: number | undefined;
  /** Only messages to this address (case-insensitive). */
  readonly to?: string | undefined;
  readonly kind?: string | undefined;
}

/** Messages, oldest first. */
export function listOutbox(store: Store, query: OutboxQuery = {}): OutboxMessage[] {
  const rows = store.all<OutboxRow>(
    `SELECT * FROM outbox WHERE id > ? AND (? IS NULL OR lower(recipient) = lower(?)) AND (? IS NULL OR kind = ?) ORDER BY id`,
    query.after ?? 0, query.to ?? null, query.to ?? null, query.kind ?? null, query.kind ?? null,
  );
  return rows.map((row) => ({
    id: row.id,
    createdAt: row.createdAt,
    kind: row.kind,
    to: row.recipient,
    subject: row.subject,
    text: row.text,
    link: row.link,
    data: JSON.parse(row.data) as Record<string, unknown>,
    appId: row.appId,
  }));
}
