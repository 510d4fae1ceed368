/**
 * Issue 9 item 4: wrong 2FA codes are counted per user (whatever the path: login, magic link),
 * and after a few in a window every code is refused with a clear message; the client rate limit
 * is per client IP and app, so one guesser does not throttle every user of the app.
 */
import { describe, expect, it } from 'vitest';
import { fakeClock, startTestSandbox } from '../../helpers/sandbox.js';
import { totpCode } from '../../../src/server/domain/twofa.js';
import { HWID, enable2fa, registerUser, wrongCode } from '../support/client-fixtures.js';

const EMAIL = 'lena@example.com';

describe('wrong 2FA codes', () => {
  it('after 5 wrong codes at login even the right one is refused, until the window ends', async () => {
    const clock = fakeClock();
    const sb = await startTestSandbox({ now: clock.now });
    const { sid, username, pass } = await registerUser(sb, { username: 'lena' });
    const secret = await enable2fa(sb, sid, clock.seconds());
    const login = async (code: string) => sb.client('login', { sessionid: await sb.init(), username, pass, hwid: HWID, code });
    for (let i = 0; i < 5; i++) expect((await login(wrongCode(secret, clock.seconds()))).json.message).toBe('Invalid 2FA code.');
    const locked = await login(totpCode(secret, clock.seconds()));
    expect(locked.json).toMatchObject({ success: false, message: 'Too many wrong 2FA codes. Try again in 15 minutes.' });
    expect(sb.verify13(locked)).toBe(true);
    clock.advance(15 * 60);
    expect((await login(totpCode(secret, clock.seconds()))).json.success).toBe(true);
  });

  it('counts guesses made through magicLinkCheck against the same user', async () => {
    const clock = fakeClock();
    const sb = await startTestSandbox({ now: clock.now });
    const { sid, username, pass } = await registerUser(sb, { username: 'lena', email: EMAIL });
    const secret = await enable2fa(sb, sid, clock.seconds());
    const linkSid = await sb.init();
    expect((await sb.client('magicLinkSend', { sessionid: linkSid, email: EMAIL, hwid: HWID })).json.success).toBe(true);
    const link = (await sb.outbox({ kind: 'magic-link' })).at(-1)!.link!;
    expect((await sb.page(new URL(link).pathname, { decision: 'approve' })).status).toBe(200);
    for (let i = 0; i < 5; i++) {
      expect((await sb.client('magicLinkCheck', { sessionid: linkSid, code: wrongCode(secret, clock.seconds()) })).json.message).toBe('Invalid 2FA code.');
    }
    const viaLink = await sb.client('magicLinkCheck', { sessionid: linkSid, code: totpCode(secret, clock.seconds()) });
    expect(viaLink.json.message).toMatch(/^Too many wrong 2FA codes/);
    const viaLogin = await sb.client('login', { sessionid: await sb.init(), username, pass, hwid: HWID, code: totpCode(secret, clock.seconds()) });
    expect(viaLogin.json.message).toMatch(/^Too many wrong 2FA codes/);
  });
});

describe('client rate limit', () => {
  it('is per client IP and app: one client over the limit does not throttle another', async () => {
    const sb = await startTestSandbox({ rateLimit: true, trustProxy: true });
    const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
    for (let i = 0; i < 200; i++) await sb.client('bogus', {}, from('203.0.113.7'));
    expect((await sb.client('init', { ver: sb.info.app.version }, from('203.0.113.7'))).status).toBe(429);
    const other = await sb.client('init', { ver: sb.info.app.version }, from('198.51.100.9'));
    expect(other.status).toBe(200);
    expect(other.json.success).toBe(true);
  });
});
