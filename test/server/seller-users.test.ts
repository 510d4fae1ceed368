/** Seller API, end users (docs/protocol/seller-api.md §3.10): creation, deletion, lookups, account fields. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { listBlacklists } from '../../src/server/domain/blacklists.js';
import { createUser, findUser, hashEmail, webLoaderToken } from '../../src/server/domain/users.js';
import { listUserSubs } from '../../src/server/domain/user-subs.js';
import { fakeClock } from '../helpers/sandbox.js';
import { expectEmptyList, expectFail, expectOk, loginSession, makeKey, makeUser, sellerOk, startSellerSandbox, type TestSandbox } from './support/seller-helpers.js';

const HWID = 'HWID-0000000000000000001';

function user(sb: TestSandbox, name: string) {
  return findUser(sb.store, sb.app().id, name);
}

async function loginMessage(sb: TestSandbox, username: string, pass = 'pw'): Promise<string> {
  const sessionid = await sb.init();
  return (await sb.client('login', { sessionid, username, pass, hwid: HWID })).json.message as string;
}

describe('adduser', () => {
  it('creates a user with one subscription, created by SellerAPI, who can log in', async () => {
    const clock = fakeClock();
    const sb = await startSellerSandbox({ now: clock.now });
    await sellerOk(sb, 'adduser', { user: 'alice', sub: 'default', expiry: '2.5', pass: 'pw' }, 'Successfully created user!');
    const alice = user(sb, 'alice')!;
    expect(alice.owner).toBe('SellerAPI');
    expect(alice.passwordHash).toMatch(/^scrypt\$/);
    expect(listUserSubs(sb.store, alice.id)).toEqual([expect.objectContaining({ subscription: 'default', expiry: clock.seconds() + 216_000, key: null })]);
    await loginSession(sb, 'alice');
  });

  it('without a password, refuses every login until set-password gives one (the first stranger must not own it)', async () => {
    const sb = await startSellerSandbox();
    await sellerOk(sb, 'adduser', { user: 'bob', sub: 'default', expiry: '1' });
    expect(user(sb, 'bob')?.passwordHash).toBeNull();
    expect(await loginMessage(sb, 'bob', 'attacker-choice')).toBe('Password does not match.');
    expect(user(sb, 'bob')?.passwordHash).toBeNull();
    expect(await loginMessage(sb, 'bob', 'another-try')).toBe('Password does not match.');
    await sellerOk(sb, 'resetpw', { user: 'bob', passwd: 'bobs-own' });
    await loginSession(sb, 'bob', 'bobs-own');
    // Cleared again: no password, no login.
    await sellerOk(sb, 'resetpw', { user: 'bob' });
    expect(await loginMessage(sb, 'bob', 'bobs-own')).toBe('Password does not match.');
  });

  it('refuses each case the page lists', async () => {
    const sb = await startSellerSandbox();
    await makeUser(sb, 'alice');
    expectFail(await sb.seller('adduser', { sub: 'default', expiry: '1' }), 'You must specify username.');
    expectFail(await sb.seller('adduser', { user: 'bob', sub: 'default' }), 'Expiry not set correctly, must be number of days');
    expectFail(await sb.seller('adduser', { user: 'bob', sub: 'default', expiry: 'soon' }), 'Expiry not set correctly, must be number of days');
    expectFail(await sb.seller('adduser', { user: 'all', sub: 'default', expiry: '1' }), 'Username not allowed!');
    expectFail(await sb.seller('adduser', { user: 'alice', sub: 'default', expiry: '1' }), 'Username already exists!');
    expectFail(await sb.seller('adduser', { user: 'bob', sub: 'gold', expiry: '1' }), 'Subscription not found!');
    expectFail(await sb.seller('adduser', { user: 'bob', sub: 'default', expiry: '0' }), 'Subscription expiry must be set in the future!');
    await sellerOk(sb, 'pausesub', { subscription: 'default' });
    expectFail(await sb.seller('adduser', { user: 'bob', sub: 'default', expiry: '1' }), 'Unable to create user while subscription is paused!');
    expect(user(sb, 'bob')).toBeUndefined();
  });
});

describe('lookups', () => {
  it('fetchallusers lists users without password, 2FA secret, email hash or app secret (hasemail says an email is set)', async () => {
    const sb = await startSellerSandbox();
    expectEmptyList(await sb.seller('fetchallusers'), 'No users found');
    await makeUser(sb, 'alice');
    await sellerOk(sb, 'editemail', { user: 'alice', email: 'alice@example.com' });
    sb.store.run("UPDATE users SET twofaSecret = 'JBSWY3DPEHPK3PXP', twofaEnabled = 1 WHERE username = 'alice'");
    const body = await sellerOk(sb, 'fetchallusers', {}, 'Successfully Retrieved Users');
    const [row] = body['users'] as Record<string, unknown>[];
    expect(Object.keys(row!)).toEqual(['id', 'username', 'hwid', 'app', 'owner', 'createdate', 'lastlogin', 'banned', 'ip', 'cooldown', '2fa', 'hasemail']);
    expect(row).toMatchObject({ username: 'alice', app: sb.info.app.name, owner: 'SellerAPI', banned: null, '2fa': '1', hasemail: '1' });
    const text = JSON.stringify(body);
    for (const secret of [user(sb, 'alice')!.passwordHash!, 'JBSWY3DPEHPK3PXP', hashEmail('alice@example.com'), sb.info.app.secret]) expect(text).not.toContain(secret);
  });

  it('fetchallusers stops at 520 users', async () => {
    const sb = await startSellerSandbox();
    sb.store.tx(() => {
      for (let i = 0; i < 521; i++) createUser(sb.store, sb.app().id, { username: `u${i}`, passwordHash: null }, 1);
    });
    expect((await sellerOk(sb, 'fetchallusers'))['users']).toHaveLength(520);
  });

  it('fetchallusernames lists {username} objects', async () => {
    const sb = await startSellerSandbox();
    expectEmptyList(await sb.seller('fetchallusernames'), 'No users found');
    await makeUser(sb, 'alice');
    await makeUser(sb, 'bob');
    const body = await sellerOk(sb, 'fetchallusernames', {}, 'Successfully Retrieved Usernames');
    expect(body['usernames']).toEqual([{ username: 'alice' }, { username: 'bob' }]);
  });

  it('userdata gives the user without the password hash; its token is not MD5 of the hash tail', async () => {
    const sb = await startSellerSandbox();
    await makeUser(sb, 'alice');
    await sellerOk(sb, 'setvar', { user: 'alice', var: 'tier', data: 'gold' });
    await loginSession(sb, 'alice');
    const res = await sb.seller('userdata', { user: 'alice' });
    expect(res.status).toBe(200);
    const stored = user(sb, 'alice')!;
    expect(res.json).toEqual({
      success: true,
      username: 'alice',
      subscriptions: [{ subscription: 'default', key: null, expiry: expect.stringMatching(/^\d+$/) }],
      uservars: [{ name: 'tier', data: 'gold' }],
      ip: '127.0.0.1',
      hwid: HWID,
      createdate: String(stored.createdate),
      lastlogin: String(stored.lastlogin),
      cooldown: null,
      token: webLoaderToken(stored),
      banned: null,
    });
    expect(res.json.token).toMatch(/^[0-9a-f]{32}$/);
    expect(res.json.token).not.toBe(createHash('md5').update(stored.passwordHash!.slice(-5)).digest('hex'));
    expect(res.text).not.toContain(stored.passwordHash!);
    expectFail(await sb.seller('userdata', { user: 'nobody' }), 'User not found');
  });

  it('getkey gives the key a user redeemed, without a message', async () => {
    const sb = await startSellerSandbox();
    const key = await makeKey(sb);
    await sellerOk(sb, 'activate', { key, user: 'alice', pass: 'pw' });
    const res = await sb.seller('getkey', { user: 'alice' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, key });
    await makeUser(sb, 'bob');
    expectFail(await sb.seller('getkey', { user: 'bob' }), 'License not found');
  });

  it('verifyuser', async () => {
    const sb = await startSellerSandbox();
    await makeUser(sb, 'alice');
    await sellerOk(sb, 'verifyuser', { user: 'alice' }, 'User Successfully Verified');
    expectEmptyList(await sb.seller('verifyuser', { user: 'bob' }), 'User Not Found');
  });
});

describe('deletion', () => {
  it('deluser removes the user with their variables and subscriptions', async () => {
    const sb = await startSellerSandbox();
    await makeUser(sb, 'alice');
    await sellerOk(sb, 'setvar', { user: 'alice', var: 'v', data: 'd' });
    await sellerOk(sb, 'deluser', { user: 'alice' }, 'Successfully deleted user!');
    expect(user(sb, 'alice')).toBeUndefined();
    expectEmptyList(await sb.seller('fetchalluservars'), 'No user variables Found');
    expectFail(await sb.seller('deluser', { user: 'alice' }), 'Failed to delete user!');
  });

  it('delallusers', async () => {
    const sb = await startSellerSandbox();
    expectFail(await sb.seller('delallusers'), 'Failed to delete all users!');
    await makeUser(sb, 'alice');
    await makeUser(sb, 'bob');
    await sellerOk(sb, 'delallusers', {}, 'Successfully deleted all users!');
    expectEmptyList(await sb.seller('fetchallusers'), 'No users found');
  });

  it('delexpusers deletes only users without an unexpired subscription', async () => {
    const clock = fakeClock();
    const sb = await startSellerSandbox({ now: clock.now });
    expectFail(await sb.seller('delexpusers'), 'You have no users!');
    await makeUser(sb, 'short', { expiry: '1' });
    await makeUser(sb, 'long', { expiry: '10' });
    expectFail(await sb.seller('delexpusers'), 'No users are expired!');
    clock.advance(2 * 86_400);
    await sellerOk(sb, 'delexpusers', {}, 'Successfully deleted expired users!');
    expect(user(sb, 'short')).toBeUndefined();
    expect(user(sb, 'long')).toBeDefined();
  });
});

describe('account fields', () => {
  it('resetpw sets a new password, or clears it (no login until a new one)', async () => {
    const sb = await startSellerSandbox();
    await makeUser(sb, 'alice');
    await sellerOk(sb, 'resetpw', { user: 'alice', passwd: 'n3w' }, 'Password reset successful');
    expect(await loginMessage(sb, 'alice', 'pw')).toBe('Password does not match.');
    await loginSession(sb, 'alice', 'n3w');
    await sellerOk(sb, 'resetpw', { user: 'alice' }, 'Password reset successful');
    expect(user(sb, 'alice')?.passwordHash).toBeNull();
    expectFail(await sb.seller('resetpw', { user: 'nobody', passwd: 'x' }), 'Failed To reset password');
  });

  it('editemail stores only the hash of the address', async () => {
    const sb = await startSellerSandbox();
    await makeUser(sb, 'alice');
    await sellerOk(sb, 'editemail', { user: 'alice', email: 'Alice@Example.com' }, 'Successfully changed email!');
    expect(user(sb, 'alice')?.emailHash).toBe(createHash('sha1').update('alice@example.com').digest('hex'));
    expectFail(await sb.seller('editemail', { user: 'nobody', email: 'x@example.com' }), 'Failed to change email!');
  });

  it('editusername renames the user everywhere and logs them out', async () => {
    const sb = await startSellerSandbox();
    const key = await makeKey(sb);
    await sellerOk(sb, 'activate', { key, user: 'alice', pass: 'pw' });
    await makeUser(sb, 'bob');
    const sessionid = await loginSession(sb, 'alice');
    await sellerOk(sb, 'editusername', { currentUsername: 'alice', newUsername: 'alice2' }, 'Successfully changed username, user logged out!');
    expect((await sb.client('check', { sessionid })).json.success).toBe(false);
    expect((await sellerOk(sb, 'getkey', { user: 'alice2' }))['key']).toBe(key);
    await loginSession(sb, 'alice2');
    expectFail(await sb.seller('editusername', { currentUsername: 'alice2', newUsername: 'bob' }), 'Username already used!');
    expectFail(await sb.seller('editusername', { currentUsername: 'nobody', newUsername: 'carol' }), 'Failed to change username!');
    expectFail(await sb.seller('editusername', { currentUsername: 'bob', newUsername: 'all' }), 'Username not allowed!');
  });

  it('addhwiduser appends a HWID; an unknown user is refused (E says "Added HWID")', async () => {
    const sb = await startSellerSandbox();
    await makeUser(sb, 'alice');
    await loginSession(sb, 'alice');
    await sellerOk(sb, 'addhwiduser', { user: 'alice', hwid: 'HWID-SECOND-00000000002' }, 'Added HWID');
    expect(user(sb, 'alice')?.hwid).toBe(`${HWID}HWID-SECOND-00000000002`);
    expectFail(await sb.seller('addhwiduser', { user: 'nobody', hwid: 'x' }), 'User not found!');
  });

  it('resetuser and resetalluser clear HWIDs', async () => {
    const sb = await startSellerSandbox();
    expectFail(await sb.seller('resetalluser'), 'Failed to reset all users!');
    await makeUser(sb, 'alice');
    await loginSession(sb, 'alice');
    await sellerOk(sb, 'resetuser', { user: 'alice' }, 'Successfully reset user!');
    expect(user(sb, 'alice')?.hwid).toBeNull();
    expectFail(await sb.seller('resetuser', { user: 'nobody' }), 'Failed to reset user!');
    await loginSession(sb, 'alice');
    await sellerOk(sb, 'resetalluser', {}, 'Successfully reset all users!');
    expect(user(sb, 'alice')?.hwid).toBeNull();
  });

  it('setcooldown stores seconds', async () => {
    const sb = await startSellerSandbox();
    await makeUser(sb, 'alice');
    await sellerOk(sb, 'setcooldown', { user: 'alice', cooldown: '86400' }, 'Cooldown set successfully!');
    expect(user(sb, 'alice')?.cooldown).toBe(86_400);
    expectFail(await sb.seller('setcooldown', { user: 'nobody', cooldown: '1' }), 'Failed to set cooldown!');
    expectFail(await sb.seller('setcooldown', { user: 'alice', cooldown: '-5' }), 'Invalid parameter: cooldown must be 0 or more');
    expectFail(await sb.seller('setcooldown', { user: 'alice', cooldown: '1.5' }), 'Invalid parameter: cooldown must be a whole number');
  });

  it('banuser bans, blacklists the HWID (not loopback) and ends sessions; unbanuser lifts it', async () => {
    const sb = await startSellerSandbox();
    await makeUser(sb, 'alice');
    const sessionid = await loginSession(sb, 'alice');
    expectFail(await sb.seller('banuser', { user: 'alice' }), 'Ban reason is missing');
    await sellerOk(sb, 'banuser', { user: 'alice', reason: 'Sharing' }, 'Successfully banned user!');
    expect(user(sb, 'alice')?.banned).toBe('Sharing');
    expect(listBlacklists(sb.store, sb.app().id).map((b) => [b.type, b.hwid ?? b.ip])).toEqual([['hwid', HWID]]);
    expect((await sb.client('check', { sessionid })).json.success).toBe(false);
    expect(await loginMessage(sb, 'alice')).toBe('The user is banned');
    expectFail(await sb.seller('banuser', { user: 'nobody', reason: 'x' }), 'User not found!');
    await sellerOk(sb, 'unbanuser', { user: 'alice' }, 'Successfully unbanned user!');
    expect(listBlacklists(sb.store, sb.app().id)).toEqual([]);
    await loginSession(sb, 'alice');
    expectFail(await sb.seller('unbanuser', { user: 'nobody' }), 'User not found!');
  });

  it('pauseuser / unpauseuser (param username) freeze and restart the subscriptions', async () => {
    const sb = await startSellerSandbox();
    await makeUser(sb, 'alice');
    expectFail(await sb.seller('pauseuser', { user: 'alice' }), 'Missing parameter: username');
    await sellerOk(sb, 'pauseuser', { username: 'alice' }, 'Successfully paused user!');
    expect(await loginMessage(sb, 'alice')).toBe("Your subscription is paused and can't be used right now");
    await sellerOk(sb, 'unpauseuser', { username: 'alice' }, 'Successfully unpaused user!');
    await loginSession(sb, 'alice');
    expectFail(await sb.seller('pauseuser', { username: 'nobody' }), 'Failed to pause user!');
    expectFail(await sb.seller('unpauseuser', { username: 'nobody' }), 'Failed to unpause user!');
  });
});

it('answers message-only operations as text with format=text, lookups as JSON', async () => {
  const sb = await startSellerSandbox();
  const created = await sb.seller('adduser', { user: 'alice', sub: 'default', expiry: '1', format: 'text' });
  expect([created.status, created.text]).toEqual([200, 'Successfully created user!']);
  const refused = await sb.seller('deluser', { user: 'nobody', format: 'text' });
  expect([refused.status, refused.text]).toEqual([200, 'Failed to delete user!']);
  expectOk(await sb.seller('fetchallusers', { format: 'text' }));
  expect((await sb.seller('userdata', { user: 'nobody', format: 'text' })).json).toEqual({ success: false, message: 'User not found' });
});
