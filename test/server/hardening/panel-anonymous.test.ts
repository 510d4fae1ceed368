/**
 * Issue 21 item 8: every anonymous panel visit stored a session for 30 minutes, and every new one
 * walked all of them to sweep (60,000 visits cut throughput from ~1,000 to ~160 requests a second:
 * `node bench/panel-visits.mjs` measures it); pages had no rate limit. Now an anonymous visitor
 * is kept nowhere (the sign-in form's token is an HMAC bound to the cookie), expired sign-ins are
 * dropped by a timer, and with rate limits on a client IP may load 300 pages a minute.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { panelSignInCount } from '../../../src/server/domain/panel-sign-ins.js';
import { formToken, isSignedIn, PanelBrowser, panelSetup, signedInBrowser } from '../../helpers/panel-browser.js';
import { startTestSandbox } from '../../helpers/sandbox.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('anonymous panel visitors', () => {
  it('500 anonymous visits keep nothing; each still gets a working sign-in form', async () => {
    const sb = await startTestSandbox();
    const base = await panelSetup(sb);
    for (let i = 0; i < 500; i++) expect((await sb.request(base)).status).toBe(200);
    expect(panelSignInCount(sb.store)).toBe(0);
    await signedInBrowser(sb, base, 'carol', 'carol-pass-1');
    expect(panelSignInCount(sb.store)).toBe(1);
  });

  it('the sign-in form works however long it stayed open (nothing kept to expire), but only with its own cookie', async () => {
    const sb = await startTestSandbox();
    const base = await panelSetup(sb);
    const browser = new PanelBrowser(sb);
    const form = await browser.get(base);
    await sb.advance(2 * 3600);
    // Another browser (another cookie) cannot use this form's token.
    const stranger = new PanelBrowser(sb);
    await stranger.get(base);
    expect((await stranger.post(`${base}login`, { username: 'carol', password: 'carol-pass-1', form_token: formToken(form) })).status).toBe(403);
    expect((await browser.post(`${base}login`, { username: 'carol', password: 'carol-pass-1', form_token: formToken(form) })).status).toBe(303);
    expect(await isSignedIn(browser, base, 'carol')).toBe(true);
  });

  it('expired sign-ins are dropped by a timer, which the sandbox clears on close', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const sb = await startTestSandbox();
    const base = await panelSetup(sb);
    await signedInBrowser(sb, base, 'carol', 'carol-pass-1');
    expect(panelSignInCount(sb.store)).toBe(1);
    await sb.advance(31 * 60);
    vi.advanceTimersByTime(60_000);
    expect(panelSignInCount(sb.store)).toBe(0);
    await sb.close();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('with rate limits on, a client IP may load 300 pages a minute', async () => {
    const sb = await startTestSandbox({ rateLimit: true });
    const base = await panelSetup(sb);
    for (let i = 0; i < 300; i++) expect((await sb.request(base)).status).toBe(200);
    const refused = await sb.request(base);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The APIs have their own limits.
    expect((await sb.client('init', { ver: sb.info.app.version })).json.success).toBe(true);
  });
});
