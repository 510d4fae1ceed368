/**
 * Resolving the seller API's app from `sellerkey`, with the real server's messages
 * (docs/protocol/seller-api.md §1.3). Both refusals are failures: in the hosted mode a wrong length
 * is 200 and an unknown key 404, as the real server answers them; in the spec-strict mode both are
 * 400 (docs/design.md, "HTTP status of a failure").
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { listApps } from '../domain/apps.js';
import type { AppRow } from '../domain/rows.js';
import { perStore } from '../store/per-store.js';
import type { Store } from '../store/store.js';
import { shownSecret } from '../domain/shown.js';
import { because, fail, failWithStatus } from './reply.js';
import type { Reply } from './types.js';

export const SELLER_KEY_LENGTH = 32;
export const SELLER_KEY_LENGTH_MESSAGE = 'Seller key should be 32 characters long. Copy it from https://keyauth.cc/app/?page=seller-settings';
export const SELLER_APP_NOT_FOUND_MESSAGE = 'No application found';

/** The refusal for a missing or wrong-length key (always JSON, even with `format=text`); else undefined. */
export function sellerKeyFormatError(sellerKey: string | undefined): Reply | undefined {
  if (sellerKey === undefined) return because(fail(SELLER_KEY_LENGTH_MESSAGE), 'no sellerkey was sent');
  if (sellerKey.length !== SELLER_KEY_LENGTH) return because(fail(SELLER_KEY_LENGTH_MESSAGE), `the sellerkey is ${sellerKey.length} characters; it must be ${SELLER_KEY_LENGTH}`);
  return undefined;
}

/** The seller key's app, or the failure answer for an invalid key. */
export function resolveSellerApp(store: Store, sellerKey: string | undefined): { app: AppRow } | { reply: Reply } {
  const malformed = sellerKeyFormatError(sellerKey);
  if (malformed) return { reply: malformed };
  const app = appWithSellerKey(store, sellerKey ?? '');
  if (app === undefined) return { reply: because(failWithStatus(404, SELLER_APP_NOT_FOUND_MESSAGE), `no app has the seller key ${shownSecret('sellerkey', sellerKey ?? '')}`) };
  return { app };
}

interface KeyedApp {
  readonly app: AppRow;
  readonly keyDigest: Buffer;
}

/**
 * Every app with its seller key's digest, as of `tableStamp('apps')`: every seller request needs
 * them, and reading the wide rows and hashing each key again cost a `fetchallkeys` about a
 * sixth of its time. A write to the apps table (a key reset, a new app, a ban) makes them again.
 */
const keyedAppsOf = perStore((): { stamp: string | undefined; apps: readonly KeyedApp[] } => ({ stamp: undefined, apps: [] }));

function keyedApps(store: Store): readonly KeyedApp[] {
  const kept = keyedAppsOf(store);
  const stamp = store.tableStamp('apps');
  if (kept.stamp !== stamp) {
    kept.apps = listApps(store).map((app) => ({ app, keyDigest: sha256(app.sellerKey) }));
    kept.stamp = stamp;
  }
  return kept.apps;
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * The app whose seller key is `sellerKey`, compared in constant time: every app's key is checked
 * (no early exit) through fixed-length digests, so the answer's timing says nothing about how
 * much of a guess was right. A sandbox holds a handful of apps, so the scan costs nothing.
 */
function appWithSellerKey(store: Store, sellerKey: string): AppRow | undefined {
  const wanted = sha256(sellerKey);
  let found: AppRow | undefined;
  for (const { app, keyDigest } of keyedApps(store)) {
    const same = timingSafeEqual(keyDigest, wanted);
    if (same && found === undefined) found = app;
  }
  return found;
}
