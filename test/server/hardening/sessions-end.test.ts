/**
 * Issue 9 item 5: a seller's pauseuser, license ban, resetpw and pauseapp end the affected live
 * sessions: `check` and `setvar` on them are refused, as a new login is.
 * Issue 21 item 9: the customer panel's sign-ins end with them (they outlived every one of
 * these, and after `unbanuser` the old panel cookie was signed in again), a password changed in
 * the panel ends the user's client sessions and every other panel sign-in, and the panel takes
 * a new password only under the register rules (any length was taken).
 */
import { describe, expect, it } from 'vitest';
import { formToken, isSignedIn, signedInBrowser } from '../../helpers/panel-browser.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { HWID, loginSession, newKey, registerUser } from '../support/client-fixtures.js';

/** domain/password-rules.ts MAX_PASSWORD_LENGTH, spelled out so this file runs against older code too. */
const MAX_PASSWORD_LENGTH = 256;

async function expectEnded(sb: TestSandbox, sid: string): Promise<void> {
  expect((await sb.client('check', { sessionid: sid })).json.success).toBe(false);
  expect((await sb.client('setvar', { sessionid: sid, var: 'note', data: 'still here' })).json.success).toBe(false);
}

async function expectLive(sb: TestSandbox, sid: string): Promise<void> {
  expect((await sb.client('check', { sessionid: sid })).json.success).toBe(true);
}

describe('seller actions end live sessions', () => {
  it('pauseuser', async () => {
    const sb = await startTestSandbox();
    const alice = await registerUser(sb, { username: 'alice' });
    const bob = await registerUser(sb, { username: 'bob' });
    expect((await sb.seller('pauseuser', { username: 'alice' })).json.success).toBe(true);
    await expectEnded(sb, alice.sid);
    await expectLive(sb, bob.sid);
  });

  it('license ban, for the user made from that license', async () => {
    const sb = await startTestSandbox();
    const key = newKey(sb);
    const sid = await sb.init();
    expect((await sb.client('license', { sessionid: sid, key, hwid: HWID })).json.success).toBe(true);
    const other = await registerUser(sb, { username: 'other' });
    expect((await sb.seller('ban', { key, reason: 'chargeback' })).json.success).toBe(true);
    await expectEnded(sb, sid);
    await expectLive(sb, other.sid);
    const again = await sb.init();
    expect((await sb.client('license', { sessionid: again, key, hwid: HWID })).json.success).toBe(false);
  });

  it('resetpw', async () => {
    const sb = await startTestSandbox();
    const alice = await registerUser(sb, { username: 'alice' });
    expect((await sb.seller('resetpw', { user: 'alice', passwd: 'new secret' })).json.success).toBe(true);
    await expectEnded(sb, alice.sid);
  });

  it('pauseapp', async () => {
    const sb = await startTestSandbox();
    const alice = await registerUser(sb, { username: 'alice' });
    expect((await sb.seller('pauseapp')).json.success).toBe(true);
    await expectEnded(sb, alice.sid);
  });
});

/** A user `alice` logged in to the program (sid) and signed in to the panel in two browsers. */
async function everywhere(sb: TestSandbox) {
  const alice = await registerUser(sb, { username: 'alice', pass: 'alice-pass-1' });
  const base = new URL((await sb.client('init')).json.appinfo.customerPanelLink as string).pathname;
  const home = await signedInBrowser(sb, base, 'alice', 'alice-pass-1');
  const other = await signedInBrowser(sb, base, 'alice', 'alice-pass-1');
  return { alice, base, home, other };
}

describe('seller actions and password changes end panel sign-ins too', () => {
  it.each([
    ['resetpw', { type: 'resetpw', params: { user: 'alice', passwd: 'reset-pass-2' } }],
    ['pauseuser', { type: 'pauseuser', params: { username: 'alice' } }],
    ['banuser', { type: 'banuser', params: { user: 'alice', reason: 'chargeback' } }],
  ])('%s', async (_name, action) => {
    const sb = await startTestSandbox();
    const { alice, base, home, other } = await everywhere(sb);
    const bob = await registerUser(sb, { username: 'bob', pass: 'bob-pass-1' });
    const bobPanel = await signedInBrowser(sb, base, 'bob', 'bob-pass-1');
    expect((await sb.seller(action.type, action.params)).json.success).toBe(true);
    await expectEnded(sb, alice.sid);
    expect(await isSignedIn(home, base, 'alice')).toBe(false);
    expect(await isSignedIn(other, base, 'alice')).toBe(false);
    await expectLive(sb, bob.sid);
    expect(await isSignedIn(bobPanel, base, 'bob')).toBe(true);
  });

  it('a ban lifted by unbanuser does not sign the old panel cookie in again', async () => {
    const sb = await startTestSandbox();
    const { base, home } = await everywhere(sb);
    expect((await sb.seller('banuser', { user: 'alice', reason: 'chargeback' })).json.success).toBe(true);
    expect((await sb.seller('unbanuser', { user: 'alice' })).json.success).toBe(true);
    expect(await isSignedIn(home, base, 'alice')).toBe(false);
    // Signing in again works.
    await signedInBrowser(sb, base, 'alice', 'alice-pass-1');
  });

  it('a license ban ends the panel sign-in of the user made from it', async () => {
    const sb = await startTestSandbox();
    const { alice, base, home } = await everywhere(sb);
    expect((await sb.seller('ban', { key: alice.key, reason: 'chargeback' })).json.success).toBe(true);
    expect(await isSignedIn(home, base, 'alice')).toBe(false);
  });

  it('the client ban ends the panel sign-in (the program keeps its session, as the real service)', async () => {
    const sb = await startTestSandbox();
    const { alice, base, home } = await everywhere(sb);
    expect((await sb.client('ban', { sessionid: alice.sid })).json.success).toBe(true);
    expect((await sb.seller('unbanuser', { user: 'alice' })).json.success).toBe(true);
    expect(await isSignedIn(home, base, 'alice')).toBe(false);
  });

  it('a password changed in the panel ends the client sessions and every other panel sign-in; this browser stays in', async () => {
    const sb = await startTestSandbox();
    const { alice, base, home, other } = await everywhere(sb);
    const second = await loginSession(sb, 'alice', 'alice-pass-1');
    const page = await home.get(base);
    const changed = await home.post(`${base}password`, { current: 'alice-pass-1', password: 'alice-pass-2', confirm: 'alice-pass-2', form_token: formToken(page) });
    expect(changed.status).toBe(303);
    expect(await isSignedIn(home, base, 'alice')).toBe(true);
    expect(await isSignedIn(other, base, 'alice')).toBe(false);
    await expectEnded(sb, alice.sid);
    await expectEnded(sb, second);
    await loginSession(sb, 'alice', 'alice-pass-2');
  });

  it('the panel takes a new password only under the register rules', async () => {
    const sb = await startTestSandbox();
    expect((await sb.seller('updatesettings', { blockleakedpasswords: 'true' })).json.success).toBe(true);
    const { base, home } = await everywhere(sb);
    const tooLong = 'x'.repeat(MAX_PASSWORD_LENGTH + 1);
    for (const [next, message] of [[tooLong, `Password must be ${MAX_PASSWORD_LENGTH} characters or less`], ['password123', 'leaked in a data breach']] as const) {
      const page = await home.get(base);
      const refused = await home.post(`${base}password`, { current: 'alice-pass-1', password: next, confirm: next, form_token: formToken(page) });
      expect(refused.status).toBe(400);
      expect(refused.text).toContain(message);
    }
    await loginSession(sb, 'alice', 'alice-pass-1');
    // register applies the same rule
    const sid = await sb.init();
    const registered = await sb.client('register', { sessionid: sid, username: 'dave', pass: tooLong, key: newKey(sb), hwid: HWID });
    expect(registered.json).toMatchObject({ success: false, message: `Password must be ${MAX_PASSWORD_LENGTH} characters or less` });
  });
});
