/** Migration v8: an older store's request log gains `fault`, null for the records already there. */
import { describe, expect, it } from 'vitest';
import { versionTwoStore } from './support/old-store.js';
import { SCHEMA_VERSION } from '../../src/server/store/migrations.js';
import { openStore } from '../../src/server/store/store.js';

describe('schema v8: the fault column of the request log', () => {
  it('is added to an older store', () => {
    const { file, raw } = versionTwoStore();
    raw.close();
    const store = openStore(file);
    try {
      expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      const columns = store.all<{ name: string }>('PRAGMA table_info(request_log)').map((column) => column.name);
      expect(columns).toContain('fault');
    } finally {
      store.close();
    }
  });
});
