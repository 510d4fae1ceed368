/** Seller API, licenses (docs/protocol/seller-api.md §3.6), over real HTTP. */
import { describe, expect, it } from 'vitest';
import { findLicense, generateLicenses } from '../../src/server/domain/licenses.js';
import { findUser } from '../../src/server/domain/users.js';
import { listUserSubs } from '../../src/server/domain/user-subs.js';
import { fakeClock } from '../helpers/sandbox.js';
import { expectEmptyList, expectFail, expectOk, loginSession, makeKey, makeUser, sellerOk, startSellerSandbox, type TestSandbox } from './support/seller-helpers.js';

const DEFAULT_MASK_KEY = /^[A-Za-z0-9]{6}(-[A-Za-z0-9]{6}){5}$/;

function license(sb: TestSandbox, key: string) {
  return findLicense(sb.store, sb.app().id, key);
}

describe('add', () => {
  it('creates one key with the default mask, its duration in days stored as seconds', async () => {
    const sb = await startSellerSandbox();
    const res = await sb.seller('add', { expiry: '1.5', level: '2', note: 'March', owner: 'shop1' });
    const body = expectOk(res, 'License Successfully Generated');
    expect(Object.keys(body)).toEqual(['success', 'message', 'key']);
    const key = body['key'] as string;
    expect(key).toMatch(DEFAULT_MASK_KEY);
    expect(license(sb, key)).toMatchObject({ expires: 129_600, level: '2', note: 'March', genby: 'shop1', status: 'Not Used' });
  });

  it('creates several keys in one call, answered 200 (E uses 302)', async () => {
    const sb = await startSellerSandbox();
    const body = expectOk(await sb.seller('add', { expiry: '1', amount: '3' }), 'Licenses successfully generated');
    const keys = body['keys'] as string[];
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(3);
    for (const key of keys) expect(license(sb, key)?.genby).toBe('SellerAPI');
  });

  it('answers format=text with the keys alone, CRLF between them', async () => {
    const sb = await startSellerSandbox();
    const many = await sb.seller('add', { expiry: '1', amount: '2', format: 'text' });
    expect(many.status).toBe(200);
    expect(many.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const keys = many.text.split('\r\n');
    expect(keys).toHaveLength(2);
    for (const key of keys) expect(key).toMatch(DEFAULT_MASK_KEY);
    const one = await sb.seller('add', { expiry: '1', format: 'text' });
    expect(one.text).toMatch(DEFAULT_MASK_KEY);
    // Failures stay message-only text.
    expect((await sb.seller('add', { format: 'text' })).text).toBe('Expiry not set');
  });

  it('fills masks from the chosen character set and maps the old XXXXXX default', async () => {
    const sb = await startSellerSandbox();
    const upper = await makeKey(sb, { mask: 'UP-************', character: '2' });
    expect(upper).toMatch(/^UP-[A-Z0-9]{12}$/);
    const lower = await makeKey(sb, { mask: 'lo-************', character: '3' });
    expect(lower).toMatch(/^lo-[a-z0-9]{12}$/);
    const legacy = await makeKey(sb, { mask: 'XXXXXX-XXXXXX-XXXXXX-XXXXXX-XXXXXX-XXXXXX' });
    expect(legacy).toMatch(DEFAULT_MASK_KEY);
    expect(legacy).not.toBe('XXXXXX-XXXXXX-XXXXXX-XXXXXX-XXXXXX-XXXXXX');
  });

  it('makes a custom key from a mask without *, only one at a time and only once', async () => {
    const sb = await startSellerSandbox();
    expect(await makeKey(sb, { mask: 'MY-OWN-KEY' })).toBe('MY-OWN-KEY');
    expectFail(await sb.seller('add', { expiry: '1', mask: 'OTHER-KEY', amount: '2' }), "Can't do custom key with amount greater than one");
    expectFail(await sb.seller('add', { expiry: '1', mask: 'MY-OWN-KEY' }), 'License key already exists');
  });

  it('refuses a missing or malformed expiry, a long level, more than 100 keys and fewer than 1', async () => {
    const sb = await startSellerSandbox();
    expectFail(await sb.seller('add'), 'Expiry not set', 406);
    expectFail(await sb.seller('add', { expiry: 'week' }), 'Expiry must a number of days');
    expectFail(await sb.seller('add', { expiry: '1', level: '1234567890123' }), 'Level too long');
    expectFail(await sb.seller('add', { expiry: '1', amount: '101' }), 'You can only generate 100 licenses at a time');
    expectFail(await sb.seller('add', { expiry: '1', amount: '0' }), 'Invalid parameter: amount must be from 1 to 100');
    expectEmptyList(await sb.seller('fetchallkeys'), 'No keys found');
  });

  it('takes the amount from a shop webhook JSON body (Sellix data.quantity, Shoppy data.order.quantity)', async () => {
    const sb = await startSellerSandbox();
    const post = (body: unknown) =>
      sb.request(`/api/seller/?sellerkey=${sb.info.sellerKey}&type=add&expiry=1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((expectOk(await post({ data: { quantity: 3 } }))['keys'] as string[]).length).toBe(3);
    expect((expectOk(await post({ data: { order: { quantity: 2 } } }))['keys'] as string[]).length).toBe(2);
    expectFail(await post({ data: { Quantity: 101 } }), 'You can only generate 100 licenses at a time');
  });

  it('allows 5000 keys per app in 24 hours, then answers 429 until the oldest leave the window', async () => {
    const clock = fakeClock();
    const sb = await startSellerSandbox({ now: clock.now });
    const made = generateLicenses(sb.store, sb.app().id, { amount: 4950, expires: 86_400 }, clock.seconds());
    expect(made.ok).toBe(true);
    clock.advance(3600);
    expect((expectOk(await sb.seller('add', { expiry: '1', amount: '50' }))['keys'] as string[]).length).toBe(50);
    const refused = await sb.seller('add', { expiry: '1' });
    expect(refused.status).toBe(429);
    expect(refused.json).toEqual({ success: false, message: 'You can only generate 5000 keys per 24 hours with SellerAPI.' });
    expect(refused.headers.get('retry-after')).toBe(String(86_400 - 3600));
    clock.advance(86_400 - 3600 + 1);
    expectOk(await sb.seller('add', { expiry: '1' }));
  });
});

describe('fetchallkeys / info / verify', () => {
  it('lists every key with string numbers and the app name (never the secret) in app', async () => {
    const sb = await startSellerSandbox();
    const key = await makeKey(sb, { note: 'n1' });
    const body = await sellerOk(sb, 'fetchallkeys', {}, 'Successfully Retrieved Licenses');
    expect(body['keys']).toEqual([
      expect.objectContaining({ key, note: 'n1', expires: '86400', status: 'Not Used', level: '1', genby: 'SellerAPI', usedon: null, usedby: null, app: sb.info.app.name, banned: null }),
    ]);
    expect(JSON.stringify(body)).not.toContain(sb.info.app.secret);
  });

  it('shows one key without a message, and verifies it exists', async () => {
    const sb = await startSellerSandbox();
    const key = await makeKey(sb, { level: '3', note: 'vip' });
    const res = await sb.seller('info', { key });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      success: true, duration: '86400', note: 'vip', status: 'Not Used', level: '3', createdby: 'SellerAPI', usedby: null, usedon: null,
      creationdate: String(license(sb, key)?.gendate),
    });
    await sellerOk(sb, 'verify', { key }, 'Key Successfully Verified');
    expectFail(await sb.seller('info', { key: 'NOPE' }), 'Key Not Found');
    expectEmptyList(await sb.seller('verify', { key: 'NOPE' }), 'Key Not Found');
  });
});

describe('delete', () => {
  it('del removes a key and the subscriptions it granted; userToo removes its user', async () => {
    const sb = await startSellerSandbox();
    const key = await makeKey(sb);
    await sellerOk(sb, 'activate', { key, user: 'alice', pass: 'pw' });
    const alice = findUser(sb.store, sb.app().id, 'alice')!;
    await sellerOk(sb, 'del', { key }, 'Successfully deleted license!');
    expect(license(sb, key)).toBeUndefined();
    expect(listUserSubs(sb.store, alice.id)).toEqual([]);
    expectFail(await sb.seller('del', { key }), 'Failed to delete license!');

    const other = await makeKey(sb);
    await sellerOk(sb, 'activate', { key: other, user: 'bob', pass: 'pw' });
    await sellerOk(sb, 'del', { key: other, userToo: '1' });
    expect(findUser(sb.store, sb.app().id, 'bob')).toBeUndefined();
  });

  it('delmultiple splits on ", " and stops at the first key that fails', async () => {
    const sb = await startSellerSandbox();
    const [a, b, c, d] = (await sellerOk(sb, 'add', { expiry: '1', amount: '4' }))['keys'] as string[];
    await sellerOk(sb, 'delmultiple', { key: `${a}, ${b}` }, 'Successfully deleted license(s)');
    expectFail(await sb.seller('delmultiple', { key: `${c}, NOPE, ${d}` }), 'Failed to delete license(s)');
    expect(license(sb, a!)).toBeUndefined();
    expect(license(sb, c!)).toBeUndefined();
    expect(license(sb, d!)).toBeDefined();
  });

  it('delused, delunused and delalllicenses delete their keys or say there were none', async () => {
    const sb = await startSellerSandbox();
    expectFail(await sb.seller('delused'), "Didn't find any used keys!");
    expectFail(await sb.seller('delunused'), "Didn't find any unused keys!");
    expectFail(await sb.seller('delalllicenses'), "Didn't find any keys!");
    const used = await makeKey(sb);
    const unused = await makeKey(sb);
    await sellerOk(sb, 'activate', { key: used, user: 'alice', pass: 'pw' });
    await sellerOk(sb, 'delused', {}, 'Successfully deleted all used keys!');
    expect(license(sb, used)).toBeUndefined();
    expect(license(sb, unused)).toBeDefined();
    await sellerOk(sb, 'delunused', {}, 'Successfully deleted all unused keys!');
    expect(license(sb, unused)).toBeUndefined();
    await makeKey(sb);
    await sellerOk(sb, 'delalllicenses', {}, 'Deleted all keys!');
    expectEmptyList(await sb.seller('fetchallkeys'), 'No keys found');
  });
});

describe('ban / unban', () => {
  it('bans a key (and with userToo its user), and unbans both', async () => {
    const sb = await startSellerSandbox();
    const key = await makeKey(sb);
    await sellerOk(sb, 'activate', { key, user: 'alice', pass: 'pw' });
    await sellerOk(sb, 'ban', { key, reason: 'Chargeback', userToo: '1' }, 'Successfully banned license!');
    expect(license(sb, key)).toMatchObject({ status: 'Banned', banned: 'Chargeback' });
    expect(findUser(sb.store, sb.app().id, 'alice')?.banned).toBe('Chargeback');
    await sellerOk(sb, 'unban', { key }, 'Successfully unbanned license!');
    expect(license(sb, key)).toMatchObject({ status: 'Used', banned: null });
    expect(findUser(sb.store, sb.app().id, 'alice')?.banned).toBeNull();
    await loginSession(sb, 'alice');

    const unused = await makeKey(sb);
    await sellerOk(sb, 'ban', { key: unused });
    await sellerOk(sb, 'unban', { key: unused });
    expect(license(sb, unused)?.status).toBe('Not Used');
    expectFail(await sb.seller('ban', { key: 'NOPE', reason: 'x' }), 'Failed to ban license!');
    expectFail(await sb.seller('unban', { key: 'NOPE' }), 'Failed to unban license!');
  });
});

describe('notes and durations', () => {
  it('setnote / fetchnote', async () => {
    const sb = await startSellerSandbox();
    const key = await makeKey(sb);
    await sellerOk(sb, 'setnote', { key, note: 'Paid by transfer' }, 'Successfully set note');
    const res = await sb.seller('fetchnote', { key });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, note: 'Paid by transfer' });
    expectFail(await sb.seller('setnote', { key: 'NOPE', note: 'x' }), 'Failed to set note');
    expectFail(await sb.seller('setnote', { key, note: 'n'.repeat(70) }), 'Note must be less than 69 characters');
    expectFail(await sb.seller('fetchnote', { key: 'NOPE' }), 'Key not found');
  });

  it('edit sets the duration in seconds', async () => {
    const sb = await startSellerSandbox();
    const key = await makeKey(sb);
    await sellerOk(sb, 'edit', { key, expiry: '3600' }, 'License Edit Successful');
    expect(license(sb, key)?.expires).toBe(3600);
    expectFail(await sb.seller('edit', { key }), 'You must set expiry value');
    expectFail(await sb.seller('edit', { key: 'NOPE', expiry: '60' }), 'Key Not Found');
  });

  it('addtime adds days to every unused key only', async () => {
    const sb = await startSellerSandbox();
    expectFail(await sb.seller('addtime', { time: '1' }), 'Failed to add time! Key must not be used.');
    const used = await makeKey(sb);
    const unused = await makeKey(sb);
    await sellerOk(sb, 'activate', { key: used, user: 'alice', pass: 'pw' });
    await sellerOk(sb, 'addtime', { time: '0.5' }, 'Added time to unused licenses!');
    expect(license(sb, unused)?.expires).toBe(86_400 + 43_200);
    expect(license(sb, used)?.expires).toBe(86_400);
    expectFail(await sb.seller('addtime'), 'Missing parameter: time');
  });
});

describe('assignkey', () => {
  it('redeems an unused key onto an existing user', async () => {
    const clock = fakeClock();
    const sb = await startSellerSandbox({ now: clock.now });
    await makeUser(sb, 'alice');
    const key = await makeKey(sb, { expiry: '2' });
    await sellerOk(sb, 'assignkey', { key, user: 'alice' }, 'Successfully Assigned Key To User!');
    expect(license(sb, key)).toMatchObject({ status: 'Used', usedby: 'alice', usedon: clock.seconds() });
    const subs = listUserSubs(sb.store, findUser(sb.store, sb.app().id, 'alice')!.id);
    // The user's active `default` (1 day) is extended by the key's 2 days.
    expect(subs).toEqual([expect.objectContaining({ subscription: 'default', expiry: clock.seconds() + 3 * 86_400 })]);
  });

  it('refuses unknown, used and banned keys, unknown users and levels without a subscription', async () => {
    const sb = await startSellerSandbox();
    await makeUser(sb, 'alice');
    expectFail(await sb.seller('assignkey', { key: 'NOPE', user: 'alice' }), 'License not found!');
    const used = await makeKey(sb);
    await sellerOk(sb, 'assignkey', { key: used, user: 'alice' });
    expectFail(await sb.seller('assignkey', { key: used, user: 'alice' }), 'Key is already assigned to a user!');
    const banned = await makeKey(sb);
    await sellerOk(sb, 'ban', { key: banned });
    expectFail(await sb.seller('assignkey', { key: banned, user: 'alice' }), 'Key is banned, and can not be assigned!');
    const fresh = await makeKey(sb);
    expectFail(await sb.seller('assignkey', { key: fresh, user: 'nobody' }), 'Username not found!');
    const orphan = await makeKey(sb, { level: '9' });
    expectFail(await sb.seller('assignkey', { key: orphan, user: 'alice' }), 'Subscription not found!');
    expect(license(sb, fresh)?.status).toBe('Not Used');
  });
});

describe('activate', () => {
  it('creates a user from a key who can then log in with the password', async () => {
    const sb = await startSellerSandbox();
    const key = await makeKey(sb);
    const body = await sellerOk(sb, 'activate', { key, user: 'alice', pass: 's3cret', hwid: 'HWID-0000000000000000001' }, 'Logged in!');
    const info = body['info'] as { username: string; subscriptions: { subscription: string; key: string }[]; ip: string };
    expect(Object.keys(info)).toEqual(['username', 'subscriptions', 'ip']);
    expect(info.username).toBe('alice');
    expect(info.subscriptions).toEqual([expect.objectContaining({ subscription: 'default', key })]);
    expect(license(sb, key)).toMatchObject({ status: 'Used', usedby: 'alice' });
    // The session the registration ran in ends with the call.
    expectEmptyList(await sb.seller('fetchallsessions'), 'No sessions found');
    await loginSession(sb, 'alice', 's3cret');
  });

  it('refuses with the seller wording of each register refusal', async () => {
    const sb = await startSellerSandbox();
    const key = await makeKey(sb);
    await sellerOk(sb, 'activate', { key, user: 'alice', pass: 'pw' });
    const fresh = await makeKey(sb);
    expectFail(await sb.seller('activate', { key: fresh, user: 'alice', pass: 'pw' }), 'Username Already Exists.');
    expectFail(await sb.seller('activate', { key: 'NOPE', user: 'bob', pass: 'pw' }), 'Key Not Found.');
    expectFail(await sb.seller('activate', { key, user: 'bob', pass: 'pw' }), 'Key Already Used.');
    const banned = await makeKey(sb);
    await sellerOk(sb, 'ban', { key: banned });
    expectFail(await sb.seller('activate', { key: banned, user: 'bob', pass: 'pw' }), 'Your license is banned.');
    await sellerOk(sb, 'black', { hwid: 'HWID-BLACKLISTED-000001' });
    expectFail(await sb.seller('activate', { key: fresh, user: 'bob', pass: 'pw', hwid: 'HWID-BLACKLISTED-000001' }), 'HWID is blacklisted');
    const orphan = await makeKey(sb, { level: '7' });
    expectFail(await sb.seller('activate', { key: orphan, user: 'bob', pass: 'pw' }), 'No active subscriptions found.');
    expectFail(await sb.seller('activate', { key: fresh, user: 'bob' }), 'Missing parameter: pass');
    expect(findUser(sb.store, sb.app().id, 'bob')).toBeUndefined();
  });
});
