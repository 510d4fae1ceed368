/** upgrade (docs/protocol/client-api.md §4.6): no password, no login, first definition at the level, no `all` hole. */
import { afterEach, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '../helpers/sandbox.js';
import { upgradeUser } from '../../src/server/domain/upgrade.js';
import { createUser } from '../../src/server/domain/users.js';
import { generateLicenses, findLicense, banLicense } from '../../src/server/domain/licenses.js';
import { createSubscription } from '../../src/server/domain/subscriptions.js';
import { insertUserSub, listUserSubs } from '../../src/server/domain/user-subs.js';

const NOW = 1_800_000_000;
let t: TestStore;

afterEach(() => t?.store.close());

function key(level = '1', expires = 600): string {
  const made = generateLicenses(t.store, t.app.id, { level, expires }, NOW);
  if (!made.ok) throw new Error(made.message);
  return made.value[0]!;
}

function user(name: string) {
  return createUser(t.store, t.app.id, { username: name, passwordHash: null }, NOW);
}

describe('upgradeUser', () => {
  it('refuses in order: key unknown, used, banned, no subscription at its level, user unknown, no duration', () => {
    t = openTestStore(NOW);
    user('erin');
    const up = (username: string | undefined, k: string | undefined) => {
      const r = upgradeUser(t.store, t.app, { username, key: k }, NOW);
      return r.ok ? 'ok' : r.message;
    };
    const used = key();
    expect(up('erin', used)).toBe('ok');
    const banned = key();
    banLicense(t.store, t.app.id, banned, 'fraud');
    expect([
      up('nobody', undefined),
      up('nobody', 'NOPE'),
      up('nobody', used),
      up('nobody', banned),
      up('nobody', key('7')),
      up('nobody', key()),
      up(undefined, key()),
      up('erin', key('1', 0)),
    ]).toEqual([
      'Invalid license key',
      'Invalid license key',
      'License key has already been used',
      'Your license is banned',
      'There is no subscription created for your key level. Contact application developer.',
      'Invalid username',
      'Invalid username',
      'Unhandled Error! Contact us if you need help',
    ]);
  });

  it('extends an active subscription of the first definition at the level', () => {
    t = openTestStore(NOW);
    createSubscription(t.store, t.app.id, 'gold', '2');
    createSubscription(t.store, t.app.id, 'platinum', '2');
    const u = user('erin');
    insertUserSub(t.store, { appId: t.app.id, userId: u.id, subscription: 'gold', expiry: NOW + 100, key: 'OLD' });
    const k = key('2', 1000);
    expect(upgradeUser(t.store, t.app, { username: 'erin', key: k }, NOW)).toMatchObject({ ok: true, value: { message: 'Upgraded successfully', result: 'extended' } });
    expect(listUserSubs(t.store, u.id).map((s) => [s.subscription, s.expiry, s.key])).toEqual([['gold', NOW + 1100, 'OLD']]);
    expect(findLicense(t.store, t.app.id, k)).toMatchObject({ status: 'Used', usedby: 'erin', usedon: NOW });
  });

  it('grants a new row (no key recorded) when the subscription is expired or missing', () => {
    t = openTestStore(NOW);
    const u = user('erin');
    insertUserSub(t.store, { appId: t.app.id, userId: u.id, subscription: 'default', expiry: NOW - 1 });
    expect(upgradeUser(t.store, t.app, { username: 'erin', key: key('1', 500) }, NOW)).toMatchObject({ ok: true, value: { result: 'granted' } });
    expect(listUserSubs(t.store, u.id).map((s) => [s.expiry, s.key])).toEqual([
      [NOW - 1, null],
      [NOW + 500, null],
    ]);
  });

  it('has no username=all: it is just a name, and nobody else is touched', () => {
    t = openTestStore(NOW);
    const a = user('alice');
    const b = user('bob');
    insertUserSub(t.store, { appId: t.app.id, userId: a.id, subscription: 'default', expiry: NOW + 10 });
    insertUserSub(t.store, { appId: t.app.id, userId: b.id, subscription: 'default', expiry: NOW + 10 });
    const k = key('1', 3600);
    expect(upgradeUser(t.store, t.app, { username: 'all', key: k }, NOW)).toMatchObject({ ok: false, message: 'Invalid username' });
    expect(t.store.all<{ expiry: number }>('SELECT expiry FROM user_subs').map((r) => r.expiry)).toEqual([NOW + 10, NOW + 10]);
    expect(findLicense(t.store, t.app.id, k)!.status).toBe('Not Used');
  });

  it('redeems a key once under concurrent calls', async () => {
    t = openTestStore(NOW);
    const u = user('erin');
    const k = key('1', 100);
    const results = await Promise.all(Array.from({ length: 20 }, async () => upgradeUser(t.store, t.app, { username: 'erin', key: k }, NOW)));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(listUserSubs(t.store, u.id).map((s) => s.expiry)).toEqual([NOW + 100]);
  });
});
