/**
 * Webhook records: hidden base URLs the client `webhook` call appends its parameters to.
 * The outbound request itself belongs to the client handler.
 */
import type { Store } from '../store/store.js';
import { randomString } from './random.js';
import type { WebhookRow } from './rows.js';

export const WEBID_LENGTH = 10;

export interface NewWebhook {
  readonly baselink: string;
  /** Custom id; default 10 random alphanumerics. */
  readonly webid?: string | undefined;
  /** Default `KeyAuth`. */
  readonly useragent?: string | undefined;
  /** Only validated sessions may call it. Default true. */
  readonly authed?: boolean | undefined;
}

/** Creates a webhook; returns it, or undefined when the custom `webid` is taken. */
export function createWebhook(store: Store, appId: number, input: NewWebhook): WebhookRow | undefined {
  return store.tx(() => {
    let webid = input.webid;
    if (webid === undefined) {
      do webid = randomString(WEBID_LENGTH);
      while (findWebhook(store, appId, webid) !== undefined);
    } else if (findWebhook(store, appId, webid) !== undefined) {
      return undefined;
    }
    store.run('INSERT INTO webhooks (appId, webid, baselink, useragent, authed) VALUES (?, ?, ?, ?, ?)', appId, webid, input.baselink, input.useragent ?? 'KeyAuth', input.authed === false ? 0 : 1);
    return findWebhook(store, appId, webid);
  });
}

export function findWebhook(store: Store, appId: number, webid: string): WebhookRow | undefined {
  return store.get<WebhookRow>('SELECT * FROM webhooks WHERE appId = ? AND webid = ?', appId, webid);
}

export function listWebhooks(store: Store, appId: number): WebhookRow[] {
  return store.all<WebhookRow>('SELECT * FROM webhooks WHERE appId = ? ORDER BY id', appId);
}

export function deleteWebhook(store: Store, appId: number, webid: string): boolean {
  return store.run('DELETE FROM webhooks WHERE appId = ? AND webid = ?', appId, webid).changes > 0;
}

export function deleteAllWebhooks(store: Store, appId: number): number {
  return store.run('DELETE FROM webhooks WHERE appId = ?', appId).changes;
}
