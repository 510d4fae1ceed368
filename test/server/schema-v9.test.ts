/** Migration v9: an older store's request log gains `delivery` and `probe`, null for the records already there. */
import { describe, expect, it } from 'vitest';
import { versionTwoStore } from './support/old-store.js';
import { SCHEMA_VERSION } from '../../src/server/store/migrations.js';
import { openStore } from '../../src/server/store/store.js';

describe('schema v9: what the client saw, in the request log', () => {
  it('adds delivery and probe to an older store', () => {
    const { file, raw } = versionTwoStore();
    raw.close();
    const store = openStore(file);
    try {
      expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      const columns = store.all<{ name: string }>('PRAGMA table_info(request_log)').map((column) => column.name);
      expect(columns).toEqual(expect.arrayContaining(['fault', 'delivery', 'probe']));
    } finally {
      store.close();
    }
  });
});
