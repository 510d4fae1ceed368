/**
 * The address `kactl sandbox start` prints, opened in a real browser (headless Chromium): the
 * sandbox's home page, not `{"success":false,"message":"Not found"}`. It says what the server
 * is, lists the APIs, and its panel link opens the customer panel's sign-in; nothing on it is a
 * secret; the page loads nothing from outside and runs no script.
 *
 * Skipped, saying why, only when no Chromium binary exists.
 */
import path from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, field, launchChromium, text } from '../helpers/chromium.js';
import { startE2ESandbox, type E2ESandbox } from '../helpers/e2e.js';
import { tempDir } from '../helpers/temp-dir.js';

const SLOW = 120_000;

let sb: E2ESandbox;
let browser: Browser;

beforeAll(async () => {
  if (CHROMIUM === undefined) return;
  sb = await startE2ESandbox();
  browser = await launchChromium();
}, SLOW);

afterAll(async () => {
  await browser?.close();
});

describe.skipIf(CHROMIUM === undefined)('the sandbox home page in headless Chromium (no chromium binary: skipped)', () => {
  it('the printed address shows what the server is, and its panel link opens the customer panel', async () => {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    const answer = await page.goto(sb.info.baseUrl);
    expect(answer?.status()).toBe(200);
    expect(await page.title()).toBe('About this server · kactl sandbox');
    const shown = await text(page);
    expect(shown).toContain('kactl sandbox');
    expect(shown).toContain(sb.info.app.name);
    expect(shown).toContain(sb.info.baseUrl);
    for (const api of ['/api/1.3/', '/api/1.2/', '/api/seller/']) expect(shown).toContain(api);
    expect(shown).toContain('kactl sandbox outbox');
    for (const secret of [sb.info.sellerKey, sb.info.app.secret, sb.info.adminToken]) expect(await page.content()).not.toContain(secret);
    // One document, nothing else fetched, and no script on it.
    expect(requests).toEqual([`${sb.info.baseUrl}/`]);
    expect(await page.$$('script')).toHaveLength(0);
    await page.screenshot({ path: path.join(tempDir('kactl-home-shots-'), 'home.png'), fullPage: true });

    const link = await page.waitForSelector('::-p-aria(Customer panel[role="link"])');
    await Promise.all([page.waitForNavigation(), link!.click()]);
    expect(page.url()).toContain('/panel/');
    expect(await field(page, 'Username')).toBeTruthy();
    await context.close();
  }, SLOW);

  it('refuses to be framed by another page', async () => {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setContent(`<iframe src="${sb.info.baseUrl}/"></iframe>`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
    // A refused frame stays empty (chrome-error:// or about:blank), never the sandbox page.
    const inside = frame === undefined ? '' : await frame.evaluate('document.body ? document.body.innerText : ""').catch(() => '');
    expect(String(inside)).not.toContain('About this server');
    await context.close();
  }, SLOW);
});
