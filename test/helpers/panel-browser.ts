/** A tiny cookie-keeping browser over a test sandbox's HTTP, for the customer panel's pages. */
import { expect } from 'vitest';
import type { HttpResult, TestSandbox } from './sandbox.js';

export class PanelBrowser {
  cookie = '';
  constructor(private readonly sb: TestSandbox) {}
  private keep(res: HttpResult): HttpResult {
    const set = res.headers.get('set-cookie');
    if (set) this.cookie = set.split(';')[0] ?? '';
    return res;
  }
  async get(path: string): Promise<HttpResult> {
    return this.keep(await this.sb.request(path, { headers: { cookie: this.cookie }, redirect: 'manual' }));
  }
  async post(path: string, form: Record<string, string>): Promise<HttpResult> {
    return this.keep(await this.sb.request(path, { method: 'POST', body: new URLSearchParams(form).toString(), headers: { cookie: this.cookie, 'content-type': 'application/x-www-form-urlencoded' }, redirect: 'manual' }));
  }
}

export function formToken(res: HttpResult): string {
  const match = /name="form_token" value="([^"]+)"/.exec(res.text);
  if (!match?.[1]) throw new Error(`no form token in:\n${res.text}`);
  return match[1];
}

/** A user `carol` with a subscription; answers the panel's path from init's customerPanelLink. */
export async function panelSetup(sb: TestSandbox): Promise<string> {
  expect((await sb.seller('adduser', { user: 'carol', pass: 'carol-pass-1', sub: 'default', expiry: '30' })).json.success).toBe(true);
  const init = await sb.client('init');
  const link = init.json.appinfo.customerPanelLink as string;
  expect(link).toBe(`${sb.baseUrl}/panel/${encodeURIComponent(sb.app().owner)}/${encodeURIComponent(sb.app().name)}/`);
  return new URL(link).pathname;
}

/** A new browser signed in to the panel at `base` (no 2FA); fails unless the sign-in is accepted. */
export async function signedInBrowser(sb: TestSandbox, base: string, username: string, password: string): Promise<PanelBrowser> {
  const browser = new PanelBrowser(sb);
  const form = await browser.get(base);
  const signIn = await browser.post(`${base}login`, { username, password, form_token: formToken(form) });
  expect(signIn.status, signIn.text).toBe(303);
  expect(await isSignedIn(browser, base, username)).toBe(true);
  return browser;
}

/** Whether the browser's cookie shows `username`'s dashboard. */
export async function isSignedIn(browser: PanelBrowser, base: string, username: string): Promise<boolean> {
  return (await browser.get(base)).text.includes(`Signed in as <strong>${username}</strong>`);
}
