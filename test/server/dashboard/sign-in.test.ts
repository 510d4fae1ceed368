/**
 * The dashboard's sign-in (src/server/ui/): a code from the admin route, good once and for two
 * minutes of real time (the sandbox clock does not move it); an HttpOnly SameSite=Strict cookie
 * scoped to /sandbox/ui; a redirect to a URL without the code; every page and form refused
 * without the cookie; every form refused without its token; sign-out ends the sign-in.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeClock, startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { dashboardSignIn, openLink, postDashboard, signInLink } from '../../helpers/dashboard.js';
import { DASHBOARD_VIEWS } from '../../../src/server/ui/views.js';
import { viewPath } from '../../../src/server/ui/layout.js';
import { SIGN_IN_CODE_SECONDS } from '../../../src/server/ui/sign-in-codes.js';

let sb: TestSandbox;
let clock: ReturnType<typeof fakeClock>;

beforeEach(async () => {
  clock = fakeClock();
  sb = await startTestSandbox({ now: clock.now });
});
afterEach(() => sb.close());

describe('dashboard sign-in', () => {
  it('the admin route wants the admin token, and only POST', async () => {
    expect((await sb.request('/sandbox/ui-code', { method: 'POST' })).status).toBe(401);
    expect((await sb.request('/sandbox/ui-code', { method: 'POST', headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await sb.request('/sandbox/ui-code', { headers: { authorization: `Bearer ${sb.info.adminToken}` } })).status).toBe(405);
    const link = await signInLink(sb);
    expect(link.expiresIn).toBe(SIGN_IN_CODE_SECONDS);
    expect(link.url).toMatch(new RegExp(`^${sb.baseUrl}/sandbox/ui/login\\?code=[A-Za-z0-9_-]{32}$`));
    expect(link.url).not.toContain(sb.info.adminToken);
  });

  it('a code signs in once, with a Strict HttpOnly cookie, and the redirect drops the code', async () => {
    const { url } = await signInLink(sb);
    const first = await openLink(url);
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/sandbox/ui');
    const cookie = first.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^kactl_ui=[A-Za-z0-9_-]+; Path=\/sandbox\/ui; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    expect(cookie).not.toContain(new URL(url).searchParams.get('code'));
    expect(first.headers.get('referrer-policy')).toBe('no-referrer');
    const again = await openLink(url);
    expect(again.status).toBe(401);
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(await again.text()).toContain('already used or has expired');
    // The inspector keeps the sign-in's record with the code masked.
    const code = new URL(url).searchParams.get('code')!;
    const { requests } = await sb.requests({ type: '/sandbox/ui/login' });
    expect(requests).toHaveLength(2);
    expect(JSON.stringify(requests)).not.toContain(code);
    expect(JSON.stringify(await sb.requests({ type: 'uiCode' }))).not.toContain(code);
  });

  it('a code expires after two minutes of real time; moving the sandbox clock does not expire it', async () => {
    const late = await signInLink(sb);
    clock.advance(SIGN_IN_CODE_SECONDS + 1);
    expect((await openLink(late.url)).status).toBe(401);
    const moved = await signInLink(sb);
    await sb.advance(30 * 86_400);
    expect((await openLink(moved.url)).status).toBe(303);
    expect((await openLink(`${sb.baseUrl}/sandbox/ui/login?code=made-up`)).status).toBe(401);
    expect((await openLink(`${sb.baseUrl}/sandbox/ui/login`)).status).toBe(401);
  });

  it('a posted code (the private page kactl sandbox ui opens) signs in once; the page sets the cookie and moves on itself', async () => {
    const { url } = await signInLink(sb);
    const code = new URL(url).searchParams.get('code')!;
    const post = (): Promise<Response> =>
      fetch(`${sb.baseUrl}/sandbox/ui/login`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'null' }, body: `code=${code}` });
    const first = await post();
    expect(first.status).toBe(200);
    expect(first.headers.get('set-cookie')).toMatch(/^kactl_ui=[A-Za-z0-9_-]+; Path=\/sandbox\/ui; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    expect(first.headers.get('refresh')).toBe('0; url=/sandbox/ui');
    expect(await first.text()).toContain('href="/sandbox/ui"');
    const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
    expect((await sb.request('/sandbox/ui', { headers: { cookie } })).status).toBe(200);
    const again = await post();
    expect(again.status).toBe(401);
    expect(again.headers.get('set-cookie')).toBeNull();
  });

  it('after 30 wrong, spent or expired codes from one address, every code from it is 429 for ten minutes (issue 29 item 12)', async () => {
    for (let miss = 0; miss < 30; miss += 1) expect((await openLink(`${sb.baseUrl}/sandbox/ui/login?code=guess-${miss}`)).status).toBe(401);
    const good = await signInLink(sb);
    const locked = await openLink(good.url);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(500);
    expect(await locked.text()).toContain('Too many sign-in links');
    // Once the window is over, a fresh code signs in again.
    clock.advance(10 * 60 + 1);
    expect((await openLink((await signInLink(sb)).url)).status).toBe(303);
  });

  it('every view refuses without the cookie, and with a cookie that was never issued', async () => {
    for (const view of DASHBOARD_VIEWS) {
      for (const cookie of [undefined, 'kactl_ui=forged-session-id']) {
        const res = await sb.request(viewPath(view.id), cookie === undefined ? {} : { headers: { cookie } });
        expect(res.status, `${view.label} with ${cookie ?? 'no cookie'}`).toBe(401);
        expect(res.text).toContain('kactl sandbox ui');
        expect(res.text).not.toContain('form_token');
      }
    }
    const live = await sb.request('/sandbox/ui/requests/live');
    expect(live.status).toBe(401);
  });

  it('a signed-in page carries the security headers: a nonce policy, no framing, no caching', async () => {
    const { cookie } = await dashboardSignIn(sb);
    for (const view of DASHBOARD_VIEWS) {
      const res = await sb.request(viewPath(view.id), { headers: { cookie } });
      expect(res.status, view.label).toBe(200);
      const policy = res.headers.get('content-security-policy') ?? '';
      expect(policy).toMatch(/^default-src 'none'; style-src 'nonce-[A-Za-z0-9+/=]+'; script-src 'nonce-[A-Za-z0-9+/=]+'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'$/);
      expect(policy).not.toContain('unsafe-inline');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      // Every form but the filters (GET) carries the token.
      const posts = res.text.match(/<form method="post"[^>]*>/g) ?? [];
      const tokens = res.text.match(/<form method="post"[^>]*><input type="hidden" name="form_token"/g) ?? [];
      expect(posts.length, view.label).toBeGreaterThan(0);
      expect(tokens.length, view.label).toBe(posts.length);
    }
  });

  it('a form without its token, or with another sign-in\'s, is refused and changes nothing', async () => {
    const me = await dashboardSignIn(sb);
    const other = await dashboardSignIn(sb);
    expect(other.formToken).not.toBe(me.formToken);
    const count = (): number => sb.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM licenses')!.n;
    for (const form_token of [undefined, '', other.formToken, `${me.formToken}x`]) {
      const form: Record<string, string> = { amount: '3', expiry: '30', level: '1' };
      if (form_token !== undefined) form['form_token'] = form_token;
      const res = await postDashboard(sb, me, '/sandbox/ui/licenses/create', form);
      expect(res.status, `token ${form_token}`).toBe(403);
      expect(await res.text()).toContain('This form has expired');
    }
    expect(count()).toBe(0);
    // No cookie at all: refused as signed out.
    const anonymous = await postDashboard(sb, { cookie: '' }, '/sandbox/ui/licenses/create', { form_token: me.formToken, amount: '1', expiry: '1' });
    expect(anonymous.status).toBe(401);
    const done = await postDashboard(sb, me, '/sandbox/ui/licenses/create', { form_token: me.formToken, amount: '3', expiry: '30', level: '1' });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/sandbox/ui/licenses');
    expect(count()).toBe(3);
  });

  it('sign-out ends the sign-in: the old cookie is refused', async () => {
    const me = await dashboardSignIn(sb);
    const out = await postDashboard(sb, me, '/sandbox/ui/logout', { form_token: me.formToken });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0');
    expect((await sb.request('/sandbox/ui', { headers: { cookie: me.cookie } })).status).toBe(401);
  });

  it('a sign-in lasts 12 hours of real time', async () => {
    const me = await dashboardSignIn(sb);
    clock.advance(12 * 3600 - 5);
    expect((await sb.request('/sandbox/ui', { headers: { cookie: me.cookie } })).status).toBe(200);
    clock.advance(10);
    expect((await sb.request('/sandbox/ui', { headers: { cookie: me.cookie } })).status).toBe(401);
  });
});
