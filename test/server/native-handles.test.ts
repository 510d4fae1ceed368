/**
 * Every better-sqlite3 object a store creates stays reachable after the store is closed, so the
 * garbage collector never destroys one (on Node ≥ 24.19 that aborts the process with
 * better-sqlite3 12: see src/server/store/native-handles.ts). The check is on the mechanism:
 * whether a given idle-time collection happens is up to V8.
 */
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/server/store/store.js';
import { isRetained, retainedCount } from '../../src/server/store/native-handles.js';

describe('native handles of the store', () => {
  it('keeps the database and every statement it prepared, pragmas included, after close', () => {
    const before = retainedCount();
    const store = openStore(':memory:');
    store.get('SELECT 1 AS one');
    store.all('SELECT name FROM sqlite_master');
    store.dataStamp();
    const { db } = store;
    store.close();
    expect(isRetained(db)).toBe(true);
    // The database, 3 pragmas, the migrations' version reads and writes, the stamp, 2 queries.
    expect(retainedCount() - before).toBeGreaterThanOrEqual(8);
  });

  it('prepares a SQL text once per store, so a long-running sandbox keeps a fixed set', () => {
    const store = openStore(':memory:');
    store.get('SELECT 1 AS one');
    const after = retainedCount();
    for (let i = 0; i < 100; i++) store.get('SELECT 1 AS one');
    expect(retainedCount()).toBe(after);
    store.close();
  });
});
