/**
 * Issue 9 item 6: durations and levels that make no sense are refused with the failure shape,
 * and a key of no duration cannot be redeemed.
 */
import { describe, expect, it } from 'vitest';
import { startTestSandbox } from '../../helpers/sandbox.js';
import { HWID, newKey, registerUser } from '../support/client-fixtures.js';

describe('seller values that must be greater than zero', () => {
  it.each([
    ['add', { expiry: '-1' }],
    ['add', { expiry: '0' }],
    ['add', { expiry: '1e-400' }],
    ['add', { expiry: '0.000001' }],
    ['add', { expiry: '1', level: '0' }],
    ['add', { expiry: '1', level: '-1' }],
    ['addsub', { name: 'gold', level: '0' }],
  ])('%s %j is refused', async (type, params) => {
    const sb = await startTestSandbox();
    const before = (await sb.seller('fetchallkeys')).text;
    const res = await sb.seller(type, params);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: false, message: expect.stringMatching(/must be greater than zero$/) });
    expect((await sb.seller('fetchallkeys')).text).toBe(before);
  });

  it('muteuser time=-1 is refused; a positive time still mutes', async () => {
    const sb = await startTestSandbox();
    await registerUser(sb, { username: 'muted' });
    expect((await sb.seller('muteuser', { user: 'muted', time: '-1' })).json).toMatchObject({ success: false, message: 'Invalid parameter: time must be greater than zero' });
    expect((await sb.seller('muteuser', { user: 'muted', time: '60' })).json).toMatchObject({ success: true });
  });

  it('a sensible add still works (fractional days)', async () => {
    const sb = await startTestSandbox();
    expect((await sb.seller('add', { expiry: '0.5', level: '1' })).json).toMatchObject({ success: true });
  });
});

describe('register with a key of no duration', () => {
  it('is refused, and the key is not burnt', async () => {
    const sb = await startTestSandbox();
    const key = newKey(sb, { expires: 0 });
    const sid = await sb.init();
    const res = await sb.client('register', { sessionid: sid, username: 'zero', pass: 'pw', key, hwid: HWID });
    expect(res.json).toMatchObject({ success: false, message: 'This license has no duration, ask the seller for a working one.' });
    expect(sb.verify13(res)).toBe(true);
    expect((await sb.client('check', { sessionid: sid })).json.success).toBe(false);
    expect((await sb.seller('info', { key })).json).toMatchObject({ status: 'Not Used' });
  });
});
