/**
 * The customer panel over real HTTP, as a browser without JavaScript uses it: the link init
 * hands out answers; sign-in (then the 2FA code), subscriptions with time left, HWID reset
 * under the cooldown, password change, sign-out; cookies HttpOnly + SameSite=Lax; POSTs without
 * the form token refused. On the old code the panel link answered 404.
 */
import { describe, expect, it } from 'vitest';
import { enable2fa, totpCode } from '../../src/server/domain/twofa.js';
import { findUser } from '../../src/server/domain/users.js';
import { formToken, PanelBrowser as Browser, panelSetup } from '../helpers/panel-browser.js';
import { startTestSandbox } from '../helpers/sandbox.js';

describe('customer panel', () => {
  it('signs in, shows subscriptions, resets the HWID once per cooldown, changes the password', async () => {
    const sb = await startTestSandbox();
    const base = await panelSetup(sb);
    const browser = new Browser(sb);
    const first = await browser.get(base);
    expect(first.status).toBe(200);
    expect(first.text).toContain('<label for="username">Username</label>');
    const cookie = first.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);

    const wrong = await browser.post(`${base}login`, { username: 'carol', password: 'nope', form_token: formToken(first) });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('The username or password is wrong.');
    const signIn = await browser.post(`${base}login`, { username: 'carol', password: 'carol-pass-1', form_token: formToken(wrong) });
    expect(signIn.status).toBe(303);
    const dash = await browser.get(base);
    expect(dash.text).toContain('Signed in as <strong>carol</strong>');
    expect(dash.text).toMatch(/<td>default<\/td><td>(29 d 23 h|30 d 0 h)<\/td>/);

    const user = findUser(sb.store, sb.app().id, 'carol')!;
    sb.store.run("UPDATE users SET hwid = 'OLD-HWID' WHERE id = ?", user.id);
    const reset = await browser.post(`${base}hwid`, { form_token: formToken(dash) });
    expect(reset.status).toBe(303);
    expect(findUser(sb.store, sb.app().id, 'carol')!.hwid).toBeNull();
    const after = await browser.get(reset.headers.get('location')!);
    expect(after.text).toContain('Your HWID was reset.');
    expect(after.text).toContain('You can reset your HWID again after');
    const again = await browser.post(`${base}hwid`, { form_token: formToken(after) });
    expect(again.status).toBe(429);
    // A week later (the app's cooldown) the idle sign-in has ended; sign in again and reset.
    await sb.advance(604_800 + 60);
    const signInAgain = await browser.get(base);
    expect(signInAgain.text).toContain('<label for="username">Username</label>');
    await browser.post(`${base}login`, { username: 'carol', password: 'carol-pass-1', form_token: formToken(signInAgain) });
    const later = await browser.get(base);
    expect(later.text).not.toContain('You can reset your HWID again after');
    expect((await browser.post(`${base}hwid`, { form_token: formToken(later) })).status).toBe(303);

    const page = await browser.get(base);
    const mismatch = await browser.post(`${base}password`, { current: 'carol-pass-1', password: 'new-pass-22', confirm: 'other', form_token: formToken(page) });
    expect(mismatch.text).toContain('The two new passwords differ.');
    expect((await browser.post(`${base}password`, { current: 'carol-pass-1', password: 'new-pass-22', confirm: 'new-pass-22', form_token: formToken(page) })).status).toBe(303);
    const sid = await sb.init();
    expect((await sb.client('login', { sessionid: sid, username: 'carol', pass: 'new-pass-22', hwid: 'HWID-00000000000000000000001' })).json.success).toBe(true);

    // The password change replaced this browser's sign-in (and its form token).
    expect((await browser.post(`${base}logout`, { form_token: formToken(page) })).status).toBe(403);
    expect((await browser.post(`${base}logout`, { form_token: formToken(await browser.get(base)) })).status).toBe(303);
    expect((await browser.get(base)).text).toContain('<label for="password">Password</label>');
  });

  it('sign-in offers "Forgot password?": the reset mail goes to the outbox, and says the same whether or not the account matches', async () => {
    const sb = await startTestSandbox();
    const base = await panelSetup(sb);
    expect((await sb.seller('editemail', { user: 'carol', email: 'carol@example.test' })).json.success).toBe(true);
    const browser = new Browser(sb);
    const signIn = await browser.get(base);
    expect(signIn.text).toContain(`<a href="${base}forgot">Forgot password?</a>`);
    // A page that sends no mail says nothing of email.
    expect(signIn.text).not.toMatch(/email/i);

    const form = await browser.get(`${base}forgot`);
    expect(form.status).toBe(200);
    expect(form.text).toContain('<label for="email">Email address</label>');
    expect(form.text.replaceAll('&#39;', "'")).toContain("No real email is sent: mail goes to the sandbox's outbox");
    const before = (await sb.outbox({ kind: 'password-reset' })).length;
    const wrong = await browser.post(`${base}forgot`, { username: 'carol', email: 'someone@example.test', form_token: formToken(form) });
    const nobody = await browser.post(`${base}forgot`, { username: 'nobody', email: 'carol@example.test', form_token: formToken(form) });
    expect((await sb.outbox({ kind: 'password-reset' })).length).toBe(before);
    const right = await browser.post(`${base}forgot`, { username: 'carol', email: 'carol@example.test', form_token: formToken(form) });
    // The same answer for all three: the form tells no one which accounts exist.
    for (const res of [wrong, nobody, right]) {
      expect(res.status).toBe(200);
      expect(res.text).toBe(right.text);
    }
    expect(right.text).toContain('If that username has an account with that email address, a link to choose a new password is on its way.');
    const mails = await sb.outbox({ kind: 'password-reset', to: 'carol@example.test' });
    expect(mails).toHaveLength(1);
    expect(mails[0]!.link).toMatch(new RegExp(`^${sb.baseUrl}/sandbox/reset/[0-9a-f]{32}$`));

    // The link sets the password; the panel takes the new one.
    const resetPage = await browser.get(new URL(mails[0]!.link!).pathname);
    expect(resetPage.text).toContain('Choose a new password');
    expect(resetPage.text.replaceAll('&#39;', "'")).toContain("No real email is sent: the link to this page came from the sandbox's outbox.");
    expect((await browser.post(new URL(mails[0]!.link!).pathname, { password: 'carol-new-pass-2', confirm: 'carol-new-pass-2' })).status).toBe(200);
    const again = await browser.get(base);
    expect((await browser.post(`${base}login`, { username: 'carol', password: 'carol-new-pass-2', form_token: formToken(again) })).status).toBe(303);
    // Missing fields: said, nothing sent.
    const empty = await browser.post(`${base}forgot`, { username: '', email: '', form_token: formToken(await browser.get(`${base}forgot`)) });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('Type your username and the email address of your account.');
  });

  it('asks for the 2FA code when it is on', async () => {
    const sb = await startTestSandbox();
    const base = await panelSetup(sb);
    const user = findUser(sb.store, sb.app().id, 'carol')!;
    const secret = 'JBSWY3DPEHPK3PXP';
    enable2fa(sb.store, user.id, secret);
    const browser = new Browser(sb);
    const form = await browser.get(base);
    await browser.post(`${base}login`, { username: 'carol', password: 'carol-pass-1', form_token: formToken(form) });
    const codePage = await browser.get(base);
    expect(codePage.text).toContain('6-digit code from your authenticator');
    const bad = await browser.post(`${base}2fa`, { code: '000000', form_token: formToken(codePage) });
    expect(bad.text).toContain('That code is not right.');
    const now = (await sb.clock()).now;
    expect((await browser.post(`${base}2fa`, { code: totpCode(secret, now), form_token: formToken(bad) })).status).toBe(303);
    expect((await browser.get(base)).text).toContain('Signed in as <strong>carol</strong>');
  });

  it('refuses POSTs without the form token, an unknown panel, and honours --panel-url', async () => {
    const sb = await startTestSandbox({ panelUrl: 'https://panel.example.test' });
    const browser = new Browser(sb);
    const init = await sb.client('init');
    expect(init.json.appinfo.customerPanelLink).toMatch(/^https:\/\/panel\.example\.test\/panel\//);
    const base = new URL(init.json.appinfo.customerPanelLink as string).pathname;
    await browser.get(base);
    const forged = await browser.post(`${base}login`, { username: 'carol', password: 'x' });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain('This form has expired.');
    expect((await browser.get('/panel/nobody/nothing/')).status).toBe(404);
  });
});
