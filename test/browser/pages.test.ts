/**
 * The sandbox's web pages in a real browser (headless Chromium, driven by puppeteer-core; no
 * browser download): the magic-link approval page, the password-reset page, the customer panel
 * and its web loader page with `kactl client web-loader` listening. Each step is done as a
 * person would — fields found by their labels, forms sent with the keyboard, buttons clicked —
 * and every page is saved as a screenshot under the test's temp folder (one at 390 px wide).
 *
 * The loader page hands the token by itself only to kactl's own program (which proves it holds
 * the app secret); a program built on a KeyAuth SDK gets it after the person's one click, by the
 * genuine protocol; another Unix user's program listening on the port, even one that relays
 * kactl's proof from another port, gets nothing without that click.
 *
 * Skipped, saying why, only when no Chromium binary exists (and the other-user case when not
 * root).
 */
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, field, launchChromium, text } from '../helpers/chromium.js';
import { startE2ESandbox, type E2ESandbox } from '../helpers/e2e.js';
import { tempDir } from '../helpers/temp-dir.js';
import { otherUser, otherUserSkip } from '../helpers/other-user.js';
import { startSdkLoader } from '../helpers/sdk-loader.js';
import { freePort, startWebLoader } from '../helpers/web-loader.js';

const SLOW = 120_000;
const HWID = 'browser-test-hwid-0000-0000-0001';
const EMAIL = 'erin@example.com';

let sb: E2ESandbox;
let browser: Browser;
let shots: string;

/** A client API call (1.3, form POST) against the sandbox. */
async function client(type: string, params: Record<string, string>): Promise<Record<string, unknown>> {
  const form = new URLSearchParams({ type, name: sb.info.app.name, ownerid: sb.info.app.ownerid, ...params });
  const res = await fetch(`${sb.info.baseUrl}/api/1.3/`, { method: 'POST', body: form });
  return (await res.json()) as Record<string, unknown>;
}

async function newSession(): Promise<string> {
  const init = await client('init', { ver: sb.info.app.version });
  return init['sessionid'] as string;
}

async function lastLink(kind: string): Promise<string> {
  const mail = (await sb.outbox()).filter((message) => message.kind === kind).at(-1);
  if (!mail?.link) throw new Error(`no ${kind} mail`);
  return mail.link;
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
}

/** The customer panel's loader page, signed in as erin in a fresh browser profile. */
async function openLoaderPage(): Promise<{ context: BrowserContext; page: Page }> {
  const init = await client('init', { ver: sb.info.app.version });
  const link = (init['appinfo'] as { customerPanelLink: string }).customerPanelLink;
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.goto(link);
  await (await field(page, 'Username')).type('erin');
  await (await field(page, 'Password')).type('erin-new-pass-456');
  await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
  const open = await page.waitForSelector('::-p-aria(Open the web loader)');
  await Promise.all([page.waitForNavigation(), open!.click()]);
  return { context, page };
}

/** What the loader page's status line says. */
async function status(page: Page): Promise<string> {
  return page.$eval('#loader-status', (el) => (el as unknown as { textContent: string }).textContent);
}

/** Waits until the loader page's status line contains `words`. */
async function statusSays(page: Page, words: string): Promise<void> {
  await page.waitForFunction(`document.getElementById('loader-status').textContent.includes(${JSON.stringify(words)})`, { timeout: 20_000 });
}

/** Whether the "Send my sign-in to this program" choice is shown. */
async function choiceShown(page: Page): Promise<boolean> {
  return page.$eval('#loader-choice', (el) => !(el as unknown as { hidden: boolean }).hidden);
}

/** Types `port` into the page's port field and presses Connect again. */
async function connectTo(page: Page, port: number): Promise<void> {
  const input = await field(page, 'Program port');
  await input.click({ count: 3 });
  await input.type(String(port));
  await (await page.waitForSelector('::-p-aria(Connect again)'))!.click();
}

beforeAll(async () => {
  if (CHROMIUM === undefined) return;
  // KACTL_KEEP_SCREENSHOTS=DIR keeps them for a person to look at; else the temp folder goes.
  shots = process.env['KACTL_KEEP_SCREENSHOTS'] || tempDir('kactl-browser-');
  sb = await startE2ESandbox();
  await sb.ok(['profile', 'add', 'sandbox', '--hwid', HWID]);
  const [key] = (await sb.ok(['licenses', 'create', '--expiry', '30'])).stdout.split('\n');
  const sid = await newSession();
  const reg = await client('register', { sessionid: sid, username: 'erin', pass: 'erin-pass-123', key: key!, email: EMAIL, hwid: HWID });
  expect(reg['success'], JSON.stringify(reg)).toBe(true);
  await sb.ok(['loader', 'create', '--text', 'Launch game', '--value', 'launch']);
  browser = await launchChromium();
}, SLOW);

afterAll(async () => {
  await browser?.close();
});

describe.skipIf(CHROMIUM === undefined)('sandbox pages in headless Chromium (no chromium binary: skipped)', () => {
  it('magic link: the approval page signs the waiting session in', async () => {
    const sid = await newSession();
    expect((await client('magicLinkSend', { sessionid: sid, email: EMAIL, hwid: HWID }))['success']).toBe(true);
    const page = await browser.newPage();
    await page.goto(await lastLink('magic-link'));
    await shot(page, '1-magic-link');
    expect(await text(page)).toContain('erin');
    // Keyboard only: Tab to the Approve button and press Enter.
    const approve = await page.waitForSelector('::-p-aria(Approve sign-in)');
    await approve!.focus();
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    await shot(page, '2-magic-link-approved');
    expect(await text(page)).toMatch(/approved|signed in/i);
    const check = await client('magicLinkCheck', { sessionid: sid });
    expect(check['success'], JSON.stringify(check)).toBe(true);
    await page.close();
  }, SLOW);

  it('password reset: a new password typed twice works for login', async () => {
    const sid = await newSession();
    expect((await client('forgot', { sessionid: sid, username: 'erin', email: EMAIL }))['success']).toBe(true);
    const page = await browser.newPage();
    await page.goto(await lastLink('password-reset'));
    await shot(page, '3-reset');
    await (await field(page, 'New password')).type('erin-new-pass-456');
    await page.keyboard.press('Tab');
    await page.keyboard.type('erin-new-pass-456');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    await shot(page, '4-reset-done');
    expect(await text(page)).toMatch(/password/i);
    const login = await client('login', { sessionid: await newSession(), username: 'erin', pass: 'erin-new-pass-456', hwid: HWID });
    expect(login['success'], JSON.stringify(login)).toBe(true);
    await page.close();
  }, SLOW);

  it('customer panel: sign in, see the subscription, reset the HWID; readable at 390 px', async () => {
    const init = await client('init', { ver: sb.info.app.version });
    const link = (init['appinfo'] as { customerPanelLink: string }).customerPanelLink;
    const page = await browser.newPage();
    await page.setViewport({ width: 390, height: 844 });
    await page.goto(link);
    await shot(page, '5-panel-sign-in-390px');
    await (await field(page, 'Username')).type('erin');
    await page.keyboard.press('Tab');
    await page.keyboard.type('erin-new-pass-456');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    await page.setViewport({ width: 1024, height: 900 });
    await shot(page, '6-panel');
    const dashboard = await text(page);
    expect(dashboard).toContain('Signed in as erin');
    expect(dashboard).toMatch(/default\s+(29 d 23 h|30 d 0 h)/);
    // The page is wider than nothing at 390 px: no horizontal scrolling.
    await page.setViewport({ width: 390, height: 844 });
    expect(await page.$eval('html', (el) => (el as unknown as { scrollWidth: number }).scrollWidth)).toBeLessThanOrEqual(390);
    await page.setViewport({ width: 1024, height: 900 });
    const reset = await page.waitForSelector('::-p-aria(Reset HWID)');
    await Promise.all([page.waitForNavigation(), reset!.click()]);
    await shot(page, '7-panel-hwid-reset');
    expect(await text(page)).toContain('Your HWID was reset.');
    expect(await page.$eval('button[type=submit][disabled]', (el) => (el as unknown as { textContent: string }).textContent)).toBe('Reset HWID');
    await page.close();
  }, SLOW);

  it('web loader: the loader page hands the token to kactl client web-loader by itself; a button reaches it', async () => {
    const loader = await startWebLoader(sb.configDir, ['--once']);
    const { context, page } = await openLoaderPage();
    await connectTo(page, loader.port);
    await page.waitForFunction("document.getElementById('loader-status').textContent.startsWith('Connected')", { timeout: 20_000 });
    await shot(page, '8-web-loader-connected');
    expect(await choiceShown(page)).toBe(false);
    await (await page.waitForSelector('::-p-aria(Launch game)'))!.click();
    await page.waitForFunction("document.getElementById('loader-status').textContent.includes('Sent')", { timeout: 10_000 });
    await shot(page, '9-web-loader-pressed');
    expect(await loader.exited()).toBe(0);
    expect(loader.stdout()).toBe('launch\n');
    await context.close();
  }, SLOW);

  // The C++ and C# examples' web_login: only /handshake is routed, anything else is a bare 404.
  // The page cannot tell such a program from anyone else's on the port, so it asks the person.
  it('web loader: a program built on a KeyAuth SDK gets the token only after the click, by the genuine handshake; a button reaches it', async () => {
    const { token } = await sb.json<{ token: string }>(['users', 'get', 'erin', '--json']);
    const sdk = await startSdkLoader(async (user, sent) => {
      const login = await client('login', { sessionid: await newSession(), username: user, token: sent, hwid: HWID });
      return login['success'] === true ? undefined : String(login['message']);
    }, ['launch']);
    try {
      const { context, page } = await openLoaderPage();
      await connectTo(page, sdk.port);
      await statusSays(page, `The program on localhost:${sdk.port} did not prove it is kactl.`);
      await shot(page, '10-web-loader-sdk-choice');
      expect(await status(page)).toContain('If it is your own program built with a KeyAuth SDK, send it your sign-in.');
      expect(await text(page)).toContain('Anyone using this computer could be listening on that port');
      // Asked only outside /handshake: nothing reached the program's login, and no token left the page.
      expect(sdk.requests.length).toBeGreaterThan(0);
      expect(sdk.requests.filter((request) => request.includes('/handshake') || request.includes('token='))).toEqual([]);
      expect(sdk.exited()).toBe(false);
      await (await page.waitForSelector('::-p-aria(Send my sign-in to this program)'))!.click();
      await page.waitForFunction("document.getElementById('loader-status').textContent.startsWith('Connected')", { timeout: 20_000 });
      expect(sdk.requests.filter((request) => request.includes('/handshake'))).toEqual([`GET /handshake?user=erin&token=${token}`]);
      expect(await choiceShown(page)).toBe(false);
      await (await page.waitForSelector('::-p-aria(Launch game)'))!.click();
      await statusSays(page, 'Sent "Launch game"');
      await shot(page, '11-web-loader-sdk-pressed');
      expect(sdk.pressed).toEqual(['launch']);
      await context.close();
    } finally {
      await sdk.close();
    }
  }, SLOW);

  // Any local user may listen on a free port, and the genuine page sends the user's token to
  // whatever answers there. Here another Unix user's program listens on the port the page talks
  // to, and even asks the real kactl (on another port) for its proof of the page's nonce.
  const skipOther = otherUserSkip();
  it.skipIf(skipOther !== undefined)(`web loader: another user's program on the port gets no token, even relaying kactl's proof${skipOther ? ` (skipped: ${skipOther})` : ''}`, async () => {
    const loader = await startWebLoader(sb.configDir);
    const roguePort = await freePort();
    const other = otherUser();
    const rogue = other.start(other.node(), ['-e', ROGUE_LOADER, String(roguePort), String(loader.port)]);
    let heard = '';
    rogue.stdout!.on('data', (chunk: Buffer) => (heard += chunk.toString()));
    try {
      await new Promise<void>((resolve, reject) => {
        rogue.stdout!.on('data', () => heard.includes('LISTENING') && resolve());
        rogue.once('exit', (code) => reject(new Error(`the other user's listener exited (${code})`)));
      });
      const { context, page } = await openLoaderPage();
      await connectTo(page, roguePort);
      await statusSays(page, `The program on localhost:${roguePort} did not prove it is kactl.`);
      await shot(page, '12-web-loader-refused');
      expect(heard).toContain('/kactl/proof?nonce=');
      // It did get kactl's proof for the nonce: one for kactl's port, not the one the page talks to.
      expect(heard).toMatch(/RELAYED [0-9a-f]{64}\n/);
      // The page offers the choice and waits for the person: no token without the click.
      expect(await choiceShown(page)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 4000));
      expect(heard).not.toContain('token=');
      // The page's own program, on its own port, still connects with the same page view.
      await connectTo(page, loader.port);
      await page.waitForFunction("document.getElementById('loader-status').textContent.startsWith('Connected')", { timeout: 20_000 });
      await context.close();
    } finally {
      rogue.kill();
      await loader.stop();
    }
  }, SLOW);

  // Last: it changes erin's password, which the tests above sign in with.
  it('customer panel: "Forgot password?" under the sign-in puts a reset link in the outbox; the link sets a new password', async () => {
    const init = await client('init', { ver: sb.info.app.version });
    const link = (init['appinfo'] as { customerPanelLink: string }).customerPanelLink;
    // A browser profile of its own: not signed in to the panel by the tests above.
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.goto(link);
    expect(await text(page)).not.toMatch(/email/i);
    await Promise.all([page.waitForNavigation(), (await page.waitForSelector('::-p-aria(Forgot password?)'))!.click()]);
    await shot(page, '12-panel-forgot');
    expect(await text(page)).toContain("No real email is sent: mail goes to the sandbox's outbox");
    await (await field(page, 'Username')).type('erin');
    await page.keyboard.press('Tab');
    await page.keyboard.type(EMAIL);
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    await shot(page, '13-panel-forgot-sent');
    expect(await text(page)).toContain('a link to choose a new password is on its way');
    await page.goto(await lastLink('password-reset'));
    await (await field(page, 'New password')).type('erin-forgot-pass-789');
    await page.keyboard.press('Tab');
    await page.keyboard.type('erin-forgot-pass-789');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    await page.goto(link);
    await (await field(page, 'Username')).type('erin');
    await page.keyboard.press('Tab');
    await page.keyboard.type('erin-forgot-pass-789');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    expect(await text(page)).toContain('Signed in as erin');
    await context.close();
  }, SLOW);
});

/**
 * The other user's listener: prints each request it gets, answers a token with 420 (as a real
 * loader would, to keep the page happy), and answers every other request, the page's proof
 * question among them, with what the real kactl on the second port answers (a relay), under the
 * page's own Origin.
 */
const ROGUE_LOADER = `
const http = require('node:http');
const [port, real] = process.argv.slice(1);
const handle = (req, res) => {
  console.log(req.url);
  const cors = { 'access-control-allow-origin': req.headers.origin || '*' };
  const url = new URL(req.url, 'http://localhost');
  if (url.searchParams.has('token')) { res.writeHead(420, 'SHEESH', cors); res.end(); return; }
  fetch('http://127.0.0.1:' + real + req.url, { headers: { origin: req.headers.origin || '' } })
    .then((answer) => answer.text())
    .then((text) => { console.log('RELAYED ' + text); res.writeHead(200, cors); res.end(text); }, () => { res.writeHead(200, cors); res.end('no proof'); });
};
http.createServer(handle).listen(Number(port), '127.0.0.1', () => {
  http.createServer(handle).listen(Number(port), '::1', () => console.log('LISTENING')).on('error', () => console.log('LISTENING'));
});
`;
