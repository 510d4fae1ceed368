/**
 * The dashboard's seller actions run the seller API's own handlers (ui/seller-ops.ts): the same
 * checks, side effects and messages as `GET /api/seller/?type=…` — a ban ends the user's
 * sessions, `add` counts against the daily quota and refuses what the API refuses — and the
 * message comes back once, on the page the form redirects to. The clock forms move the same
 * domain clock as `POST /sandbox/clock`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { dashboardSignIn, postForNotice, type DashboardSignIn } from '../../helpers/dashboard.js';

let sb: TestSandbox;
let me: DashboardSignIn;

function act(path: string, form: Record<string, string>): Promise<string> {
  return postForNotice(sb, me, path, form);
}

async function login(): Promise<string> {
  const sid = await sb.init({ hwid: 'HWID-ONE-0000-0000-0000' });
  const res = await sb.client('login', { sessionid: sid, username: 'dora', pass: 'dora-pass-1', hwid: 'HWID-ONE-0000-0000-0000' });
  expect(res.json?.success, res.text).toBe(true);
  return sid;
}

beforeAll(async () => {
  sb = await startTestSandbox();
  await sb.seller('addsub', { name: 'default', level: '1' }); // the seeded app may have it already
  expect((await sb.seller('adduser', { user: 'dora', sub: 'default', expiry: '30', pass: 'dora-pass-1' })).json?.success).toBe(true);
  me = await dashboardSignIn(sb);
});
afterAll(() => sb.close());

describe('dashboard seller actions', () => {
  it('creates licenses through add: its message, its keys, its refusals', async () => {
    expect(await act('/sandbox/ui/licenses/create', { amount: '2', expiry: '7', level: '1', mask: '', note: 'from the dashboard' })).toMatch(/^status: Licenses successfully generated: [A-Za-z0-9-]+, [A-Za-z0-9-]+$/);
    const keys = sb.store.all<{ note: string; expires: number; genby: string }>('SELECT note, expires, genby FROM licenses');
    expect(keys).toHaveLength(2);
    expect(keys[0]).toEqual({ note: 'from the dashboard', expires: 7 * 86_400, genby: 'SellerAPI' });
    // The API's own refusal, in its words.
    expect(await act('/sandbox/ui/licenses/create', { amount: '101', expiry: '7', level: '1' })).toBe('alert: You can only generate 100 licenses at a time');
  });

  it('ban ends the user\'s sessions (the seller API\'s side effect); unban; HWID reset', async () => {
    const sid = await login();
    expect(await act('/sandbox/ui/users/ban', { user: 'dora', reason: 'chargeback' })).toBe('status: Successfully banned user!');
    expect(sb.store.get<{ banned: string }>("SELECT banned FROM users WHERE username = 'dora'")?.banned).toBe('chargeback');
    expect(sb.store.get('SELECT id FROM sessions WHERE id = ?', sid)).toBeUndefined();
    expect(await act('/sandbox/ui/users/unban', { user: 'dora' })).toBe('status: Successfully unbanned user!');
    expect(await act('/sandbox/ui/users/unban', { user: 'dora' })).toBe('alert: Failed to unban user!');
    expect(sb.store.get<{ hwid: string }>("SELECT hwid FROM users WHERE username = 'dora'")?.hwid).toBe('HWID-ONE-0000-0000-0000');
    expect(await act('/sandbox/ui/users/reset-hwid', { user: 'dora' })).toBe('status: Successfully reset user!');
    expect(sb.store.get<{ hwid: string | null }>("SELECT hwid FROM users WHERE username = 'dora'")?.hwid ?? null).toBeNull();
  });

  it('ends a session through kill', async () => {
    const sid = await login();
    expect(await act('/sandbox/ui/sessions/end', { sessid: sid })).toBe('status: Successfully killed session!');
    expect((await sb.client('check', { sessionid: sid })).json?.success).toBe(false);
    expect(await act('/sandbox/ui/sessions/end', { sessid: sid })).toBe('alert: Failed to kill session!');
  });

  it('moves the sandbox clock forward and back, and resets it', async () => {
    expect(await act('/sandbox/ui/clock/advance', { by: '2d', direction: 'forward' })).toBe('status: The sandbox clock is now 2 days ahead of real time (172800 s).');
    expect((await sb.clock()).offset).toBe(172_800);
    expect(await act('/sandbox/ui/clock/advance', { by: '3d', direction: 'back' })).toBe('status: The sandbox clock is now 1 day behind real time (-86400 s).');
    expect(await act('/sandbox/ui/clock/advance', { by: 'soon', direction: 'forward' })).toMatch(/^alert: Give a number of seconds or a duration/);
    expect(await act('/sandbox/ui/clock/reset', {})).toBe('status: The sandbox clock is back on real time.');
    expect((await sb.clock()).offset).toBe(0);
  });

  it('the inspector records the forms posted and the sign-in, not the tester\'s page visits', async () => {
    const { requests } = await sb.requests({ api: 'page', limit: '1000' });
    const seen = new Set(requests.map((record) => `${record.method} ${record.type}`));
    expect(seen).toContain('POST /sandbox/ui/licenses/create');
    expect(seen).toContain('POST /sandbox/ui/users/ban');
    expect(seen).toContain('GET /sandbox/ui/login');
    expect([...seen].filter((entry) => entry.startsWith('GET ') && entry !== 'GET /sandbox/ui/login')).toEqual([]);
    // The form token is a secret: masked in the record.
    const create = requests.find((record) => record.type === '/sandbox/ui/licenses/create');
    expect(create?.params['form_token']).not.toBe(me.formToken);
    expect(JSON.stringify(requests)).not.toContain(me.formToken);
  });
});
