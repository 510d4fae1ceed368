/**
 * Keeps every better-sqlite3 object this process creates (databases, statements) reachable
 * until the process ends, so that none is ever garbage-collected.
 *
 * Why: from Node 24.19 the destructor of a native `node::ObjectWrap` removes an environment
 * cleanup hook, which asserts that a JavaScript context is entered. better-sqlite3 12 builds its
 * Database and Statement objects on ObjectWrap, and an idle-time garbage collection runs outside
 * any context: collecting one of them aborts the whole process (SIGABRT, "Assertion failed:
 * (env) != nullptr"). better-sqlite3 13 moved to Node-API and fixed it, but needs Node 22, and
 * kactl supports Node 20. An object that is never collected is never destroyed by the GC; at
 * exit Node frees it through the cleanup hook instead, which is safe.
 *
 * The cost is small and bounded: a store prepares a fixed set of SQL texts (store.ts caches them
 * by text), and a closed database or a finalized statement holds almost no memory.
 */
import type Database from 'better-sqlite3';

const retained: object[] = [];

/** Returns `handle`, kept alive for the life of the process. */
export function retain<T extends object>(handle: T): T {
  retained.push(handle);
  return handle;
}

/**
 * `PRAGMA source`, through a kept statement (better-sqlite3's own `db.pragma()` prepares one
 * that is left to the collector). The first column of the first row, or undefined when the
 * pragma sets something and returns nothing.
 */
export function pragma(db: Database.Database, source: string): unknown {
  const statement = retain(db.prepare(`PRAGMA ${source}`));
  return statement.reader ? statement.pluck().get() : (statement.run(), undefined);
}

/** How many objects are kept (tests). */
export function retainedCount(): number {
  return retained.length;
}

/** Whether `handle` is kept (tests). */
export function isRetained(handle: object): boolean {
  return retained.includes(handle);
}
