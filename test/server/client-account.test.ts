/**
 * ban, checkblacklist, changeUsername, fetchOnline, fetchStats, log, forgot and the reset page,
 * over real HTTP (docs/protocol/client-api.md §4.9, §4.10, §4.18–4.22).
 */
import { describe, expect, it } from 'vitest';
import { hmacHex, startTestSandbox } from '../helpers/sandbox.js';
import { addBlacklist, listBlacklists } from '../../src/server/domain/blacklists.js';
import { createChannel, getChatMessages } from '../../src/server/domain/chat.js';
import { listLogs } from '../../src/server/domain/logs.js';
import { findUser } from '../../src/server/domain/users.js';
import { updateAppSettings } from '../../src/server/domain/apps.js';
import { HWID, hmacKey, init12, loginSession, newKey, OTHER_HWID, registerUser, SESSION_NOT_FOUND, withoutNonce } from './support/client-fixtures.js';

const V12 = { api: '1.2', method: 'POST' } as const;

describe('ban', () => {
  it('bans the user and blacklists the HWID sent, never the loopback IP; the session lives on', async () => {
    const sb = await startTestSandbox();
    const { sid, username, pass } = await registerUser(sb);
    const res = await sb.client('ban', { sessionid: sid, reason: 'tampering', hwid: OTHER_HWID });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, code: 68, message: 'Successfully Banned User' });
    expect(findUser(sb.store, sb.app().id, username)!.banned).toBe('tampering');
    expect(listBlacklists(sb.store, sb.app().id).map((row) => [row.type, row.hwid, row.ip])).toEqual([['hwid', OTHER_HWID, null]]);
    expect((await sb.client('check', { sessionid: sid })).json.success).toBe(true);
    const again = await sb.client('login', { sessionid: await sb.init(), username, pass, hwid: HWID });
    expect(again.json.message).toBe('The user is banned');
    // Loopback was not blacklisted: another user still logs in from here.
    const other = await registerUser(sb, { username: 'bystander' });
    expect((await sb.client('check', { sessionid: other.sid })).json.success).toBe(true);
  });

  it('uses the default reason, answers the same on 1.2, refuses long reasons and unlogged sessions', async () => {
    const sb = await startTestSandbox();
    const { username, pass } = await registerUser(sb);
    const sid = await init12(sb);
    await sb.client('login', { sessionid: sid, username, pass, hwid: HWID }, V12);
    expect((await sb.client('ban', { sessionid: sid, reason: 'r'.repeat(100) }, V12)).text).toBe('{"success":false,"message":"Reason must be 99 characters or less"}');
    const res = await sb.client('ban', { sessionid: sid }, V12);
    expect(withoutNonce(res.text)).toBe('{"success":true,"message":"Successfully Banned User","nonce":"N"}');
    expect(findUser(sb.store, sb.app().id, username)!.banned).toBe('User banned from triggering ban function in the client');
    expect((await sb.client('ban', { sessionid: await sb.init() })).json.message).toBe('Session is not validated');
  });
});

describe('checkblacklist', () => {
  it('is inverted on both versions: success means blacklisted', async () => {
    const sb = await startTestSandbox();
    const sid = await sb.init();
    const clean = await sb.client('checkblacklist', { sessionid: sid, hwid: HWID });
    expect(clean.status).toBe(200);
    expect(clean.json).toEqual({ success: false, code: 0, message: 'Client is not blacklisted', ownerid: sb.info.app.ownerid });
    addBlacklist(sb.store, sb.app().id, 'hwid', HWID);
    expect((await sb.client('checkblacklist', { sessionid: sid, hwid: HWID })).json).toMatchObject({ success: true, code: 68, message: 'Client is blacklisted' });
    const sid12 = await init12(sb);
    const res12 = await sb.client('checkblacklist', { sessionid: sid12, hwid: HWID }, V12);
    expect(withoutNonce(res12.text)).toBe('{"success":true,"message":"Client is blacklisted","nonce":"N"}');
    expect((await sb.client('checkblacklist', { sessionid: sid12, hwid: OTHER_HWID }, V12)).text).toBe('{"success":false,"message":"Client is not blacklisted"}');
    addBlacklist(sb.store, sb.app().id, 'ip', '127.0.0.1');
    expect((await sb.client('checkblacklist', { sessionid: sid })).json.message).toBe('Client is blacklisted');
    expect((await sb.client('checkblacklist', {})).json.message).toBe(SESSION_NOT_FOUND);
  });
});

describe('changeUsername', () => {
  it('renames the user (subscriptions, chat follow) and ends the session', async () => {
    const sb = await startTestSandbox();
    createChannel(sb.store, sb.app().id, 'general', 0);
    const { sid, pass } = await registerUser(sb);
    await sb.client('chatsend', { sessionid: sid, channel: 'general', message: 'hi' });
    const res = await sb.client('changeUsername', { sessionid: sid, newUsername: 'alicia' });
    expect(res.json).toMatchObject({ success: true, code: 68, message: 'Successfully changed username, user logged out.' });
    expect((await sb.client('check', { sessionid: sid })).json.message).toBe(SESSION_NOT_FOUND);
    expect(getChatMessages(sb.store, sb.app().id, 'general')[0]!.author).toBe('alicia');
    const login = await sb.client('login', { sessionid: await sb.init(), username: 'alicia', pass, hwid: HWID });
    expect(login.json).toMatchObject({ success: true, info: { username: 'alicia' } });
    expect(login.json.info.subscriptions).toHaveLength(1);
  });

  it('refuses a taken, empty, too short or too long name, and unlogged sessions', async () => {
    const sb = await startTestSandbox();
    await registerUser(sb, { username: 'bob' });
    const { sid } = await registerUser(sb, { username: 'alice' });
    const rename = async (newUsername: string | undefined) => (await sb.client('changeUsername', { sessionid: sid, newUsername })).json.message as string;
    expect(await rename('bob')).toBe('Username already used!');
    expect(await rename(undefined)).toBe('Username too short, try longer one.');
    updateAppSettings(sb.store, sb.app().id, { minUsernameLength: 6 });
    expect(await rename('carol')).toBe('Username too short, try longer one.');
    expect(await rename('c'.repeat(71))).toBe('Username must be shorter than 70 characters');
    expect((await sb.client('check', { sessionid: sid })).json.success).toBe(true);
    expect((await sb.client('changeUsername', { sessionid: await sb.init(), newUsername: 'zed' })).json.message).toBe('Session is not validated');
  });
});

describe('fetchOnline and fetchStats', () => {
  it('lists logged-in users once each, masked past 10 characters', async () => {
    const sb = await startTestSandbox();
    const anonymous = await sb.init();
    expect((await sb.client('fetchOnline', { sessionid: anonymous })).json).toMatchObject({ success: false, message: 'No online users found!' });
    const { username, pass } = await registerUser(sb, { username: 'refuser' });
    await loginSession(sb, username, pass);
    await registerUser(sb, { username: 'averyveryverylongname' });
    const res = await sb.client('fetchOnline', { sessionid: anonymous });
    expect(res.json).toMatchObject({ success: true, code: 68, message: 'Successfully fetched online users.' });
    const credentials = (res.json.users as { credential: string }[]).map((user) => user.credential);
    expect(credentials.sort()).toEqual(['averyveryv***********', 'refuser']);
  });

  it('answers the real counts as strings, byte for byte on 1.2 (capture 21)', async () => {
    const sb = await startTestSandbox();
    const { username, pass } = await registerUser(sb, { username: 'refuser' });
    newKey(sb);
    newKey(sb);
    const sid = await init12(sb);
    await sb.client('login', { sessionid: sid, username, pass, hwid: HWID }, V12);
    const res = await sb.client('fetchStats', { sessionid: sid }, V12);
    const link = `${sb.baseUrl}/panel/sandbox-owner/sandbox-app/`.replace(/\//g, '\\/');
    // Online: the register's session and this one.
    expect(withoutNonce(res.text)).toBe(`{"success":true,"message":"Successfully fetched stats","appinfo":{"numUsers":"1","numOnlineUsers":"2","numKeys":"3","version":"1.0","customerPanelLink":"${link}"},"nonce":"N"}`);
    const res13 = await sb.client('fetchStats', { sessionid: await sb.init() });
    expect(res13.json.appinfo).toEqual({ numUsers: '1', numOnlineUsers: '2', numKeys: '3', version: '1.0', customerPanelLink: `${sb.baseUrl}/panel/sandbox-owner/sandbox-app/` });
  });
});

describe('log', () => {
  it('1.2: an empty, unsigned answer (capture 19); the line is kept with the credential', async () => {
    const sb = await startTestSandbox();
    const { username, pass } = await registerUser(sb, { username: 'refuser' });
    const sid = await init12(sb);
    await sb.client('login', { sessionid: sid, username, pass, hwid: HWID }, V12);
    const res = await sb.client('log', { sessionid: sid, message: 'ref-log-line', pcuser: 'tester' }, V12);
    expect(res.status).toBe(200);
    expect(res.bytes.length).toBe(0);
    expect(res.headers.get('signature')).toBeNull();
    expect((await sb.client('log', { sessionid: sid, message: 'x'.repeat(276) }, V12)).bytes.length).toBe(0);
    expect(listLogs(sb.store, sb.app().id).map((row) => [row.logdata, row.credential, row.pcuser])).toEqual([['ref-log-line', 'refuser', 'tester']]);
  });

  it('1.3: signed JSON of at least 32 bytes; blank and over-long lines are refused and not kept', async () => {
    const sb = await startTestSandbox();
    const sid = await sb.init();
    const res = await sb.client('log', { sessionid: sid, message: 'hello', pcuser: 'p'.repeat(40) });
    expect(res.status).toBe(200);
    expect(sb.verify13(res)).toBe(true);
    expect(res.bytes.length).toBeGreaterThanOrEqual(32);
    expect(Object.keys(res.json)).toEqual(['success', 'code', 'message', 'nonce', 'ownerid']);
    expect(res.json).toMatchObject({ success: true, code: 68, message: 'Log sent' });
    expect((await sb.client('log', { sessionid: sid })).json.message).toBe('No log message provided');
    expect((await sb.client('log', { sessionid: sid, message: 'x'.repeat(276) })).json.message).toBe('Log message must be 275 characters or less');
    expect(listLogs(sb.store, sb.app().id).map((row) => [row.logdata, row.credential, row.pcuser])).toEqual([['hello', null, 'p'.repeat(32)]]);
    expect((await sb.client('log', { message: 'x' })).json.message).toBe(SESSION_NOT_FOUND);
  });
});

describe('forgot and the reset page', () => {
  it('refuses an unknown user, a user without email, and the wrong email', async () => {
    const sb = await startTestSandbox();
    await registerUser(sb, { username: 'noemail' });
    await registerUser(sb, { username: 'nina', email: 'nina@example.com' });
    const sid = await sb.init();
    const forgot = async (params: Record<string, string | undefined>) => (await sb.client('forgot', { sessionid: sid, ...params })).json.message as string;
    expect(await forgot({ username: 'nobody', email: 'x@example.com' })).toBe('No user found with that username!');
    expect(await forgot({ email: 'x@example.com' })).toBe('No user found with that username!');
    expect(await forgot({ username: 'noemail', email: 'x@example.com' })).toBe('Email address not provided during register, ask developer to edit your account and change email.');
    expect(await forgot({ username: 'nina', email: 'other@example.com' })).toBe("Email address doesn't match!");
    expect(await forgot({ username: 'nina' })).toBe("Email address doesn't match!");
    expect(await sb.outbox({ kind: 'password-reset' })).toEqual([]);
  });

  it('mails a link to a page that really sets the password (once) and logs the user out', async () => {
    const sb = await startTestSandbox();
    const { sid: loggedIn, pass } = await registerUser(sb, { username: 'nina', email: 'nina@example.com' });
    const res = await sb.client('forgot', { sessionid: await sb.init(), username: 'nina', email: 'NINA@example.com' });
    expect(res.json).toMatchObject({ success: true, code: 68, message: 'Successfully sent email to change password.' });
    const [mail] = await sb.outbox({ kind: 'password-reset' });
    const secret = mail!.data['secret'] as string;
    expect(secret).toMatch(/^[0-9a-f]{32}$/);
    expect(mail).toMatchObject({ to: 'NINA@example.com', link: `${sb.baseUrl}/sandbox/reset/${secret}`, data: { username: 'nina' } });
    expect(mail!.text).toContain(mail!.link);
    const path = `/sandbox/reset/${secret}`;

    const page = await sb.page(path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('nina');
    expect(page.text).toContain(`<form method="post" action="${path}">`);
    expect(page.text).toMatch(/<label for="password">[^<]+<\/label>\s*<input id="password" name="password" type="password"/);
    expect(page.text).not.toMatch(/<script/i);
    expect(page.headers.get('x-frame-options')).toBe('DENY');

    expect((await sb.page(path, { password: 'new one', confirm: 'other' })).text).toContain('The two passwords differ');
    expect((await sb.page(path, { password: 'new one' })).status).toBe(400);
    const done = await sb.page(path, { password: 'new one', confirm: 'new one' });
    expect(done.status).toBe(200);
    expect(done.text).toContain('Password changed');

    expect((await sb.client('check', { sessionid: loggedIn })).json.message).toBe(SESSION_NOT_FOUND);
    const sid = await sb.init();
    expect((await sb.client('login', { sessionid: sid, username: 'nina', pass, hwid: HWID })).json.message).toBe('Password does not match.');
    expect((await sb.client('login', { sessionid: sid, username: 'nina', pass: 'new one', hwid: HWID })).json.success).toBe(true);
    const reused = await sb.page(path, { password: 'third', confirm: 'third' });
    expect(reused.status).toBe(410);
    expect(reused.text).toContain('already been used');
    expect((await sb.page('/sandbox/reset/00000000000000000000000000000000')).status).toBe(404);
  });

  it('expires the link after 24 hours (admin clock)', async () => {
    const sb = await startTestSandbox();
    await registerUser(sb, { username: 'nina', email: 'nina@example.com' });
    await sb.client('forgot', { sessionid: await sb.init(), username: 'nina', email: 'nina@example.com' });
    const path = new URL((await sb.outbox({ kind: 'password-reset' }))[0]!.link!).pathname;
    await sb.advance(24 * 3600);
    const page = await sb.page(path);
    expect(page.status).toBe(410);
    expect(page.text).toContain('expired');
    expect((await sb.page(path, { password: 'x', confirm: 'x' })).status).toBe(410);
  });
});

describe('1.2 signatures on the account answers', () => {
  it('signs with enckey-secret', async () => {
    const sb = await startTestSandbox();
    const sid = await init12(sb);
    const res = await sb.client('fetchOnline', { sessionid: sid }, V12);
    expect(res.headers.get('signature')).toBe(hmacHex(hmacKey(sb, 'clientenckey0001'), res.bytes));
  });
});
