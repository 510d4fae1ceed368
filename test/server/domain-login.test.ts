/** The login pipeline (docs/protocol/client-api.md §4.2 plus blacklist and 2FA), bans, and user changes. */
import { afterEach, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '../helpers/sandbox.js';
import { loginUser, type LoginInput } from '../../src/server/domain/login.js';
import { createUser, findUser, renameUser, deleteUser, webLoaderToken, addUserHwid, getUserById, setUserPassword } from '../../src/server/domain/users.js';
import { hashPassword } from '../../src/server/domain/passwords.js';
import { insertUserSub, freezeSubs, thawSubs, listUserSubs } from '../../src/server/domain/user-subs.js';
import { addBlacklist, deleteBlacklist, isBlacklisted, listBlacklists } from '../../src/server/domain/blacklists.js';
import { banUser, unbanUser } from '../../src/server/domain/bans.js';
import { enable2fa, newTotpSecret, totpCode, verifyTotp } from '../../src/server/domain/twofa.js';
import { getApp, updateAppSettings } from '../../src/server/domain/apps.js';
import { deleteSession, findLiveSession, validateSession } from '../../src/server/domain/sessions.js';
import { sendChatMessage, createChannel, getChatMessages, muteUser } from '../../src/server/domain/chat.js';
import { setUserVar, getUserVar } from '../../src/server/domain/user-vars.js';
import { generateLicenses, findLicense, markLicenseUsed } from '../../src/server/domain/licenses.js';
import { isLoopbackIp } from '../../src/server/domain/ip.js';
import { setAppMessage } from '../../src/server/domain/messages.js';

const NOW = 1_800_000_000;
const HWID1 = 'HWID-0123456789abcdef-linux';
const HWID2 = 'HWID-fedcba9876543210-linux';
let t: TestStore;

afterEach(() => t?.store.close());

async function carol(options: { password?: string | null; hwid?: string | null } = {}) {
  const passwordHash = options.password === null ? null : await hashPassword(options.password ?? 'right');
  const user = createUser(t.store, t.app.id, { username: 'carol', passwordHash, hwid: options.hwid === undefined ? HWID1 : options.hwid, ip: '198.51.100.7' }, NOW - 1000);
  insertUserSub(t.store, { appId: t.app.id, userId: user.id, subscription: 'default', expiry: NOW + 3600 });
  return user;
}

function login(input: Partial<LoginInput>, at = NOW) {
  return loginUser(t.store, getApp(t.store, t.app.id), t.session(at), {
    username: 'carol',
    credential: { kind: 'password', pass: 'right' },
    hwid: HWID1,
    code: undefined,
    ip: '203.0.113.5',
    ...input,
  }, at);
}

async function message(input: Partial<LoginInput>): Promise<string> {
  const result = await login(input);
  return result.ok ? 'ok' : result.message;
}

describe('loginUser', () => {
  it('checks in order: HWID length, force HWID, user, ban, blacklist, password, HWID lock, subscriptions, 2FA', async () => {
    t = openTestStore(NOW);
    const user = await carol();
    banUser(t.store, t.app.id, 'carol', 'cheating', {});
    addBlacklist(t.store, t.app.id, 'hwid', HWID2);
    freezeSubs(t.store, { appId: t.app.id, userId: user.id }, NOW);
    const secret = newTotpSecret();
    enable2fa(t.store, user.id, secret);
    setAppMessage(t.store, t.app.id, 'userbanned', 'Banned: {reason}');

    const steps: string[] = [];
    const input: { -readonly [K in keyof LoginInput]?: LoginInput[K] } = { hwid: 'short', username: 'ghost', credential: { kind: 'password', pass: 'wrong' } };
    steps.push(await message(input));
    input.hwid = undefined;
    steps.push(await message(input));
    input.hwid = HWID2;
    steps.push(await message(input));
    input.username = 'carol';
    steps.push(await message(input));
    unbanUser(t.store, t.app.id, 'carol');
    steps.push(await message(input));
    deleteBlacklist(t.store, t.app.id, 'hwid', HWID2);
    steps.push(await message(input));
    input.credential = { kind: 'password', pass: 'right' };
    steps.push(await message(input));
    input.hwid = HWID1;
    steps.push(await message(input));
    t.store.run('DELETE FROM user_subs');
    steps.push(await message(input));
    insertUserSub(t.store, { appId: t.app.id, userId: user.id, subscription: 'default', expiry: NOW + 60 });
    steps.push(await message(input));
    input.code = totpCode(secret, NOW - 300);
    steps.push(await message(input));
    input.code = totpCode(secret, NOW - 30);
    steps.push(await message(input));

    expect(steps).toEqual([
      'HWID must be 20 or more characters, change this in app settings.',
      'Force HWID is enabled, disable in app settings if you want to use blank HWIDs',
      'Invalid username',
      'Banned: cheating',
      "You've been blacklisted from our application",
      'Password does not match.',
      "HWID doesn't match. Ask for a HWID reset",
      "Your subscription is paused and can't be used right now",
      'No active subscription(s) found',
      '2FA code required.',
      'Invalid 2FA code.',
      'ok',
    ]);
    expect(((await login(input)) as { value: { message: string } }).value.message).toBe('Logged in!');
  });

  it('validates the session and answers the login variant of info', async () => {
    t = openTestStore(NOW);
    await carol();
    const session = t.session(NOW);
    const result = await loginUser(t.store, t.app, session, { username: 'carol', credential: { kind: 'password', pass: 'right' }, hwid: HWID1, code: undefined, ip: '203.0.113.5' }, NOW);
    expect(result.ok && result.value.info).toEqual({
      username: 'carol',
      subscriptions: [{ subscription: 'default', key: null, expiry: String(NOW + 3600), timeleft: 3600, level: '1' }],
      ip: '203.0.113.5',
      hwid: HWID1,
      createdate: String(NOW - 1000),
      lastlogin: String(NOW),
    });
    expect(findLiveSession(t.store, t.app.id, session.id, NOW)).toMatchObject({ validated: 1, credential: 'carol' });
    expect(findUser(t.store, t.app.id, 'carol')).toMatchObject({ ip: '203.0.113.5', lastlogin: NOW });
  });

  it('stores the first HWID (info shows null), then holds the user to it by substring', async () => {
    t = openTestStore(NOW);
    const user = await carol({ hwid: null });
    const first = await login({ hwid: HWID1 });
    expect(first.ok && first.value.info.hwid).toBeNull();
    expect(getUserById(t.store, user.id)!.hwid).toBe(HWID1);
    expect(await message({ hwid: HWID2 })).toBe("HWID doesn't match. Ask for a HWID reset");
    addUserHwid(t.store, user.id, HWID2);
    expect(await message({ hwid: HWID2 })).toBe('ok');
    expect(await message({ hwid: HWID1.slice(0, 22) })).toBe('ok');
    updateAppSettings(t.store, t.app.id, { hwidcheck: false });
    expect(await message({ hwid: 'HWID-completely-different-machine' })).toBe('ok');
    updateAppSettings(t.store, t.app.id, { forceHwid: false });
    expect(await message({ hwid: undefined })).toBe('ok');
  });

  it('refuses every password to a user created without one (no first login sets it); the web-loader token replaces the password', async () => {
    t = openTestStore(NOW);
    const user = await carol({ password: null });
    expect(await message({ credential: { kind: 'password', pass: 'chosen' } })).toBe('Password does not match.');
    expect(getUserById(t.store, user.id)!.passwordHash).toBeNull();
    expect(webLoaderToken(getUserById(t.store, user.id)!)).toBeNull();
    expect(await message({ credential: { kind: 'password', pass: undefined } })).toBe('Password does not match.');
    setUserPassword(t.store, user.id, await hashPassword('chosen'));
    expect(await message({ credential: { kind: 'password', pass: 'chosen' } })).toBe('ok');
    expect(await message({ credential: { kind: 'password', pass: 'other' } })).toBe('Password does not match.');
    const token = webLoaderToken(getUserById(t.store, user.id)!)!;
    expect(token).toMatch(/^[0-9a-f]{32}$/);
    expect(await message({ credential: { kind: 'token', token } })).toBe('ok');
    expect(await message({ credential: { kind: 'token', token: '0'.repeat(32) } })).toBe('Password does not match.');
    expect(await message({ credential: { kind: 'verified' } })).toBe('ok');
  });

  it('blacklists the IP too', async () => {
    t = openTestStore(NOW);
    await carol();
    addBlacklist(t.store, t.app.id, 'ip', '203.0.113.5');
    expect(await message({})).toBe("You've been blacklisted from our application");
    expect(await message({ ip: '203.0.113.6' })).toBe('ok');
  });

  it('refuses a session that ended meanwhile', async () => {
    t = openTestStore(NOW);
    await carol();
    const session = t.session(NOW);
    deleteSession(t.store, t.app.id, session.id);
    const result = await loginUser(t.store, t.app, session, { username: 'carol', credential: { kind: 'password', pass: 'right' }, hwid: HWID1, code: undefined, ip: '203.0.113.5' }, NOW);
    expect(result).toMatchObject({ ok: false, code: 'sessionnotfound' });
  });
});

describe('bans', () => {
  it('blacklist the HWID and IP, except loopback; unban removes them', async () => {
    t = openTestStore(NOW);
    await carol();
    banUser(t.store, t.app.id, 'carol', 'x', { hwid: HWID1, ip: '127.0.0.1' });
    banUser(t.store, t.app.id, 'carol', 'x', { hwid: HWID1, ip: '::1' });
    banUser(t.store, t.app.id, 'carol', 'x', { hwid: HWID1, ip: '::ffff:127.0.0.9' });
    expect(listBlacklists(t.store, t.app.id).map((b) => [b.type, b.hwid ?? b.ip])).toEqual([['hwid', HWID1]]);
    banUser(t.store, t.app.id, 'carol', 'x', { ip: '198.51.100.7' });
    expect(isBlacklisted(t.store, t.app.id, { ip: '198.51.100.7' })).toBe(true);
    expect(findUser(t.store, t.app.id, 'carol')!.banned).toBe('x');
    unbanUser(t.store, t.app.id, 'carol');
    expect(listBlacklists(t.store, t.app.id)).toEqual([]);
    expect(findUser(t.store, t.app.id, 'carol')!.banned).toBeNull();
    expect(banUser(t.store, t.app.id, 'nobody', 'x', {})).toBeUndefined();
  });

  it('recognises loopback addresses', () => {
    for (const ip of ['127.0.0.1', '127.1.2.3', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1']) expect(isLoopbackIp(ip), ip).toBe(true);
    for (const ip of ['10.0.0.1', '::2', '128.0.0.1', 'localhost', '']) expect(isLoopbackIp(ip), ip).toBe(false);
  });
});

describe('user changes', () => {
  it('rename cascades to chat, mutes, license usedby, sessions; subs and vars follow by id', async () => {
    t = openTestStore(NOW);
    const user = await carol();
    createChannel(t.store, t.app.id, 'general', 0);
    expect(sendChatMessage(t.store, t.app, { channel: 'general', author: 'carol', message: 'hi' }, NOW).ok).toBe(true);
    muteUser(t.store, t.app.id, 'carol', NOW + 60);
    setUserVar(t.store, t.app.id, user.id, 'color', 'blue');
    const made = generateLicenses(t.store, t.app.id, { expires: 60 }, NOW);
    const k = made.ok ? made.value[0]! : '';
    markLicenseUsed(t.store, findLicense(t.store, t.app.id, k)!.id, 'carol', NOW);
    const session = t.session(NOW);
    validateSession(t.store, session.id, 'carol');

    expect(renameUser(t.store, t.app.id, 'carol', 'caroline').ok).toBe(true);
    expect(getChatMessages(t.store, t.app.id, 'general')).toEqual([{ author: 'caroline', message: 'hi', timestamp: NOW }]);
    expect(t.store.get<{ user: string }>('SELECT user FROM chat_mutes')!.user).toBe('caroline');
    expect(findLicense(t.store, t.app.id, k)!.usedby).toBe('caroline');
    expect(findLiveSession(t.store, t.app.id, session.id, NOW)!.credential).toBe('caroline');
    expect(getUserVar(t.store, user.id, 'color')!.data).toBe('blue');
    expect(listUserSubs(t.store, user.id)).toHaveLength(1);

    createUser(t.store, t.app.id, { username: 'dave', passwordHash: null }, NOW);
    expect(renameUser(t.store, t.app.id, 'caroline', 'dave')).toMatchObject({ ok: false, code: 'taken', message: 'Username already used!' });
    expect(renameUser(t.store, t.app.id, 'nobody', 'x')).toMatchObject({ ok: false, code: 'notfound' });
  });

  it('delete removes subscriptions, variables and the user’s sessions', async () => {
    t = openTestStore(NOW);
    const user = await carol();
    setUserVar(t.store, t.app.id, user.id, 'color', 'blue');
    const session = t.session(NOW);
    validateSession(t.store, session.id, 'carol');
    expect(deleteUser(t.store, t.app.id, 'carol')).toBe(true);
    expect(t.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM user_subs')!.n).toBe(0);
    expect(t.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM user_vars')!.n).toBe(0);
    expect(findLiveSession(t.store, t.app.id, session.id, NOW)).toBeUndefined();
    expect(deleteUser(t.store, t.app.id, 'carol')).toBe(false);
  });

  it('pause stores remaining seconds; unpause adds now back', async () => {
    t = openTestStore(NOW);
    const user = await carol();
    expect(freezeSubs(t.store, { appId: t.app.id, userId: user.id }, NOW)).toBe(1);
    expect(listUserSubs(t.store, user.id)[0]).toMatchObject({ paused: 1, expiry: 3600 });
    expect(thawSubs(t.store, { appId: t.app.id }, NOW + 500)).toBe(1);
    expect(listUserSubs(t.store, user.id)[0]).toMatchObject({ paused: 0, expiry: NOW + 500 + 3600 });
  });
});

describe('TOTP', () => {
  it('matches the protocol page’s vector and accepts one step either side', () => {
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXPJBSWY3DP';
    expect(totpCode(secret, 1_700_000_000)).toBe('403374');
    expect(verifyTotp(secret, '403374', 1_700_000_000)).toBe(true);
    expect(verifyTotp(secret, '403374', 1_700_000_030)).toBe(true);
    expect(verifyTotp(secret, '403374', 1_700_000_090)).toBe(false);
    expect(verifyTotp(secret, 'abc', 1_700_000_000)).toBe(false);
    expect(newTotpSecret()).toMatch(/^[A-Z2-7]{40}$/);
  });
});
