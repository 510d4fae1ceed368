/**
 * Migration v4: a store whose app kept one set of product ids for every shop (version 2) opens
 * with those ids copied into each shop's own columns, and the shared columns gone.
 */
import { describe, expect, it } from 'vitest';
import { versionTwoStore } from './support/old-store.js';
import { SCHEMA_VERSION } from '../../src/server/store/migrations.js';
import { openStore } from '../../src/server/store/store.js';

describe('schema v4: product ids per shop', () => {
  it('copies the shared product ids of a version 2 store into each shop and drops the shared columns', () => {
    const { file: data, raw } = versionTwoStore();
    raw.prepare('INSERT INTO apps (name, ownerid, secret, sellerKey, owner, ver, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run('old', 'abcdefghij', 's'.repeat(64), 'k'.repeat(32), 'owner', '1.0', 1);
    raw.prepare("UPDATE apps SET dayproduct = 'p-day', lifetimeproduct = 'p-life'").run();
    raw.close();

    const store = openStore(data);
    try {
      expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      const app = store.get<Record<string, unknown>>('SELECT * FROM apps WHERE name = ?', 'old')!;
      for (const shop of ['sellix', 'shoppy', 'sellapp']) {
        expect(app[`${shop}dayproduct`]).toBe('p-day');
        expect(app[`${shop}lifetimeproduct`]).toBe('p-life');
        expect(app[`${shop}weekproduct`]).toBeNull();
      }
      expect(Object.keys(app)).not.toContain('dayproduct');
    } finally {
      store.close();
    }
  });
});
