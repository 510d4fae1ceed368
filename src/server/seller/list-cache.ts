/**
 * Seller list answers kept encoded between requests. `fetchallkeys` on an app with thousands of
 * keys costs milliseconds to read and encode (one object per row, then the JSON escaping), and
 * sellers poll it; while nothing in the store changes the answer cannot change either, so the
 * encoded list is reused until `store.dataStamp()` moves (any write, in this process or another).
 */
import type { HandlerContext, Reply } from '../dispatch/types.js';
import { EncodedJson, asciiJson } from '../http/json-encode.js';
import { listReply } from './answers.js';
import { perStore } from '../store/per-store.js';

interface Entry {
  readonly stamp: string;
  /** What the rows were built with besides the store: the app's name (a column of fetchallkeys). */
  readonly appName: string;
  readonly count: number;
  readonly json: EncodedJson;
}

const entriesOf = perStore(() => new Map<string, Entry>());

/** `listReply` for rows that depend only on the store and `ctx.app`; `build` runs when they may have changed. */
export function cachedListReply(ctx: HandlerContext, message: string, build: () => readonly object[]): Reply {
  const stamp = ctx.store.dataStamp();
  const entries = entriesOf(ctx.store);
  const key = `${ctx.type}\u0000${ctx.app.id}`;
  let entry = entries.get(key);
  if (entry === undefined || entry.stamp !== stamp || entry.appName !== ctx.app.name) {
    const rows = build();
    entry = { stamp, appName: ctx.app.name, count: rows.length, json: new EncodedJson(asciiJson(rows)) };
    entries.set(key, entry);
  }
  return listReply(ctx, message, entry.count === 0 ? [] : entry.json);
}
