/**
 * The sandbox dashboard (`/sandbox/ui`) in headless Chromium: every view, signed in through the
 * one-time link `kactl sandbox ui` hands out, with a screenshot of each kept under
 * test-results/dashboard/ (git ignores it; KACTL_DASHBOARD_SHOTS=DIR puts them elsewhere).
 *
 * Every free-text field is filled through the seller and client APIs with a value that would
 * break out of an attribute or run a handler if it were written unescaped (the APIs strip tags,
 * as the hosted service does, so the value keeps quotes, `&` and a bare `<`); and the same
 * fields are also written straight into the store with tags in them (what a store edited by hand
 * or an older sandbox could hold). Each must read as text, no handler may run, no element may
 * appear. The forms work without JavaScript; with it, the request inspector adds requests live.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launchChromium, text } from '../helpers/chromium.js';
import { signInLink } from '../helpers/dashboard.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { DASHBOARD_VIEWS } from '../../src/server/ui/views.js';
import { viewPath } from '../../src/server/ui/layout.js';
import { writeSignInPage } from '../../src/commands/sandbox/browser-open.js';
import { tempDir } from '../helpers/temp-dir.js';

const SLOW = 120_000;
/** Survives the APIs' tag stripping; harmful only if written unescaped into an attribute or as HTML. */
const P = `x" onmouseover="window.__xss=1" y='z' & < b`;
/** Written straight into the store: tags that would run if a page put them in as HTML. */
const TAGS = `<img src=x onerror="window.__xss=1"><script>window.__xss=1</script>`;
const PASSWORD = 'payload-pass-123';
const HWID = `${P} hwid`;
const SHOTS = process.env['KACTL_DASHBOARD_SHOTS'] || path.resolve(import.meta.dirname, '../../test-results/dashboard');

let sb: TestSandbox;
let browser: Browser;
let page: Page;
let files: http.Server;

/** What each view must show as text: the values stored through the APIs, and the tagged ones. */
const EXPECTED: Readonly<Record<string, readonly string[]>> = {
  '': ['sandbox-app', 'Customer panel'],
  licenses: [`${P} note`, `${TAGS} note`],
  users: [`${P} user`, HWID, `${P} ban`, `${TAGS} user`, `${TAGS} hwid`],
  sessions: [`${P} user`],
  variables: [`${P} var`, `${P} uservar`, `${TAGS} var`],
  chat: [`${P} channel`, `${P} chat`, `${TAGS} chat`],
  files: [`${P}-file.bin`, `${TAGS} file`],
  outbox: [`${TAGS} subject`, `${TAGS} text`],
  requests: [`${P} user`],
  clock: ['Sandbox time', 'Back to real time'],
  faults: [`user=${P} fault`, 'Add fault'],
};

async function sellerOk(type: string, params: Record<string, string>): Promise<void> {
  const res = await sb.seller(type, params);
  expect(res.json?.success, `${type}: ${res.text}`).toBe(true);
}

async function clientOk(type: string, params: Record<string, string>): Promise<void> {
  const res = await sb.client(type, params);
  expect(res.json?.success, `${type}: ${res.text}`).toBe(true);
}

/** Seeds every free-text field through the APIs, then the tagged values through the store. */
async function seed(): Promise<void> {
  const user = `${P} user`;
  await sb.seller('addsub', { name: 'default', level: '1' });
  await sellerOk('adduser', { user, sub: 'default', expiry: '30', pass: PASSWORD });
  await sellerOk('addhwiduser', { user, hwid: HWID });
  await sellerOk('add', { expiry: '30', note: `${P} note`, amount: '1' });
  await sellerOk('addvar', { name: 'greeting', data: `${P} var`, authed: '0' });
  await sellerOk('setvar', { user, var: 'theme', data: `${P} uservar` });
  await sellerOk('addchannel', { name: `${P} channel`, delay: '0' });
  await sellerOk('upload', { url: `http://127.0.0.1:${(files.address() as AddressInfo).port}/${encodeURIComponent(`${P}-file.bin`)}` });
  const sid = await sb.init({ hwid: HWID });
  await clientOk('login', { sessionid: sid, username: user, pass: PASSWORD, hwid: HWID });
  await clientOk('chatsend', { sessionid: sid, channel: `${P} channel`, message: `${P} chat` });
  await sellerOk('muteuser', { user, time: '3600' });
  // The ban reason is a free-text field too (on another user: a ban ends the user's sessions).
  await sellerOk('adduser', { user: `${P} banned`, sub: 'default', expiry: '30', pass: PASSWORD });
  await sellerOk('banuser', { user: `${P} banned`, reason: `${P} ban` });
  // A fault's user filter, through the admin route (a user no request names: it never fires).
  const fault = await sb.request('/sandbox/faults', {
    method: 'POST',
    headers: { authorization: `Bearer ${sb.info.adminToken}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ kind: 'text', user: `${P} fault` }).toString(),
  });
  expect(fault.status, fault.text).toBe(200);

  const { store } = sb;
  const appId = sb.app().id;
  const now = Math.floor(Date.now() / 1000);
  store.run('INSERT INTO users (appId, username, hwid, createdate) VALUES (?, ?, ?, ?)', appId, `${TAGS} user`, `${TAGS} hwid`, now);
  store.run("INSERT INTO licenses (appId, key, note, expires, gendate) VALUES (?, 'TAGGED-KEY', ?, 86400, ?)", appId, `${TAGS} note`, now);
  store.run("INSERT INTO vars (appId, varid, msg) VALUES (?, 'tagged', ?)", appId, `${TAGS} var`);
  const channel = store.get<{ id: number }>('SELECT id FROM chat_channels WHERE appId = ?', appId)!.id;
  store.run("INSERT INTO chat_messages (appId, channelId, author, message, timestamp) VALUES (?, ?, 'tagged', ?, ?)", appId, channel, `${TAGS} chat`, now);
  store.run("INSERT INTO files (appId, id, name, url, size, uploaddate) VALUES (?, '999999', ?, 'javascript:window.__xss=1', '1 B', ?)", appId, `${TAGS} file`, now);
  store.run("INSERT INTO outbox (appId, kind, recipient, subject, text, link, createdAt) VALUES (?, 'magic-link', 'a@example.com', ?, ?, 'javascript:window.__xss=1', ?)", appId, `${TAGS} subject`, `${TAGS} text`, now);
}

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** Nothing the stored values carried ran or became an element. */
async function nothingInjected(): Promise<void> {
  expect(await page.evaluate('window.__xss')).toBeUndefined();
  expect(await page.$$('img, script:not([nonce]), [onmouseover], [onerror], [y]')).toHaveLength(0);
  // Hovering every cell would fire an injected handler.
  for (const cell of (await page.$$('td')).slice(0, 200)) await cell.hover().catch(() => undefined);
  expect(await page.evaluate('window.__xss')).toBeUndefined();
}

beforeAll(async () => {
  if (CHROMIUM === undefined) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  files = http.createServer((_req, res) => res.end('file bytes'));
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  sb = await startTestSandbox();
  await seed();
  browser = await launchChromium();
  page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
}, SLOW);

afterAll(async () => {
  await browser?.close();
  await sb?.close();
  files?.close();
});

describe.skipIf(CHROMIUM === undefined)('sandbox dashboard in headless Chromium (no chromium binary: skipped)', () => {
  it('without a sign-in the dashboard says how to get one', async () => {
    await page.goto(`${sb.baseUrl}/sandbox/ui`);
    await shot('0-signed-out');
    expect(await text(page)).toContain('kactl sandbox ui');
  }, SLOW);

  it('the one-time link signs in and leaves the address bar without the code', async () => {
    const { url } = await signInLink(sb);
    await page.goto(url);
    expect(page.url()).toBe(`${sb.baseUrl}/sandbox/ui`);
    const cookies = await browser.cookies();
    const ui = cookies.find((cookie) => cookie.name === 'kactl_ui');
    expect(ui).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/sandbox/ui' });
    // Spent: a second browser profile gets nothing from it.
    const context = await browser.createBrowserContext();
    const other = await context.newPage();
    await other.goto(url);
    expect(await text(other)).toContain('already used or has expired');
    await context.close();
  }, SLOW);

  it('the private page kactl sandbox ui opens posts the code and lands signed in (the code in no URL)', async () => {
    const { url } = await signInLink(sb);
    const code = new URL(url).searchParams.get('code')!;
    const folder = tempDir('kactl-ui-page-');
    const target = writeSignInPage(folder, new URL(url), { file: 'stand-in', args: (page) => [page], wantsPath: false }, Date.now());
    expect(target).toMatch(/^file:\/\//);
    const context = await browser.createBrowserContext();
    const fresh = await context.newPage();
    const visited: string[] = [];
    fresh.on('request', (request) => visited.push(request.url()));
    await fresh.goto(target);
    await fresh.waitForFunction("location.pathname === '/sandbox/ui' && document.querySelector('nav') !== null", { timeout: 15_000 });
    expect(await text(fresh)).toContain('Sign out');
    expect(visited.filter((address) => address.includes(code))).toEqual([]);
    await context.close();
  }, SLOW);

  for (const view of DASHBOARD_VIEWS) {
    it(`view ${view.label}: shows every stored value as text, runs nothing`, async () => {
      await page.goto(`${sb.baseUrl}${viewPath(view.id)}`);
      await shot(`view-${view.id || 'app'}`);
      expect(await page.title()).toContain(view.label);
      const shown = await text(page);
      for (const value of EXPECTED[view.id] ?? []) expect(shown, `${view.label} shows ${value}`).toContain(value);
      expect(await page.$eval('nav [aria-current="page"]', (el) => (el as unknown as { textContent: string | null }).textContent)).toBe(view.label);
      await nothingInjected();
    }, SLOW);
  }

  it('a link stored as javascript: is text, never a link', async () => {
    for (const id of ['files', 'outbox']) {
      await page.goto(`${sb.baseUrl}${viewPath(id)}`);
      expect(await page.$$('a[href^="javascript"]')).toHaveLength(0);
    }
  }, SLOW);

  it('forms work without JavaScript: create a license, and the notice says so', async () => {
    await page.setJavaScriptEnabled(false);
    try {
      await page.goto(`${sb.baseUrl}/sandbox/ui/licenses`);
      const note = await page.waitForSelector('::-p-aria(Note[role="textbox"])');
      await note!.type('made without javascript');
      await Promise.all([page.waitForNavigation(), page.click('::-p-aria(Create licenses)')]);
      await shot('licenses-created');
      expect(page.url()).toBe(`${sb.baseUrl}/sandbox/ui/licenses`);
      expect(await page.$eval('p[role="status"]', (el) => (el as unknown as { textContent: string | null }).textContent)).toMatch(/^License Successfully Generated: /);
      expect(await text(page)).toContain('made without javascript');
    } finally {
      await page.setJavaScriptEnabled(true);
    }
  }, SLOW);

  it('unban, then HWID reset, from the users view', async () => {
    const notice = (): Promise<string | null> => page.$eval('p[role="status"], p[role="alert"]', (el) => (el as unknown as { textContent: string | null }).textContent);
    await page.goto(`${sb.baseUrl}/sandbox/ui/users?q=${encodeURIComponent(' b banned')}`);
    await Promise.all([page.waitForNavigation(), page.click('::-p-aria(Unban)')]);
    expect(await notice()).toBe('Successfully unbanned user!');
    await page.goto(`${sb.baseUrl}/sandbox/ui/users?q=${encodeURIComponent(' b hwid')}`);
    await Promise.all([page.waitForNavigation(), page.click('::-p-aria(Reset HWID)')]);
    await shot('users-after-actions');
    expect(await notice()).toBe('Successfully reset user!');
    expect(sb.store.get<{ hwid: string | null }>('SELECT hwid FROM users WHERE username = ?', `${P} user`)?.hwid ?? null).toBeNull();
  }, SLOW);

  it('the clock moves from its view', async () => {
    await page.goto(`${sb.baseUrl}/sandbox/ui/clock`);
    const by = await page.waitForSelector('::-p-aria(By[role="textbox"])');
    await by!.click({ count: 3 });
    await by!.type('7d');
    await Promise.all([page.waitForNavigation(), page.click('::-p-aria(Move the clock)')]);
    await shot('clock-moved');
    expect(await text(page)).toContain('7 days ahead of real time');
    expect((await sb.clock()).offset).toBe(7 * 86_400);
    await Promise.all([page.waitForNavigation(), page.click('::-p-aria(Back to real time)')]);
    expect((await sb.clock()).offset).toBe(0);
  }, SLOW);

  it('faults: a mistake refused, one added through the form, cleared, then all', async () => {
    const notice = (): Promise<string | null> => page.$eval('p[role="status"], p[role="alert"]', (el) => (el as unknown as { textContent: string | null }).textContent);
    await page.goto(`${sb.baseUrl}/sandbox/ui/faults`);
    await page.select('select[name="kind"]', 'status');
    await Promise.all([page.waitForNavigation(), page.click('::-p-aria(Add fault)')]);
    expect(await notice()).toBe('status needs a CODE, e.g. 503.');
    await page.select('select[name="kind"]', 'status');
    await (await page.waitForSelector('::-p-aria(Argument[role="textbox"])'))!.type('503');
    await (await page.waitForSelector('::-p-aria(Types[role="textbox"])'))!.type('check');
    await (await page.waitForSelector('::-p-aria(User[role="textbox"])'))!.type(`${P} form`);
    await Promise.all([page.waitForNavigation(), page.click('::-p-aria(Add fault)')]);
    await shot('faults-added');
    expect(await notice()).toMatch(/^Fault \d+ added: status 503 on type=check user=x" onmouseover=/);
    expect(await text(page)).toContain(`type=check user=${P} form`);
    await nothingInjected();
    const listed = (await sb.request('/sandbox/faults', { headers: { authorization: `Bearer ${sb.info.adminToken}` } })).json.faults as Array<{ id: number; user: string | null }>;
    const added = listed.find((one) => one.user === `${P} form`)!;
    await Promise.all([page.waitForNavigation(), page.click(`::-p-aria(Clear fault ${added.id})`)]);
    expect(await notice()).toBe(`Fault ${added.id} cleared.`);
    await Promise.all([page.waitForNavigation(), page.click('::-p-aria(Clear all faults)')]);
    await shot('faults-cleared');
    expect(await notice()).toBe('Cleared 1 fault: the sandbox answers as it should.');
    expect(await text(page)).toContain('No faults: the sandbox answers as it should.');
  }, SLOW);

  it('the request inspector adds new requests live when JavaScript is on', async () => {
    await page.goto(`${sb.baseUrl}/sandbox/ui/requests`);
    await page.waitForFunction(`document.getElementById('live-status').textContent.startsWith('Live')`, { timeout: 20_000 });
    // A faulted answer arrives as the client got it: its status, refused, and the fault in its column.
    const fault = await sb.request('/sandbox/faults', {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.info.adminToken}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ kind: 'status', arg: '503', type: 'login', times: '1' }).toString(),
    });
    const id = fault.json.fault.id as number;
    await sb.client('login', { sessionid: 'not-a-session-id', username: `${P} live`, pass: 'x' });
    await page.waitForFunction(`document.getElementById('request-rows').textContent.includes('live')`, { timeout: 20_000 });
    await shot('requests-live');
    const first = await page.$eval('#request-rows tr', (el) => (el as unknown as { innerText: string }).innerText);
    expect(first).toContain('login');
    const cells = await page.$eval('#request-rows tr', (el) => (el as unknown as { innerText: string }).innerText.split('\t'));
    expect(cells.slice(5, 8)).toEqual(['503', 'refused', `#${id} status 503`]);
    await sb.request('/sandbox/faults', { method: 'POST', headers: { authorization: `Bearer ${sb.info.adminToken}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'clear=all' });
    await nothingInjected();
  }, SLOW);

  it('times and durations in the request inspector stay on one line, live rows too, at 1024 and 1280 px', async () => {
    // Long reasons crowd the table: the time is the column that used to give.
    await sb.client('login', { sessionid: 'not-a-session-id', username: `${P} ${'a long user name '.repeat(6)}`, pass: 'x' });
    for (const width of [1024, 1280]) {
      await page.setViewport({ width, height: 900 });
      await page.goto(`${sb.baseUrl}/sandbox/ui/requests`);
      await page.waitForFunction(`document.getElementById('live-status').textContent.startsWith('Live')`, { timeout: 20_000 });
      await sb.client('login', { sessionid: 'not-a-session-id', username: `live ${width}`, pass: 'x' });
      await page.waitForFunction(`document.getElementById('request-rows').textContent.includes('live ${width}')`, { timeout: 20_000 });
      await shot(`requests-times-${width}`);
      // Lines a cell's text takes: one box per line.
      const lines = (await page.evaluate(`[...document.querySelectorAll('#request-rows td.when')].map((cell) => {
        const range = document.createRange();
        range.selectNodeContents(cell);
        return { text: cell.textContent, lines: new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size };
      })`)) as { text: string; lines: number }[];
      expect(lines.length).toBeGreaterThan(4);
      expect(lines.filter((cell) => cell.lines !== 1)).toEqual([]);
    }
    await page.setViewport({ width: 1280, height: 900 });
  }, SLOW);

  it('sign out ends the sign-in', async () => {
    await page.goto(`${sb.baseUrl}/sandbox/ui`);
    await Promise.all([page.waitForNavigation(), page.click('::-p-aria(Sign out)')]);
    expect(await text(page)).toContain('signed out');
    await page.goto(`${sb.baseUrl}/sandbox/ui/users`);
    expect(await text(page)).toContain('kactl sandbox ui');
  }, SLOW);
});
