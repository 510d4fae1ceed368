/**
 * Issue 21, customer panel requests that answered wrongly:
 * - item 10: `?done=constructor` (and `__proto__`, `toString`, `valueOf`, `hasOwnProperty`)
 *   answered 500, the notice looked up on the object's prototype;
 * - item 11: the 2FA code was checked on the sandbox's domain clock, so after `sandbox advance`
 *   the code the authenticator shows now was refused (the client API checks real time);
 * - item 19: an app whose name holds a `/` got a `customerPanelLink` that answered 404.
 */
import { describe, expect, it } from 'vitest';
import { enable2fa, totpCode } from '../../../src/server/domain/twofa.js';
import { findUser } from '../../../src/server/domain/users.js';
import { formToken, isSignedIn, PanelBrowser, panelSetup, signedInBrowser } from '../../helpers/panel-browser.js';
import { startTestSandbox } from '../../helpers/sandbox.js';

const SECRET = 'JBSWY3DPEHPK3PXP';

describe('panel requests', () => {
  it('?done= with a prototype member name shows the dashboard without a notice', async () => {
    const sb = await startTestSandbox();
    const base = await panelSetup(sb);
    const browser = await signedInBrowser(sb, base, 'carol', 'carol-pass-1');
    for (const done of ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf']) {
      const page = await browser.get(`${base}?done=${done}`);
      expect(page.status, done).toBe(200);
      expect(page.text).toContain('Signed in as <strong>carol</strong>');
      expect(page.text).not.toContain('role="status"');
    }
    expect((await browser.get(`${base}?done=hwid`)).text).toContain('Your HWID was reset.');
  });

  it('takes the code an authenticator shows now after the sandbox clock was moved', async () => {
    const sb = await startTestSandbox();
    const base = await panelSetup(sb);
    enable2fa(sb.store, findUser(sb.store, sb.app().id, 'carol')!.id, SECRET);
    await sb.advance(3 * 3600);
    const browser = new PanelBrowser(sb);
    const form = await browser.get(base);
    await browser.post(`${base}login`, { username: 'carol', password: 'carol-pass-1', form_token: formToken(form) });
    const codePage = await browser.get(base);
    // The code of the domain clock (3 hours ahead) is not what the authenticator shows: refused.
    const domainCode = await browser.post(`${base}2fa`, { code: totpCode(SECRET, (await sb.clock()).now), form_token: formToken(codePage) });
    expect(domainCode.text).toContain('That code is not right.');
    const realCode = await browser.post(`${base}2fa`, { code: totpCode(SECRET, Math.floor(Date.now() / 1000)), form_token: formToken(codePage) });
    expect(realCode.status).toBe(303);
    expect(await isSignedIn(browser, base, 'carol')).toBe(true);
  });

  it('an app named with a slash: the link init gives out opens its panel, and signing in works', async () => {
    const sb = await startTestSandbox({ appName: 'Tools/Loader' });
    const base = await panelSetup(sb);
    expect(base).toMatch(/\/Tools%2FLoader\/$/);
    const first = await sb.request(base);
    expect(first.status).toBe(200);
    expect(first.text).toContain('Sign in to Tools/Loader');
    // The cookie is scoped to the encoded path the browser asks for.
    expect(first.headers.get('set-cookie')).toContain(`Path=${base};`);
    await signedInBrowser(sb, base, 'carol', 'carol-pass-1');
    // Written out unencoded it is another path: two segments, no such panel.
    expect((await sb.request(base.replace('%2F', '/'))).status).toBe(404);
  });
});
