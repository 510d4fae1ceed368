/**
 * The dashboard's App view counts people where it says users: one user signed in from three
 * sessions is one online user (and three signed-in sessions, which is what the client API's
 * `numOnlineUsers` counts and is shown as such). On the old code the view said "Online users 3".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { dashboardSignIn, type DashboardSignIn } from '../../helpers/dashboard.js';

let sb: TestSandbox;
let me: DashboardSignIn;

beforeAll(async () => {
  sb = await startTestSandbox();
  await sb.seller('addsub', { name: 'default', level: '1' });
  for (const user of ['dora', 'eve']) expect((await sb.seller('adduser', { user, sub: 'default', expiry: '30', pass: `${user}-pass-1` })).json?.success).toBe(true);
  me = await dashboardSignIn(sb);
});
afterAll(() => sb.close());

/** The value the App view shows for a count. */
async function shown(label: string): Promise<string | undefined> {
  const page = await sb.request('/sandbox/ui', { headers: { cookie: me.cookie } });
  return new RegExp(`<dt>${label}</dt><dd>([^<]*)</dd>`).exec(page.text)?.[1];
}

describe('the App view', () => {
  it('counts online users once however many sessions each holds, and the sessions apart', async () => {
    expect(await shown('Online users')).toBe('0');
    for (let i = 0; i < 3; i += 1) {
      const sid = await sb.init({ hwid: 'HWID-DORA-0000-0000-0001' });
      expect((await sb.client('login', { sessionid: sid, username: 'dora', pass: 'dora-pass-1', hwid: 'HWID-DORA-0000-0000-0001' })).json?.success).toBe(true);
    }
    // A session that never signed in is nobody.
    await sb.init();
    expect(await shown('Online users')).toBe('1');
    expect(await shown('Signed-in sessions')).toBe('3');
    const sid = await sb.init({ hwid: 'HWID-EVE-0000-0000-0001' });
    expect((await sb.client('login', { sessionid: sid, username: 'eve', pass: 'eve-pass-1', hwid: 'HWID-EVE-0000-0000-0001' })).json?.success).toBe(true);
    expect(await shown('Online users')).toBe('2');
    expect(await shown('Signed-in sessions')).toBe('4');
  });
});
