/**
 * Issue 21 item 4: the customer panel had no attempt limits. Its 2FA step took the right code
 * after 3,000 wrong ones (the client API locks after 5), and sign-in took 400 wrong passwords in a
 * row. Now wrong codes count against the user in the client API's own count (panel and API
 * together: 5 per 15 minutes), wrong passwords are counted per username (10 per 15 minutes,
 * unknown usernames alike, so the lock does not tell who exists), and with rate limits on a
 * client IP may post 30 panel forms a minute.
 */
import { describe, expect, it } from 'vitest';
import { enable2fa, totpCode } from '../../../src/server/domain/twofa.js';
import { findUser } from '../../../src/server/domain/users.js';
import { formToken, isSignedIn, PanelBrowser, panelSetup } from '../../helpers/panel-browser.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { HWID } from '../support/client-fixtures.js';

const SECRET = 'JBSWY3DPEHPK3PXP';
const realNow = (): number => Math.floor(Date.now() / 1000);
const wrongCode = (): string => String((Number(totpCode(SECRET, realNow())) + 500_000) % 1_000_000).padStart(6, '0');

/** A browser at carol's 2FA step. */
async function atCodeStep(sb: TestSandbox, base: string): Promise<PanelBrowser> {
  const browser = new PanelBrowser(sb);
  const form = await browser.get(base);
  expect((await browser.post(`${base}login`, { username: 'carol', password: 'carol-pass-1', form_token: formToken(form) })).status).toBe(303);
  expect((await browser.get(base)).text).toContain('6-digit code from your authenticator');
  return browser;
}

describe('panel 2FA codes', () => {
  it('after 5 wrong codes even the right one is refused, and the client API counts with the panel', async () => {
    const sb = await startTestSandbox();
    const base = await panelSetup(sb);
    enable2fa(sb.store, findUser(sb.store, sb.app().id, 'carol')!.id, SECRET);
    // Two wrong codes through the program...
    for (let i = 0; i < 2; i++) {
      const sid = await sb.init();
      const login = await sb.client('login', { sessionid: sid, username: 'carol', pass: 'carol-pass-1', hwid: HWID, code: wrongCode() });
      expect(login.json.success).toBe(false);
    }
    // ...and three in the panel use up the five.
    const browser = await atCodeStep(sb, base);
    for (let i = 0; i < 3; i++) {
      const page = await browser.get(base);
      expect((await browser.post(`${base}2fa`, { code: wrongCode(), form_token: formToken(page) })).text).toContain('That code is not right.');
    }
    const page = await browser.get(base);
    const locked = await browser.post(`${base}2fa`, { code: totpCode(SECRET, realNow()), form_token: formToken(page) });
    expect(locked.status).toBe(429);
    expect(locked.text).toMatch(/Too many wrong 2FA codes\. Try again in 1[45] minutes\./);
    expect(await isSignedIn(browser, base, 'carol')).toBe(false);
    // The program is locked out of the 2FA step as well.
    const sid = await sb.init();
    const api = await sb.client('login', { sessionid: sid, username: 'carol', pass: 'carol-pass-1', hwid: HWID, code: totpCode(SECRET, realNow()) });
    expect(api.json.message).toMatch(/^Too many wrong 2FA codes/);
    // After the window the right code works again.
    await sb.advance(15 * 60 + 1);
    const again = await atCodeStep(sb, base);
    const fresh = await again.get(base);
    expect((await again.post(`${base}2fa`, { code: totpCode(SECRET, realNow()), form_token: formToken(fresh) })).status).toBe(303);
    expect(await isSignedIn(again, base, 'carol')).toBe(true);
  });
});

describe('panel passwords', () => {
  it('10 wrong passwords lock the username, the right one included; an unknown username locks the same way', async () => {
    const sb = await startTestSandbox();
    const base = await panelSetup(sb);
    const browser = new PanelBrowser(sb);
    for (const username of ['carol', 'nobody-here']) {
      for (let i = 0; i < 10; i++) {
        const form = await browser.get(base);
        const wrong = await browser.post(`${base}login`, { username, password: `guess-${i}`, form_token: formToken(form) });
        expect(wrong.status).toBe(400);
        expect(wrong.text).toContain('The username or password is wrong.');
      }
      const form = await browser.get(base);
      const locked = await browser.post(`${base}login`, { username, password: 'carol-pass-1', form_token: formToken(form) });
      expect(locked.status, username).toBe(429);
      expect(locked.text).toMatch(/Too many wrong passwords for this username\. Try again in 1[45] minutes\./);
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(await isSignedIn(browser, base, 'carol')).toBe(false);
    // Other usernames are not locked.
    expect((await sb.seller('adduser', { user: 'dave', pass: 'dave-pass-1', sub: 'default', expiry: '30' })).json.success).toBe(true);
    const form = await browser.get(base);
    expect((await browser.post(`${base}login`, { username: 'dave', password: 'dave-pass-1', form_token: formToken(form) })).status).toBe(303);
  });

  it('a right password clears the count of wrong ones', async () => {
    const sb = await startTestSandbox();
    const base = await panelSetup(sb);
    for (let round = 0; round < 3; round++) {
      const browser = new PanelBrowser(sb);
      for (let i = 0; i < 9; i++) {
        const form = await browser.get(base);
        expect((await browser.post(`${base}login`, { username: 'carol', password: 'nope', form_token: formToken(form) })).status).toBe(400);
      }
      const form = await browser.get(base);
      expect((await browser.post(`${base}login`, { username: 'carol', password: 'carol-pass-1', form_token: formToken(form) })).status).toBe(303);
    }
  });

  it('with rate limits on, a client IP may post 30 panel forms a minute', async () => {
    const sb = await startTestSandbox({ rateLimit: true });
    const base = await panelSetup(sb);
    const browser = new PanelBrowser(sb);
    const form = await browser.get(base);
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await browser.post(`${base}login`, { username: `user-${i}`, password: 'x', form_token: formToken(form) })).status);
    expect(statuses.slice(0, 30).every((status) => status === 400)).toBe(true);
    const refused = await browser.post(`${base}login`, { username: 'carol', password: 'carol-pass-1', form_token: formToken(form) });
    expect(refused.status).toBe(429);
    expect(refused.text).toContain('Too many attempts from this address.');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
