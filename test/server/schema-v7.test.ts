/**
 * Migration v7: `add`'s daily quota counts the keys of the last 24 hours through an index on
 * (appId, gendate) instead of reading every license row of the app (seller/key-quota.ts).
 */
import { describe, expect, it } from 'vitest';
import { versionTwoStore } from './support/old-store.js';
import { SCHEMA_VERSION } from '../../src/server/store/migrations.js';
import { openStore } from '../../src/server/store/store.js';
import { KEYS_IN_WINDOW_SQL } from '../../src/server/seller/key-quota.js';

describe('schema v7: the licenses of a window are counted from an index', () => {
  it('adds the index to an older store, and the quota count reads only the index', () => {
    const { file, raw } = versionTwoStore();
    raw.close();
    const store = openStore(file);
    try {
      expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      const plan = store.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${KEYS_IN_WINDOW_SQL}`, 1, 0).map((row) => row.detail).join('; ');
      expect(plan).toContain('COVERING INDEX licenses_gendate');
    } finally {
      store.close();
    }
  });
});
