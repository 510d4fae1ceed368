/**
 * Issue 21's customer panel fixes in a real browser (headless Chromium), where cookies, their
 * paths and form posts behave as people meet them:
 * - item 19: an app named `Tools/Loader` — the `customerPanelLink` init gives out opens the panel,
 *   and the sign-in cookie (scoped to the `%2F` path) keeps the user signed in;
 * - item 8: the sign-in form of an anonymous visitor, kept nowhere by the sandbox, signs in;
 * - item 9: a password changed in one browser signs every other browser out, and the program's
 *   session with it; the browser that changed it stays signed in.
 *
 * Skipped, saying why, only when no Chromium binary exists.
 */
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, field, launchChromium, text } from '../helpers/chromium.js';
import { startE2ESandbox, type E2ESandbox } from '../helpers/e2e.js';

const SLOW = 120_000;
const APP_NAME = 'Tools/Loader';

/** `Tools/Loader` for the link test; an app of the default name for the others. */
let slashed: E2ESandbox;
let plain: E2ESandbox;
let browser: Browser;

async function client(sb: E2ESandbox, type: string, params: Record<string, string>): Promise<Record<string, unknown>> {
  const form = new URLSearchParams({ type, name: sb.info.app.name, ownerid: sb.info.app.ownerid, ...params });
  const res = await fetch(`${sb.info.baseUrl}/api/1.3/`, { method: 'POST', body: form });
  return (await res.json()) as Record<string, unknown>;
}

async function panelLink(sb: E2ESandbox): Promise<string> {
  const init = await client(sb, 'init', { ver: sb.info.app.version });
  return (init['appinfo'] as { customerPanelLink: string }).customerPanelLink;
}

/** A fresh browser profile, signed in as `username` through the sign-in form, by keyboard. */
async function signIn(sb: E2ESandbox, username: string, password: string): Promise<Page> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.goto(await panelLink(sb));
  await (await field(page, 'Username')).type(username);
  await (await field(page, 'Password')).type(password);
  await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
  expect(await text(page)).toContain(`Signed in as ${username}`);
  return page;
}

/** A sandbox with a user `frank` (password frank-pass-1, 30 days of `default`). */
async function sandboxWithFrank(args: readonly string[]): Promise<E2ESandbox> {
  const sb = await startE2ESandbox({ args });
  const seller = new URLSearchParams({ sellerkey: sb.info.sellerKey, type: 'adduser', user: 'frank', pass: 'frank-pass-1', sub: 'default', expiry: '30' });
  expect(((await (await fetch(`${sb.info.baseUrl}/api/seller/?${seller.toString()}`)).json()) as { success: boolean }).success).toBe(true);
  return sb;
}

beforeAll(async () => {
  if (CHROMIUM === undefined) return;
  [slashed, plain] = await Promise.all([sandboxWithFrank(['--app-name', APP_NAME]), sandboxWithFrank([])]);
  browser = await launchChromium();
}, SLOW);

afterAll(async () => {
  await browser?.close();
});

describe.skipIf(CHROMIUM === undefined)('customer panel hardening in headless Chromium (no chromium binary: skipped)', () => {
  it('an app named with a slash: the link opens the panel, the sign-in holds across pages', async () => {
    const link = await panelLink(slashed);
    expect(link).toContain('/Tools%2FLoader/');
    const page = await signIn(slashed, 'frank', 'frank-pass-1');
    // A second page load still sends the cookie (its path is the encoded one).
    await page.goto(link);
    expect(await text(page)).toContain('Signed in as frank');
    await page.browserContext().close();
  }, SLOW);

  it('a password changed in one browser signs the others and the program out', async () => {
    const sid = (await client(plain, 'init', { ver: plain.info.app.version }))['sessionid'] as string;
    expect((await client(plain, 'login', { sessionid: sid, username: 'frank', pass: 'frank-pass-1', hwid: 'browser-hwid-0000-0000-0000-0001' }))['success']).toBe(true);
    const home = await signIn(plain, 'frank', 'frank-pass-1');
    const other = await signIn(plain, 'frank', 'frank-pass-1');
    await (await field(home, 'Current password')).type('frank-pass-1');
    await (await field(home, 'New password')).type('frank-pass-2');
    await (await field(home, 'New password again')).type('frank-pass-2');
    const change = await home.waitForSelector('::-p-aria(Change password[role="button"])');
    await Promise.all([home.waitForNavigation(), change!.click()]);
    expect(await text(home)).toContain('Your password was changed.');
    expect(await text(home)).toContain('Signed in as frank');
    await other.reload();
    expect(await text(other)).toContain('Username');
    expect(await text(other)).not.toContain('Signed in as frank');
    expect((await client(plain, 'check', { sessionid: sid }))['success']).toBe(false);
    await home.browserContext().close();
    await other.browserContext().close();
  }, SLOW);
});
