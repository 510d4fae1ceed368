/**
 * Signing in to the sandbox's dashboard (`/sandbox/ui`) as `kactl sandbox ui` does: a one-time
 * code from the admin route `POST /sandbox/ui-code`, spent at the link it comes in.
 */
import { expect } from 'vitest';
import type { TestSandbox } from './sandbox.js';

export interface DashboardSignIn {
  /** The `Cookie` header value a browser would send. */
  readonly cookie: string;
  /** The form token the dashboard's forms carry. */
  readonly formToken: string;
}

/** A fresh sign-in link: `{ url, expiresIn }`. */
export async function signInLink(sb: TestSandbox): Promise<{ url: string; expiresIn: number }> {
  const res = await sb.request('/sandbox/ui-code', { method: 'POST', headers: { authorization: `Bearer ${sb.info.adminToken}` } });
  if (res.status !== 200) throw new Error(`ui-code answered ${res.status}: ${res.text}`);
  return res.json as { url: string; expiresIn: number };
}

/** Spends a link without following the redirect. */
export function openLink(url: string): Promise<Response> {
  return fetch(url, { redirect: 'manual' });
}

export async function dashboardSignIn(sb: TestSandbox): Promise<DashboardSignIn> {
  const res = await openLink((await signInLink(sb)).url);
  const setCookie = res.headers.get('set-cookie');
  if (res.status !== 303 || setCookie === null) throw new Error(`sign-in answered ${res.status}`);
  const cookie = setCookie.split(';')[0]!;
  const page = await sb.request('/sandbox/ui', { headers: { cookie } });
  const formToken = /name="form_token" value="([^"]+)"/.exec(page.text)?.[1];
  if (formToken === undefined) throw new Error('no form token on the dashboard');
  return { cookie, formToken };
}

/** A dashboard form posted as a browser would (no redirect followed). */
export function postDashboard(sb: TestSandbox, signIn: Pick<DashboardSignIn, 'cookie'>, path: string, form: Readonly<Record<string, string>>): Promise<Response> {
  return fetch(`${sb.baseUrl}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: signIn.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
}

/**
 * Posts a dashboard form with its token; returns the notice the page it redirects to shows, as
 * `status: …` or `alert: …`, and checks it is shown once (a reload has none).
 */
export async function postForNotice(sb: TestSandbox, signIn: DashboardSignIn, path: string, form: Readonly<Record<string, string>>): Promise<string> {
  const res = await postDashboard(sb, signIn, path, { form_token: signIn.formToken, ...form });
  expect(res.status, await res.clone().text()).toBe(303);
  const page = await sb.request(res.headers.get('location')!, { headers: { cookie: signIn.cookie } });
  const notice = /<p role="(status|alert)">([^<]*)<\/p>/.exec(page.text);
  if (notice === null) throw new Error(`no notice after ${path}`);
  const reload = await sb.request(res.headers.get('location')!, { headers: { cookie: signIn.cookie } });
  expect(reload.text).not.toMatch(/<p role="(status|alert)">/);
  return `${notice[1]}: ${notice[2]}`;
}
