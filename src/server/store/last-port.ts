/**
 * The port a store's sandbox last listened on, kept in the store's `meta` table so it lives and
 * goes with the store: a sandbox restarted on the same data file without `--port` takes it again
 * when it is free, and a program under test keeps its URL. An in-memory store is new at every
 * start, so it never has one.
 */
import { getMeta, setMeta } from './identity.js';
import type { Store } from './store.js';

const LAST_PORT = 'lastPort';

/** The port recorded by the last start on this store, if any (a damaged value counts as none). */
export function readLastPort(store: Store): number | undefined {
  const raw = getMeta(store, LAST_PORT);
  const port = raw === undefined ? NaN : Number(raw);
  return Number.isInteger(port) && port > 0 && port <= 65_535 ? port : undefined;
}

export function recordLastPort(store: Store, port: number): void {
  setMeta(store, LAST_PORT, String(port));
}
