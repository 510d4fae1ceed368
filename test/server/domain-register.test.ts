/**
 * register / license at the domain level (docs/protocol/client-api.md §4.4, §4.5), including the rule that
 * concurrent redemptions of one key create exactly one user.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '../helpers/sandbox.js';
import { generateLicenses, findLicense, banLicense } from '../../src/server/domain/licenses.js';
import { registerWithKey, licenseLogin } from '../../src/server/domain/register.js';
import { createSubscription } from '../../src/server/domain/subscriptions.js';
import { addBlacklist } from '../../src/server/domain/blacklists.js';
import { findUser, hashEmail } from '../../src/server/domain/users.js';
import { listUserSubs } from '../../src/server/domain/user-subs.js';
import { findLiveSession } from '../../src/server/domain/sessions.js';
import { getApp, updateAppSettings } from '../../src/server/domain/apps.js';

const NOW = 1_800_000_000;
const HWID = 'S-1-5-21-1111111111-2222222222-3333333333-1001';
let t: TestStore;

afterEach(() => t?.store.close());

function key(level = '1', expires = 86_400): string {
  const made = generateLicenses(t.store, t.app.id, { level, expires }, NOW);
  if (!made.ok) throw new Error(made.message);
  return made.value[0]!;
}

describe('registerWithKey', () => {
  it('creates the user, uses the key, grants one sub per definition at its level, validates the session', async () => {
    t = openTestStore(NOW);
    createSubscription(t.store, t.app.id, 'premium', '1');
    const k = key('1', 3600);
    const session = t.session(NOW);
    const result = await registerWithKey(t.store, t.app, session, { username: 'alice', pass: 'pw', key: k, email: 'Alice@Example.com', hwid: HWID, ip: '203.0.113.5' }, NOW);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.message).toBe('Logged in!');
    expect(result.value.info).toEqual({
      username: 'alice',
      subscriptions: [
        { subscription: 'default', key: k, expiry: String(NOW + 3600), timeleft: 3600 },
        { subscription: 'premium', key: k, expiry: String(NOW + 3600), timeleft: 3600 },
      ],
      ip: '203.0.113.5',
      hwid: HWID,
      createdate: String(NOW),
      lastlogin: String(NOW),
    });
    const user = findUser(t.store, t.app.id, 'alice')!;
    expect(user.emailHash).toBe(hashEmail('alice@example.com'));
    expect(user.passwordHash).toMatch(/^scrypt\$/);
    expect(user.owner).toBe('SellerAPI');
    expect(findLicense(t.store, t.app.id, k)).toMatchObject({ status: 'Used', usedby: 'alice', usedon: NOW });
    expect(findLiveSession(t.store, t.app.id, session.id, NOW)).toMatchObject({ validated: 1, credential: 'alice' });
  });

  it('runs the checks in the §4.4 order', async () => {
    t = openTestStore(NOW);
    const s = t.session(NOW);
    const ip = '203.0.113.5';
    const reg = (input: Partial<Parameters<typeof registerWithKey>[3]>) =>
      registerWithKey(t.store, getApp(t.store, t.app.id), s, { username: 'bob', pass: 'pw', key: 'nokey', ip, ...input }, NOW);
    const message = async (input: Partial<Parameters<typeof registerWithKey>[3]>) => {
      const r = await reg(input);
      return r.ok ? 'ok' : r.message;
    };
    expect(await message({ username: 'u'.repeat(71), key: 'k'.repeat(71) })).toBe('Username must be shorter than 70 characters');
    expect(await message({ key: 'k'.repeat(71) })).toBe('Key must be shorter than 70 characters');
    updateAppSettings(t.store, t.app.id, { minUsernameLength: 4 });
    expect(await message({ username: 'bob' })).toBe('Username too short, try longer one.');
    updateAppSettings(t.store, t.app.id, { minUsernameLength: 1 });
    expect(await message({ pass: undefined })).toBe('No password provided');
    const used = key();
    expect((await reg({ username: 'taken', key: used })).ok).toBe(true);
    expect(await message({ username: 'taken' })).toBe('Username already taken, choose a different one');
    expect(await message({})).toBe('Invalid license key');
    expect(await message({ key: used })).toBe('License key has already been used');
    const banned = key();
    banLicense(t.store, t.app.id, banned, 'chargeback');
    expect(await message({ key: banned })).toBe('Your license is banned');
    const fresh = key();
    addBlacklist(t.store, t.app.id, 'ip', ip);
    expect(await message({ key: fresh })).toBe("You've been blacklisted from our application");
    const level9 = key('9');
    expect(await message({ key: level9, ip: '198.51.100.1' })).toBe('There is no subscription created for your key level. Contact application developer.');
    expect(await message({ key: fresh, ip: '198.51.100.1' })).toBe('ok');
  });

  it('20 simultaneous registers with one key create exactly one user', async () => {
    t = openTestStore(NOW);
    const k = key();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => registerWithKey(t.store, t.app, t.session(NOW), { username: `racer${i}`, pass: 'pw', key: k, ip: '203.0.113.9' }, NOW)),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const failures = results.filter((r) => !r.ok).map((r) => (r.ok ? '' : r.message));
    expect(new Set(failures)).toEqual(new Set(['License key has already been used']));
    expect(t.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM users')!.n).toBe(1);
    expect(t.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM user_subs')!.n).toBe(1);
    const winner = results.findIndex((r) => r.ok);
    expect(findLicense(t.store, t.app.id, k)!.usedby).toBe(`racer${winner}`);
  });
});

describe('licenseLogin', () => {
  it('registers a user named after the key on first use, logs in after', async () => {
    t = openTestStore(NOW);
    const k = key('1', 7200);
    const first = await licenseLogin(t.store, t.app, t.session(NOW), { key: k, hwid: HWID, code: undefined, ip: '203.0.113.5' }, NOW);
    expect(first.ok && first.value.info.subscriptions).toEqual([{ subscription: 'default', key: k, expiry: String(NOW + 7200), timeleft: 7200 }]);
    const later = await licenseLogin(t.store, t.app, t.session(NOW + 10), { key: k, hwid: HWID, code: undefined, ip: '203.0.113.5' }, NOW + 10);
    expect(later.ok).toBe(true);
    if (!later.ok) return;
    expect(later.value.info.username).toBe(k);
    expect(later.value.info.subscriptions).toEqual([{ subscription: 'default', key: k, expiry: String(NOW + 7200), timeleft: 7190, level: '1' }]);
    expect(later.value.info.hwid).toBe(HWID);
  });

  it('applies the HWID rules and refuses a banned key on both paths', async () => {
    t = openTestStore(NOW);
    const k = key();
    const login = (hwid: string | undefined, at = NOW) => licenseLogin(t.store, t.app, t.session(at), { key: k, hwid, code: undefined, ip: '203.0.113.5' }, at);
    expect(await login(undefined)).toMatchObject({ ok: false, message: 'Force HWID is enabled, disable in app settings if you want to use blank HWIDs' });
    expect(await login('short')).toMatchObject({ ok: false, message: 'HWID must be 20 or more characters, change this in app settings.' });
    expect((await login(HWID)).ok).toBe(true);
    banLicense(t.store, t.app.id, k, 'refund');
    expect(await login(HWID)).toMatchObject({ ok: false, code: 'keybanned', message: 'Your license is banned' });
    const unused = key();
    banLicense(t.store, t.app.id, unused, null);
    expect(await licenseLogin(t.store, t.app, t.session(NOW), { key: unused, hwid: HWID, code: undefined, ip: '203.0.113.5' }, NOW)).toMatchObject({ ok: false, code: 'keybanned' });
    expect(await licenseLogin(t.store, t.app, t.session(NOW), { key: 'NOPE-NOPE', hwid: HWID, code: undefined, ip: '203.0.113.5' }, NOW)).toMatchObject({ ok: false, message: 'Invalid license key' });
  });

  it('20 simultaneous first uses of one key create exactly one user and all log in', async () => {
    t = openTestStore(NOW);
    const k = key();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => licenseLogin(t.store, t.app, t.session(NOW), { key: k, hwid: HWID, code: undefined, ip: '203.0.113.9' }, NOW)),
    );
    expect(results.every((r) => r.ok), JSON.stringify(results.filter((r) => !r.ok))).toBe(true);
    expect(t.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM users')!.n).toBe(1);
    expect(listUserSubs(t.store, findUser(t.store, t.app.id, k)!.id)).toHaveLength(1);
  });
});
