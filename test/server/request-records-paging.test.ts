/**
 * The inspector reads its records a page at a time (records.ts), never through a better-sqlite3
 * iterator: the reads must still see every record, in order, across page boundaries.
 */
import { describe, expect, it, vi } from 'vitest';
import { openStore } from '../../src/server/store/store.js';
import { recordsNewestFirst, recordsOldestFirst, writeRecords, type RequestRecord } from '../../src/server/inspector/records.js';
import { retain, retainedCount } from '../../src/server/store/native-handles.js';

function record(id: number): RequestRecord {
  return {
    id,
    at: 1_700_000_000_000 + id,
    api: '1.3',
    type: 'init',
    method: 'POST',
    path: '/api/1.3/',
    ip: '127.0.0.1',
    user: null,
    params: { type: 'init' },
    status: 200,
    success: true,
    message: `answer ${id}`,
    reason: null,
    durationMs: 1,
    fault: null,
    delivery: 'answer',
    probe: false,
  };
}

describe('reading the request records', () => {
  const count = 1_037;
  const store = openStore(':memory:');
  writeRecords(store, Array.from({ length: count }, (_, i) => record(i + 1)), 10_000);

  it('reads every record newest first and oldest first, over several pages', () => {
    expect([...recordsNewestFirst(store)].map((r) => r.id)).toEqual(Array.from({ length: count }, (_, i) => count - i));
    expect([...recordsOldestFirst(store, 0)].map((r) => r.id)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    expect([...recordsOldestFirst(store, 400)].map((r) => r.id)[0]).toBe(401);
    expect([...recordsNewestFirst(store, 401)].length).toBe(400);
  });

  it('makes no better-sqlite3 object per read (no iterator, no statement), however many reads a follower makes', () => {
    expect([...recordsNewestFirst(store)]).toHaveLength(count);
    const statementMethods = Object.getPrototypeOf(retain(store.db.prepare('SELECT 1'))) as { iterate: () => unknown };
    const iterate = vi.spyOn(statementMethods, 'iterate');
    const before = retainedCount();
    for (let i = 0; i < 50; i++) {
      for (const r of recordsNewestFirst(store)) if (r.id < count - 300) break;
      for (const r of recordsOldestFirst(store, 0)) if (r.id > 300) break;
    }
    expect(iterate).not.toHaveBeenCalled();
    expect(retainedCount()).toBe(before);
    iterate.mockRestore();
  });
});
