/** init / check / logout over real HTTP (docs/protocol/client-api.md §4.1, §4.7, §4.8, §3). */
import { describe, expect, it } from 'vitest';
import { fakeClock, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { pauseApp, updateAppSettings } from '../../src/server/domain/apps.js';
import { generateLicenses } from '../../src/server/domain/licenses.js';
import { setAppMessage } from '../../src/server/domain/messages.js';
import { banToken, createToken } from '../../src/server/domain/tokens.js';
import { countTransactions } from './support/count-transactions.js';

function keysFor(sb: TestSandbox, amount = 1): string[] {
  const made = generateLicenses(sb.store, sb.app().id, { amount, expires: 86_400 }, Math.floor(Date.now() / 1000));
  if (!made.ok) throw new Error(made.message);
  return made.value;
}

const NA = 'N/A - Use fetchStats() function in latest example';

describe('init', () => {
  it('opens a session and answers in the observed 1.3 field order', async () => {
    const sb = await startTestSandbox();
    const res = await sb.client('init', { ver: '1.0', hash: 'abc' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.json)).toEqual(['success', 'code', 'message', 'sessionid', 'appinfo', 'newSession', 'nonce', 'ownerid']);
    expect(res.json).toMatchObject({ success: true, code: 68, message: 'Initialized', newSession: true, ownerid: sb.info.app.ownerid });
    expect(res.json.appinfo).toEqual({
      numUsers: NA,
      numOnlineUsers: NA,
      numKeys: NA,
      version: '1.0',
      customerPanelLink: `${sb.baseUrl}/panel/sandbox-owner/sandbox-app/`,
    });
    expect(res.json.sessionid).toMatch(/^[A-Za-z0-9]{10}$/);
    expect(res.json.nonce).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // No CORS header for a program (no Origin); pages have theirs (test/server/hardening/origins.test.ts).
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('gives every init its own session, even from one IP', async () => {
    const sb = await startTestSandbox();
    const ids = await Promise.all(Array.from({ length: 10 }, () => sb.init()));
    expect(new Set(ids).size).toBe(10);
    for (const id of ids) expect((await sb.client('logout', { sessionid: id })).json.success).toBe(true);
  });

  it('accepts POST form bodies and reads the body before the query', async () => {
    const sb = await startTestSandbox();
    const res = await sb.request(`/api/1.3/?type=bogus&ver=9.9`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ type: 'init', ver: '1.0', name: sb.info.app.name, ownerid: sb.info.app.ownerid }).toString(),
    });
    expect(res.json).toMatchObject({ success: true, message: 'Initialized' });
  });

  it('answers invalidver with the download link', async () => {
    const sb = await startTestSandbox();
    const res = await sb.client('init', { ver: '9.9' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: false, code: 0, message: 'invalidver', download: '', ownerid: sb.info.app.ownerid });
  });

  it('lets an init without ver through (no version check)', async () => {
    const sb = await startTestSandbox();
    expect((await sb.client('init')).json.success).toBe(true);
  });

  it('refuses an enckey longer than 35 characters, in 1.3 and 1.2', async () => {
    const sb = await startTestSandbox();
    const message = 'The paramater "enckey" is too long. Must be 35 characters or less.';
    expect((await sb.client('init', { enckey: 'k'.repeat(36) })).json.message).toBe(message);
    const res12 = await sb.client('init', { enckey: 'k'.repeat(36) }, { api: '1.2', method: 'POST' });
    expect(res12.text).toBe('{"success":false,"message":"The paramater \\"enckey\\" is too long. Must be 35 characters or less."}');
    expect((await sb.client('init', { enckey: 'k'.repeat(35) })).json.success).toBe(true);
  });
});

describe('init against app settings', () => {
  it('refuses a disabled app with appdisabled', async () => {
    const sb = await startTestSandbox();
    updateAppSettings(sb.store, sb.app().id, { enabled: false });
    expect((await sb.client('init', { ver: '1.0' })).json).toMatchObject({ success: false, message: 'This application is disabled' });
  });

  it('refuses a paused app with pausedApp', async () => {
    const sb = await startTestSandbox();
    pauseApp(sb.store, sb.app().id, Math.floor(Date.now() / 1000));
    expect((await sb.client('init')).json.message).toBe('Application is currently paused, please wait for the developer to say otherwise.');
  });

  it('demands an enckey when encryption is forced', async () => {
    const sb = await startTestSandbox();
    updateAppSettings(sb.store, sb.app().id, { forceEncryption: true });
    expect((await sb.client('init')).json.message).toBe('No encryption key supplied, encryption is forced.');
    expect((await sb.client('init', { enckey: 'abcdef0123456789' })).json.success).toBe(true);
  });

  it('stores the first program hash and refuses others', async () => {
    const sb = await startTestSandbox();
    updateAppSettings(sb.store, sb.app().id, { hashcheck: true });
    const refused = "This program hash does not match, make sure you're using latest version";
    expect((await sb.client('init')).json.message).toBe(refused);
    expect((await sb.client('init', { hash: 'aaaa1111' })).json.success).toBe(true);
    expect((await sb.client('init', { hash: 'aaaa1111' })).json.success).toBe(true);
    expect((await sb.client('init', { hash: 'bbbb2222' })).json.message).toBe(refused);
  });

  it('opens a transaction only when the token or program hash check reads what the session must agree with', async () => {
    // Inspector off: its batched writes are transactions of their own.
    const sb = await startTestSandbox({ logLimit: 0 });
    await sb.init(); // the first init of the app purges expired sessions, in a transaction
    let transactions = countTransactions(sb.store);
    await sb.init();
    expect((await sb.client('init', { ver: '0.9' })).json.message).toBe('invalidver');
    expect(transactions.count).toBe(0);
    updateAppSettings(sb.store, sb.app().id, { hashcheck: true });
    transactions = countTransactions(sb.store);
    expect((await sb.client('init', { hash: 'aaaa1111' })).json.success).toBe(true);
    expect(transactions.count).toBeGreaterThan(0);
  });

  it('uses the app version and custom messages', async () => {
    const sb = await startTestSandbox();
    updateAppSettings(sb.store, sb.app().id, { ver: '2.5', download: 'https://example.com/app.exe', enabled: false });
    setAppMessage(sb.store, sb.app().id, 'appdisabled', 'Closed for maintenance');
    expect((await sb.client('init', { ver: '2.5' })).json.message).toBe('Closed for maintenance');
    updateAppSettings(sb.store, sb.app().id, { enabled: true });
    const old = await sb.client('init', { ver: '1.0' });
    expect(old.json).toMatchObject({ message: 'invalidver', download: 'https://example.com/app.exe' });
    const old12 = await sb.client('init', { ver: '1.0' }, { api: '1.2' });
    expect(old12.text).toBe('{"success":false,"message":"invalidver","download":"https://example.com/app.exe"}');
    expect((await sb.client('init', { ver: '2.5' })).json.appinfo.version).toBe('2.5');
  });

  it('runs the token system checks in order', async () => {
    const sb = await startTestSandbox();
    const app = sb.app();
    updateAppSettings(sb.store, app.id, { tokensystem: true });
    const good = createToken(sb.store, app.id, { assigned: 'someone' }).token;
    const banned = createToken(sb.store, app.id, {}).token;
    banToken(sb.store, app.id, banned, 'Leaked');

    expect((await sb.client('init')).json.message).toBe('Token Must Be Provided');
    expect((await sb.client('init', { token: good })).json.message).toBe('Hash Must Be Provided');
    expect((await sb.client('init', { token: 'f'.repeat(32), thash: 'h1' })).json.message).toBe('Token Invalid');
    expect((await sb.client('init', { token: banned, thash: 'h1' })).json.message).toBe(
      'The Token Has Been Blacklisted For The Following Reason: Leaked Contact Application Developer If This Is A Mistake',
    );
    expect((await sb.client('init', { token: good, thash: 'h1' })).json.success).toBe(true);
    expect((await sb.client('init', { token: good, thash: 'h2' })).json.message).toBe('Token File Hashes Must Be The Same');
    expect((await sb.client('init', { token: good, thash: 'h1' })).json.success).toBe(true);
  });
});

describe('check and logout', () => {
  it('reports an unvalidated session with the app message, signed', async () => {
    const sb = await startTestSandbox();
    const sid = await sb.init();
    const res = await sb.client('check', { sessionid: sid });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: false, code: 0, message: 'Session is not validated', ownerid: sb.info.app.ownerid });
    expect(sb.verify13(res)).toBe(true);
  });

  it('answers a validated session with role not_checked, or the owner role with check_paid=1', async () => {
    const sb = await startTestSandbox();
    const [key] = keysFor(sb);
    const sid = await sb.init();
    expect((await sb.client('register', { sessionid: sid, username: 'alice', pass: 'pw', key })).json.success).toBe(true);
    const res = await sb.client('check', { sessionid: sid });
    expect(res.status).toBe(200);
    expect(Object.keys(res.json)).toEqual(['success', 'code', 'message', 'role', 'nonce', 'ownerid']);
    expect(res.json).toMatchObject({ success: true, code: 68, message: 'Session is validated.', role: 'not_checked' });
    expect((await sb.client('check', { sessionid: sid, check_paid: '1' })).json.role).toBe('seller');
    const res12 = await sb.client('check', { sessionid: sid }, { api: '1.2' });
    expect(Object.keys(res12.json)).toEqual(['success', 'message', 'nonce']);
    expect(res12.json.nonce).toMatch(/^[A-Za-z0-9]{32}$/);
  });

  it('ends the session on logout; later calls get Session not found', async () => {
    const sb = await startTestSandbox();
    const sid = await sb.init();
    const out = await sb.client('logout', { sessionid: sid });
    expect(out.status).toBe(200);
    expect(out.json).toMatchObject({ success: true, code: 68, message: 'Successfully logged out.' });
    const again = await sb.client('check', { sessionid: sid });
    expect(again.status).toBe(200);
    expect(again.json.message).toBe('Session not found. If you get this frequently, ask the developer to use the latest example code');
    expect(sb.verify13(again)).toBe(true);
  });

  it('refuses a missing or unknown sessionid', async () => {
    const sb = await startTestSandbox();
    const notFound = 'Session not found. If you get this frequently, ask the developer to use the latest example code';
    expect((await sb.client('check')).json.message).toBe(notFound);
    expect((await sb.client('logout', { sessionid: 'ZZZZZZZZZZ' })).json.message).toBe(notFound);
  });

  it('expires sessions after the app session length, with no sliding renewal', async () => {
    const clock = fakeClock();
    const sb = await startTestSandbox({ now: clock.now });
    const sid = await sb.init();
    clock.advance(21_000);
    expect((await sb.client('check', { sessionid: sid })).json.message).toBe('Session is not validated');
    clock.advance(599);
    expect((await sb.client('check', { sessionid: sid })).json.message).toBe('Session is not validated');
    clock.advance(1);
    expect((await sb.client('check', { sessionid: sid })).json.message).toMatch(/^Session not found/);
  });

  it('does not reach another app’s session', async () => {
    const sb = await startTestSandbox();
    const sid = await sb.init();
    const res = await sb.client('check', { sessionid: sid, name: 'other' });
    expect(res.text).toBe('KeyAuth_Invalid');
  });
});
