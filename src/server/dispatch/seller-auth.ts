/**
 * Resolving the seller API's app from `sellerkey`, with the real server's messages
 * (docs/protocol/seller-api.md §1.3). Both refusals are failures, so they go out as 400 (200 with
 * `failureStatus: 200`), as docs/design.md's status policy wants for an invalid seller key.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { listApps } from '../domain/apps.js';
import type { AppRow } from '../domain/rows.js';
import type { Store } from '../store/store.js';
import { fail } from './reply.js';
import type { Reply } from './types.js';

export const SELLER_KEY_LENGTH = 32;
export const SELLER_KEY_LENGTH_MESSAGE = 'Seller key should be 32 characters long. Copy it from https://keyauth.cc/app/?page=seller-settings';
export const SELLER_APP_NOT_FOUND_MESSAGE = 'No application found';

/** The refusal for a missing or wrong-length key (always JSON, even with `format=text`); else undefined. */
export function sellerKeyFormatError(sellerKey: string | undefined): Reply | undefined {
  if (sellerKey === undefined || sellerKey.length !== SELLER_KEY_LENGTH) return fail(SELLER_KEY_LENGTH_MESSAGE);
  return undefined;
}

/** The seller key's app, or the failure answer for an invalid key. */
export function resolveSellerApp(store: Store, sellerKey: string | undefined): { app: AppRow } | { reply: Reply } {
  const malformed = sellerKeyFormatError(sellerKey);
  if (malformed) return { reply: malformed };
  const app = appWithSellerKey(store, sellerKey ?? '');
  if (app === undefined) return { reply: fail(SELLER_APP_NOT_FOUND_MESSAGE) };
  return { app };
}

/**
 * The app whose seller key is `sellerKey`, compared in constant time: every app's key is checked
 * (no early exit) through fixed-length digests, so the answer's timing says nothing about how
 * much of a guess was right. A sandbox holds a handful of apps, so the scan costs nothing.
 */
function appWithSellerKey(store: Store, sellerKey: string): AppRow | undefined {
  const wanted = createHash('sha256').update(sellerKey).digest();
  let found: AppRow | undefined;
  for (const app of listApps(store)) {
    const same = timingSafeEqual(createHash('sha256').update(app.sellerKey).digest(), wanted);
    if (same && found === undefined) found = app;
  }
  return found;
}
