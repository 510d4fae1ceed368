/**
 * Issue 9 item 9 (first part): team accounts belong to their app. Before schema v3 a username or
 * email used by one app's team was "already taken" for every other app of the store, which told
 * one app's seller what another app holds. Also: a store written at schema v2 is migrated with
 * its accounts kept.
 */
import { describe, expect, it } from 'vitest';
import { versionTwoStore } from '../support/old-store.js';
import { createAccount, findAppAccount, findSellerAccount } from '../../../src/server/domain/accounts.js';
import { createApp } from '../../../src/server/domain/apps.js';
import { openStore } from '../../../src/server/store/store.js';
import { SCHEMA_VERSION } from '../../../src/server/store/migrations.js';
import { startTestSandbox, type HttpResult, type TestSandbox } from '../../helpers/sandbox.js';

const OTHER_KEY = 'OtherSellerKey0123456789abcdefAB';
const NOW = 1_800_000_000;

/** A second app in the same store, owned by another seller. */
function otherApp(sb: TestSandbox): { id: number; seller: (type: string, params: Record<string, string>) => Promise<HttpResult> } {
  createAccount(sb.store, { username: 'other-seller', role: 'seller' }, NOW);
  const app = createApp(sb.store, { name: 'other-app', ownerid: 'OtherOwner', secret: 'b'.repeat(64), sellerKey: OTHER_KEY, owner: 'other-seller' }, NOW);
  return { id: app.id, seller: (type, params) => sb.request(`/api/seller/?${new URLSearchParams({ sellerkey: OTHER_KEY, type, ...params }).toString()}`) };
}

describe('team accounts per app', () => {
  it('the same username and email are free in another app, and each app sees and changes only its own', async () => {
    const sb = await startTestSandbox({ rateLimit: false });
    const other = otherApp(sb);
    const account = { role: 'Reseller', user: 'shop1', pass: 's3cret', email: 'shop1@example.com' };
    expect((await sb.seller('addAccount', account)).json).toMatchObject({ success: true });
    expect((await other.seller('addAccount', account)).json).toMatchObject({ success: true, message: 'Successfully added account!' });
    expect((await other.seller('addAccount', { ...account, email: 'new@example.com' })).json).toMatchObject({ success: false, message: 'Username already taken!' });
    expect((await other.seller('addAccount', { ...account, user: 'shop2' })).json).toMatchObject({ success: false, message: 'Email already taken!' });
    // Another app's seller name is not this app's business either.
    expect((await other.seller('addAccount', { ...account, user: 'sandbox-owner', email: 'x@example.com' })).json).toMatchObject({ success: true });

    expect((await other.seller('setbalance', { username: 'shop1', day: '5' })).json).toMatchObject({ success: true });
    expect(findAppAccount(sb.store, other.id, 'shop1')?.balance).toBe('5|0|0|0|0|0|0');
    expect(findAppAccount(sb.store, sb.app().id, 'shop1')?.balance).toBe('0|0|0|0|0|0|0');

    expect((await other.seller('deleteAccount', { user: 'shop1' })).json).toMatchObject({ success: true });
    expect(findAppAccount(sb.store, sb.app().id, 'shop1')).toBeDefined();
    expect(findSellerAccount(sb.store, 'sandbox-owner')).toMatchObject({ role: 'seller', appId: null });
  });
});

describe('schema v3 migration', () => {
  it('opens a v2 store with accounts, keeps every row, and scopes names to the app from then on', () => {
    const { file: data, raw } = versionTwoStore();
    raw.prepare("INSERT INTO accounts (id, username, role, createdAt) VALUES (1, 'owner', 'seller', 10)").run();
    raw.prepare("INSERT INTO apps (id, name, ownerid, secret, sellerKey, owner, ver, createdAt) VALUES (1, 'a', 'OwnerIdAAA', 's1', 'k1', 'owner', '1.0', 10), (2, 'b', 'OwnerIdBBB', 's2', 'k2', 'owner', '1.0', 10)").run();
    raw
      .prepare("INSERT INTO accounts (id, username, emailHash, passwordHash, role, appId, owner, balance, keylevels, perms, createdAt) VALUES (7, 'shop1', 'e1', 'h1', 'Reseller', 1, 'owner', '1|2|3|4|5|6|7', '1|2', 2047, 20), (9, 'mgr', NULL, 'h2', 'Manager', 2, 'owner', '0|0|0|0|0|0|0', 'N/A', 5, 30)")
      .run();
    const before = raw.prepare('SELECT * FROM accounts ORDER BY id').all();
    raw.close();

    const store = openStore(data);
    try {
      // Migrated to v3 and on to whatever this build writes.
      expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(store.all('SELECT * FROM accounts ORDER BY id')).toEqual(before);
      // The deleted-app cascade still holds on the rebuilt table.
      expect(store.db.pragma('foreign_key_check')).toEqual([]);
      expect(createAccount(store, { username: 'shop1', email: 'x@example.com', role: 'Reseller', appId: 2, owner: 'owner' }, NOW)).toMatchObject({ appId: 2 });
      expect(createAccount(store, { username: 'shop1', role: 'Manager', appId: 1, owner: 'owner' }, NOW)).toBe('usernametaken');
      expect(() => store.run("INSERT INTO accounts (username, role, appId, createdAt) VALUES ('mgr', 'Manager', 2, 1)")).toThrow(/UNIQUE/);
      expect(() => store.run("INSERT INTO accounts (username, role, createdAt) VALUES ('owner', 'seller', 1)")).toThrow(/UNIQUE/);
      store.run('DELETE FROM apps WHERE id = 2');
      expect(store.all<{ id: number }>('SELECT id FROM accounts ORDER BY id').map((r) => r.id)).toEqual([1, 7]);
    } finally {
      store.close();
    }
  });
});
