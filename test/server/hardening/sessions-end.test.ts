/**
 * Issue 9 item 5: a seller's pauseuser, license ban, resetpw and pauseapp end the affected live
 * sessions: `check` and `setvar` on them are refused, as a new login is.
 */
import { describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { HWID, newKey, registerUser } from '../support/client-fixtures.js';

async function expectEnded(sb: TestSandbox, sid: string): Promise<void> {
  expect((await sb.client('check', { sessionid: sid })).json.success).toBe(false);
  expect((await sb.client('setvar', { sessionid: sid, var: 'note', data: 'still here' })).json.success).toBe(false);
}

async function expectLive(sb: TestSandbox, sid: string): Promise<void> {
  expect((await sb.client('check', { sessionid: sid })).json.success).toBe(true);
}

describe('seller actions end live sessions', () => {
  it('pauseuser', async () => {
    const sb = await startTestSandbox();
    const alice = await registerUser(sb, { username: 'alice' });
    const bob = await registerUser(sb, { username: 'bob' });
    expect((await sb.seller('pauseuser', { username: 'alice' })).json.success).toBe(true);
    await expectEnded(sb, alice.sid);
    await expectLive(sb, bob.sid);
  });

  it('license ban, for the user made from that license', async () => {
    const sb = await startTestSandbox();
    const key = newKey(sb);
    const sid = await sb.init();
    expect((await sb.client('license', { sessionid: sid, key, hwid: HWID })).json.success).toBe(true);
    const other = await registerUser(sb, { username: 'other' });
    expect((await sb.seller('ban', { key, reason: 'chargeback' })).json.success).toBe(true);
    await expectEnded(sb, sid);
    await expectLive(sb, other.sid);
    const again = await sb.init();
    expect((await sb.client('license', { sessionid: again, key, hwid: HWID })).json.success).toBe(false);
  });

  it('resetpw', async () => {
    const sb = await startTestSandbox();
    const alice = await registerUser(sb, { username: 'alice' });
    expect((await sb.seller('resetpw', { user: 'alice', passwd: 'new secret' })).json.success).toBe(true);
    await expectEnded(sb, alice.sid);
  });

  it('pauseapp', async () => {
    const sb = await startTestSandbox();
    const alice = await registerUser(sb, { username: 'alice' });
    expect((await sb.seller('pauseapp')).json.success).toBe(true);
    await expectEnded(sb, alice.sid);
  });
});
