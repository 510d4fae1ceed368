/**
 * Seller API, subscription definitions (§3.9) and users' subscriptions (§3.10: extend, subtract,
 * delsub, usersub), over real HTTP with a fake clock.
 */
import { describe, expect, it } from 'vitest';
import { findSubscription } from '../../src/server/domain/subscriptions.js';
import { listUserSubs } from '../../src/server/domain/user-subs.js';
import { findUser } from '../../src/server/domain/users.js';
import { fakeClock } from '../helpers/sandbox.js';
import { expectEmptyList, expectFail, expectOk, makeKey, makeUser, sellerOk, startSellerSandbox, type TestSandbox } from './support/seller-helpers.js';

const DAY = 86_400;

function subsOf(sb: TestSandbox, name: string) {
  return listUserSubs(sb.store, findUser(sb.store, sb.app().id, name)!.id).map((s) => ({ subscription: s.subscription, expiry: s.expiry, paused: s.paused }));
}

describe('definitions', () => {
  it('addsub / fetchallsubs / editsub / delappsub', async () => {
    const sb = await startSellerSandbox();
    await sellerOk(sb, 'addsub', { name: 'premium', level: '2' }, 'Successfully created subscription!');
    expect((await sellerOk(sb, 'fetchallsubs', {}, 'Successfully retrieved subscriptions'))['subs']).toEqual([
      { name: 'default', level: '1' },
      { name: 'premium', level: '2' },
    ]);
    await sellerOk(sb, 'editsub', { sub: 'premium', level: '3' }, 'Subscription successfully edited');
    expect(findSubscription(sb.store, sb.app().id, 'premium')?.level).toBe('3');
    await sellerOk(sb, 'delappsub', { name: 'premium' }, 'Successfully deleted subscription!');
    await sellerOk(sb, 'delappsub', { name: 'default' });
    expectEmptyList(await sb.seller('fetchallsubs'), 'No subscriptions found');
  });

  it('refuses what the page lists', async () => {
    const sb = await startSellerSandbox();
    expectFail(await sb.seller('addsub', { name: 'x', level: 'one' }), 'Level must be a number');
    expectFail(await sb.seller('addsub', { name: 'x' }), 'Level must be a number');
    expectFail(await sb.seller('addsub', { name: 'x', level: '1234567890123' }), 'Level too long');
    expectFail(await sb.seller('addsub', { name: 'default', level: '1' }), 'Unhandled Error! Contact support if you need help');
    expectFail(await sb.seller('editsub', { sub: 'nope', level: '1' }), 'Failed to edit subscription');
    expectFail(await sb.seller('delappsub', { name: 'nope' }), 'Failed to delete subscription!');
  });

  it('a key of a new level grants the new subscription through the client API', async () => {
    const sb = await startSellerSandbox();
    await sellerOk(sb, 'addsub', { name: 'premium', level: '5' });
    const key = await makeKey(sb, { level: '5' });
    const sessionid = await sb.init();
    const res = await sb.client('register', { sessionid, username: 'alice', pass: 'pw', key });
    expect(res.json.info.subscriptions).toEqual([expect.objectContaining({ subscription: 'premium', key })]);
  });

  it('pausesub / unpausesub freeze and restart every user subscription of the name', async () => {
    const clock = fakeClock();
    const sb = await startSellerSandbox({ now: clock.now });
    await makeUser(sb, 'alice', { expiry: '2' });
    await sellerOk(sb, 'pausesub', { subscription: 'default' }, 'Successfully paused subscription!');
    expect(subsOf(sb, 'alice')).toEqual([{ subscription: 'default', expiry: 2 * DAY, paused: 1 }]);
    clock.advance(DAY);
    await sellerOk(sb, 'unpausesub', { subscription: 'default' }, 'Successfully unpaused subscription!');
    expect(subsOf(sb, 'alice')).toEqual([{ subscription: 'default', expiry: clock.seconds() + 2 * DAY, paused: 0 }]);
    expectFail(await sb.seller('pausesub', { subscription: 'nope' }), 'Failed to pause subscription!');
    expectFail(await sb.seller('unpausesub', { subscription: 'nope' }), 'Failed to unpause subscription!');
  });

  it('countsubs counts unexpired user subscriptions of the name, as a string', async () => {
    const clock = fakeClock();
    const sb = await startSellerSandbox({ now: clock.now });
    await makeUser(sb, 'alice', { expiry: '1' });
    await makeUser(sb, 'bob', { expiry: '3' });
    const res = await sb.seller('countsubs', { name: 'default' });
    expect(res.json).toEqual({ success: true, message: 'Subscription count found successfully', count: '2' });
    clock.advance(2 * DAY);
    expect((await sellerOk(sb, 'countsubs', { name: 'default' }))['count']).toBe('1');
    expectFail(await sb.seller('countsubs'), 'Paramater with name "name" missing');
  });
});

describe('extend', () => {
  it('adds days to an active subscription, or grants it to a user who lacks it', async () => {
    const clock = fakeClock();
    const sb = await startSellerSandbox({ now: clock.now });
    await sellerOk(sb, 'addsub', { name: 'premium', level: '2' });
    await makeUser(sb, 'alice', { expiry: '1' });
    await sellerOk(sb, 'extend', { user: 'alice', sub: 'default', expiry: '2' }, 'Successfully extended user(s)!');
    await sellerOk(sb, 'extend', { user: 'alice', sub: 'premium', expiry: '0.5' });
    expect(subsOf(sb, 'alice')).toEqual([
      { subscription: 'default', expiry: clock.seconds() + 3 * DAY, paused: 0 },
      { subscription: 'premium', expiry: clock.seconds() + DAY / 2, paused: 0 },
    ]);
  });

  it('with user=all extends everyone, or with activeOnly=1 only holders of an active one', async () => {
    const clock = fakeClock();
    const sb = await startSellerSandbox({ now: clock.now });
    await sellerOk(sb, 'addsub', { name: 'premium', level: '2' });
    await makeUser(sb, 'alice', { sub: 'premium', expiry: '1' });
    await makeUser(sb, 'bob', { sub: 'default', expiry: '1' });
    await sellerOk(sb, 'extend', { user: 'all', sub: 'premium', expiry: '1', activeOnly: '1' });
    expect(subsOf(sb, 'alice')).toEqual([{ subscription: 'premium', expiry: clock.seconds() + 2 * DAY, paused: 0 }]);
    expect(subsOf(sb, 'bob').map((s) => s.subscription)).toEqual(['default']);
    await sellerOk(sb, 'extend', { user: 'all', sub: 'premium', expiry: '1' });
    expect(subsOf(sb, 'bob')).toContainEqual({ subscription: 'premium', expiry: clock.seconds() + DAY, paused: 0 });
  });

  it('refuses what the page lists', async () => {
    const sb = await startSellerSandbox();
    expectFail(await sb.seller('extend', { user: 'all', sub: 'default', expiry: '1' }), 'User(s) not found!');
    await makeUser(sb, 'alice');
    expectFail(await sb.seller('extend', { user: 'nobody', sub: 'default', expiry: '1' }), 'User(s) not found!');
    expectFail(await sb.seller('extend', { user: 'alice', sub: 'gold', expiry: '1' }), 'Subscription not found!');
    expectFail(await sb.seller('extend', { user: 'alice', sub: 'default', expiry: '-1' }), 'Subscription expiry must be set in the future!');
    expectFail(await sb.seller('extend', { user: 'alice', sub: 'default', expiry: 'lots' }), 'Expiry not set correctly, must be number of days');
    await sellerOk(sb, 'addsub', { name: 'premium', level: '2' });
    expectFail(await sb.seller('extend', { user: 'all', sub: 'premium', expiry: '1', activeOnly: '1' }), 'Failed to extend user(s)');
  });
});

describe('subtract', () => {
  it('takes seconds off one user, or off everyone with user=all', async () => {
    const clock = fakeClock();
    const sb = await startSellerSandbox({ now: clock.now });
    await makeUser(sb, 'alice', { expiry: '1' });
    await makeUser(sb, 'bob', { expiry: '1' });
    await sellerOk(sb, 'subtract', { user: 'alice', sub: 'default', seconds: '3600' }, 'Successfully subtracted time from subscription!');
    expect(subsOf(sb, 'alice')[0]?.expiry).toBe(clock.seconds() + DAY - 3600);
    await sellerOk(sb, 'subtract', { user: 'all', sub: 'default', seconds: '60' });
    expect(subsOf(sb, 'alice')[0]?.expiry).toBe(clock.seconds() + DAY - 3660);
    expect(subsOf(sb, 'bob')[0]?.expiry).toBe(clock.seconds() + DAY - 60);
  });

  it('refuses zero or missing seconds, unknown users and users without the subscription', async () => {
    const sb = await startSellerSandbox();
    await makeUser(sb, 'alice');
    expectFail(await sb.seller('subtract', { user: 'alice', sub: 'default', seconds: '0' }), 'Seconds specified must be greater than zero!');
    expectFail(await sb.seller('subtract', { user: 'alice', sub: 'default' }), 'Seconds specified must be greater than zero!');
    expectFail(await sb.seller('subtract', { user: 'nobody', sub: 'default', seconds: '1' }), 'Failed to subtract from susbcriptions!');
    expectFail(await sb.seller('subtract', { user: 'alice', sub: 'gold', seconds: '1' }), 'Failed to subtract from susbcriptions!');
    expectFail(await sb.seller('subtract', { user: 'all', sub: 'gold', seconds: '1' }), 'Failed to subtract from susbcriptions!');
  });
});

describe('delsub / usersub', () => {
  it('lists every subscription row of a user and deletes one by name', async () => {
    const clock = fakeClock();
    const sb = await startSellerSandbox({ now: clock.now });
    const key = await makeKey(sb);
    await sellerOk(sb, 'activate', { key, user: 'alice', pass: 'pw' });
    const body = await sellerOk(sb, 'usersub', { user: 'alice' }, 'Successfully Retrieved User Subscription');
    expect(body['subs']).toEqual([
      { id: expect.stringMatching(/^\d+$/), user: 'alice', subscription: 'default', expiry: String(clock.seconds() + DAY), app: sb.info.app.name, key, paused: '0' },
    ]);
    await sellerOk(sb, 'delsub', { user: 'alice', sub: 'default' }, 'Successfully deleted subscription!');
    expectEmptyList(await sb.seller('usersub', { user: 'alice' }), 'No Subscriptions Found');
    expectEmptyList(await sb.seller('usersub', { user: 'nobody' }), 'No Subscriptions Found');
    expectFail(await sb.seller('delsub', { user: 'alice', sub: 'default' }), 'Failed to delete subscription!');
    expectFail(await sb.seller('delsub', { user: 'nobody', sub: 'default' }), 'Failed to delete subscription!');
    // Without a subscription the user can no longer log in.
    const sessionid = await sb.init();
    expect((await sb.client('login', { sessionid, username: 'alice', pass: 'pw', hwid: 'HWID-0000000000000000001' })).json.message).toBe('No active subscription(s) found');
    expectOk(await sb.seller('verifyuser', { user: 'alice' }));
  });
});
