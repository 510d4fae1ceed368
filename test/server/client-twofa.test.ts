/** 2faenable / 2fadisable and 2FA at login, over real HTTP (docs/protocol/client-api.md §4.23, §4.24, §4.26). */
import { describe, expect, it } from 'vitest';
import { fakeClock, startTestSandbox } from '../helpers/sandbox.js';
import { totpCode } from '../../src/server/domain/twofa.js';
import { HWID, enable2fa, init12, newKey, registerUser, wrongCode } from './support/client-fixtures.js';

const V12 = { api: '1.2', method: 'POST' } as const;

describe('2faenable', () => {
  it('makes a secret on the first call and enables 2FA with the code on the second', async () => {
    const clock = fakeClock();
    const sb = await startTestSandbox({ now: clock.now });
    const { sid, username } = await registerUser(sb);
    const first = await sb.client('2faenable', { sessionid: sid });
    expect(first.status).toBe(200);
    expect(sb.verify13(first)).toBe(true);
    expect(Object.keys(first.json)).toEqual(['success', 'code', 'message', '2fa', 'ownerid']);
    const secret = first.json['2fa'].secret_code as string;
    expect(secret).toMatch(/^[A-Z2-7]{40}$/);
    expect(first.json['2fa'].QRCode).toBe(`otpauth://totp/${username}?secret=${secret}&issuer=KeyAuth`);

    const wrong = await sb.client('2faenable', { sessionid: sid, code: wrongCode(secret, clock.seconds()) });
    expect(wrong.status).toBe(200);
    expect(wrong.json).toEqual({ success: false, code: 0, message: 'Invalid code please try again', ownerid: sb.info.app.ownerid });

    clock.advance(30);
    const right = await sb.client('2faenable', { sessionid: sid, code: totpCode(secret, clock.seconds() - 30) });
    expect(right.json).toEqual({ success: true, code: 68, message: '2fa successfully activated', ownerid: sb.info.app.ownerid });
    expect((await sb.client('2faenable', { sessionid: sid })).json.message).toBe('2fa is already enabled on this account');
  });

  it('answers the source shapes on 1.2, but a wrong code and an expired secret are failures there too', async () => {
    const clock = fakeClock();
    const sb = await startTestSandbox({ now: clock.now });
    const { username, pass } = await registerUser(sb);
    const sid = await init12(sb);
    await sb.client('login', { sessionid: sid, username, pass, hwid: HWID }, V12);
    const first = await sb.client('2faenable', { sessionid: sid }, V12);
    const secret = first.json['2fa'].secret_code as string;
    expect(first.text).toBe(`{"success":true,"2fa":{"secret_code":"${secret}","QRCode":"otpauth:\\/\\/totp\\/${username}?secret=${secret}&issuer=KeyAuth"}}`);
    expect((await sb.client('2faenable', { sessionid: sid, code: wrongCode(secret, clock.seconds()) }, V12)).text).toBe('{"success":false,"message":"Invalid code please try again"}');
    clock.advance(301);
    expect((await sb.client('2faenable', { sessionid: sid, code: totpCode(secret, clock.seconds()) }, V12)).text).toBe('{"success":false,"message":"2fa session has expired"}');
    expect((await sb.client('2faenable', { sessionid: sid, code: '123456' }, V12)).json.message).toBe('2fa session has expired');
  });

  it('needs a logged-in session', async () => {
    const sb = await startTestSandbox();
    const sid = await sb.init();
    expect((await sb.client('2faenable', { sessionid: sid })).json.message).toBe('Session is not validated');
    expect((await sb.client('2fadisable', { sessionid: sid, code: '123456' })).json.message).toBe('Session is not validated');
  });
});

describe('2FA at login', () => {
  it('login, license and loginEmail want the code once 2FA is on, on 1.3 and 1.2', async () => {
    const clock = fakeClock();
    const sb = await startTestSandbox({ now: clock.now });
    const { sid, username, pass } = await registerUser(sb, { email: 'kim@example.com' });
    const secret = await enable2fa(sb, sid, clock.seconds());
    const fresh = await sb.init();
    const login = (params: Record<string, string | undefined>, options = {}) => sb.client('login', { sessionid: fresh, username, pass, hwid: HWID, ...params }, options);

    expect((await login({})).json.message).toBe('2FA code required.');
    expect((await login({ code: wrongCode(secret, clock.seconds()) })).json.message).toBe('Invalid 2FA code.');
    expect((await login({ code: 'abcdef' })).json.message).toBe('Invalid 2FA code.');
    expect((await sb.client('check', { sessionid: fresh })).json.message).toBe('Session is not validated');
    expect((await login({ code: totpCode(secret, clock.seconds()) })).json.success).toBe(true);
    const fresh12 = await init12(sb);
    expect((await sb.client('login', { sessionid: fresh12, username, pass, hwid: HWID }, V12)).json.message).toBe('2FA code required.');
    const byEmail = await sb.client('loginEmail', { sessionid: await sb.init(), email: 'kim@example.com', pass, hwid: HWID });
    expect(byEmail.json.message).toBe('2FA code required.');
  });

  it('the license flow takes the code too', async () => {
    const clock = fakeClock();
    const sb = await startTestSandbox({ now: clock.now });
    const key = newKey(sb);
    const sid = await sb.init();
    expect((await sb.client('license', { sessionid: sid, key, hwid: HWID })).json.success).toBe(true);
    const secret = await enable2fa(sb, sid, clock.seconds());
    const again = await sb.init();
    expect((await sb.client('license', { sessionid: again, key, hwid: HWID })).json.message).toBe('2FA code required.');
    expect((await sb.client('license', { sessionid: again, key, hwid: HWID, code: totpCode(secret, clock.seconds()) })).json.success).toBe(true);
  });
});

describe('2fadisable', () => {
  it('wants a code, 2FA on, and the right code; then logins need no code', async () => {
    const clock = fakeClock();
    const sb = await startTestSandbox({ now: clock.now });
    const { sid, username, pass } = await registerUser(sb);
    expect((await sb.client('2fadisable', { sessionid: sid, code: '123456' })).json.message).toBe('2fa is not enabled on this account');
    const secret = await enable2fa(sb, sid, clock.seconds());
    expect((await sb.client('2fadisable', { sessionid: sid })).json.message).toBe('Please provide the 2fa code to disable 2fa');
    const wrong = await sb.client('2fadisable', { sessionid: sid, code: wrongCode(secret, clock.seconds()) });
    expect(wrong.status).toBe(200);
    expect(wrong.json).toMatchObject({ success: false, message: 'Invalid code please try again' });
    const off = await sb.client('2fadisable', { sessionid: sid, code: totpCode(secret, clock.seconds()) });
    expect(off.json).toEqual({ success: true, code: 68, message: '2fa successfully disabled', ownerid: sb.info.app.ownerid });
    expect((await sb.client('login', { sessionid: await sb.init(), username, pass, hwid: HWID })).json.success).toBe(true);
    expect((await sb.client('2fadisable', { sessionid: sid, code: totpCode(secret, clock.seconds()) })).json.message).toBe('2fa is not enabled on this account');
  });
});

describe('2FA and the sandbox clock', () => {
  // An authenticator app shows the code of real time; moving the sandbox's domain clock
  // (`kactl sandbox advance 16m`) must not make its codes wrong, nor make "real time + offset" right.
  it('checks codes against real time after the domain clock moved, at enable, login and disable', async () => {
    const clock = fakeClock();
    const sb = await startTestSandbox({ now: clock.now });
    const { sid, username, pass } = await registerUser(sb);
    await sb.advance(16 * 60);
    const first = await sb.client('2faenable', { sessionid: sid });
    const secret = first.json['2fa'].secret_code as string;
    const shifted = await sb.client('2faenable', { sessionid: sid, code: totpCode(secret, clock.seconds() + 960) });
    expect(shifted.json.message).toBe('Invalid code please try again');
    const real = await sb.client('2faenable', { sessionid: sid, code: totpCode(secret, clock.seconds()) });
    expect(real.json).toMatchObject({ success: true, message: '2fa successfully activated' });

    await sb.advance(3600);
    const fresh = await sb.init();
    const login = (code: string) => sb.client('login', { sessionid: fresh, username, pass, hwid: HWID, code });
    expect((await login(totpCode(secret, clock.seconds() + 960 + 3600))).json.message).toBe('Invalid 2FA code.');
    expect((await login(totpCode(secret, clock.seconds()))).json.success).toBe(true);
    expect((await sb.client('2fadisable', { sessionid: fresh, code: totpCode(secret, clock.seconds()) })).json.success).toBe(true);
  });
});
