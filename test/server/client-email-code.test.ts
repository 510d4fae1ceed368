/** emailCodeSend / emailCodeVerify over real HTTP (docs/design.md: 6 digits, single use, 10 minutes, 5 tries). */
import { describe, expect, it } from 'vitest';
import { fakeClock, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { banUser } from '../../src/server/domain/bans.js';
import { totpCode } from '../../src/server/domain/twofa.js';
import { HWID, OTHER_HWID, registerUser, SESSION_NOT_FOUND } from './support/client-fixtures.js';

const EMAIL = 'mona@example.com';

async function sendCode(sb: TestSandbox, sid?: string): Promise<string> {
  const res = await sb.client('emailCodeSend', { sessionid: sid ?? (await sb.init()), email: EMAIL, hwid: HWID });
  expect(res.json, res.text).toMatchObject({ success: true, message: 'Email code sent' });
  return (await sb.outbox({ kind: 'email-code' })).at(-1)!.data['code'] as string;
}

/** A 6-digit code other than `code`. */
const other = (code: string): string => (code === '000000' ? '000001' : '000000');

describe('emailCodeSend', () => {
  it('mails a 6-digit code; the store keeps only a salted hash', async () => {
    const sb = await startTestSandbox();
    await registerUser(sb, { username: 'mona', email: EMAIL });
    const code = await sendCode(sb);
    expect(code).toMatch(/^\d{6}$/);
    const [mail] = await sb.outbox({ kind: 'email-code' });
    expect(mail).toMatchObject({ to: EMAIL, link: null, data: { code, username: 'mona' } });
    expect(mail!.subject).toContain(code);
    expect(mail!.text).toContain('10 minutes');
    const stored = sb.store.all<{ codeHash: string }>('SELECT codeHash FROM email_codes');
    expect(stored).toHaveLength(1);
    expect(stored[0]!.codeHash).toMatch(/^sha256\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
    expect(stored[0]!.codeHash).not.toContain(code);
  });

  it('refuses a missing or unknown email, the HWID rules, a banned user, no session', async () => {
    const sb = await startTestSandbox();
    const { username } = await registerUser(sb, { username: 'mona', email: EMAIL });
    const sid = await sb.init();
    const send = async (params: Record<string, string | undefined>) => (await sb.client('emailCodeSend', { sessionid: sid, email: EMAIL, hwid: HWID, ...params })).json.message as string;
    expect(await send({ email: undefined })).toBe('No email provided');
    expect(await send({ email: 'nobody@example.com' })).toBe('No user found with that email');
    expect(await send({ hwid: undefined })).toBe('Force HWID is enabled, disable in app settings if you want to use blank HWIDs');
    banUser(sb.store, sb.app().id, username, 'x', {});
    expect(await send({})).toBe('The user is banned');
    expect((await sb.client('emailCodeSend', { email: EMAIL, hwid: HWID })).json.message).toBe(SESSION_NOT_FOUND);
    expect(await sb.outbox({ kind: 'email-code' })).toEqual([]);
  });
});

describe('emailCodeVerify', () => {
  it('logs in with the code (info, session validated), once', async () => {
    const sb = await startTestSandbox();
    await registerUser(sb, { username: 'mona', email: EMAIL });
    const sid = await sb.init();
    const code = await sendCode(sb, sid);
    const res = await sb.client('emailCodeVerify', { sessionid: sid, email: EMAIL, code, hwid: HWID });
    expect(res.status).toBe(200);
    expect(sb.verify13(res)).toBe(true);
    expect(res.json).toMatchObject({ success: true, code: 68, message: 'Logged in!', info: { username: 'mona', hwid: HWID } });
    expect((await sb.client('check', { sessionid: sid })).json.message).toBe('Session is validated.');
    const again = await sb.client('emailCodeVerify', { sessionid: await sb.init(), email: EMAIL, code, hwid: HWID });
    expect(again.json.message).toBe('No email code pending, request a new one');
  });

  it('refuses a missing code, a missing or unknown email, and a session that is gone', async () => {
    const sb = await startTestSandbox();
    await registerUser(sb, { username: 'mona', email: EMAIL });
    const sid = await sb.init();
    const verify = async (params: Record<string, string | undefined>) => (await sb.client('emailCodeVerify', { sessionid: sid, email: EMAIL, code: '123456', hwid: HWID, ...params })).json.message as string;
    expect(await verify({})).toBe('No email code pending, request a new one');
    expect(await verify({ code: undefined })).toBe('No code provided');
    expect(await verify({ email: undefined })).toBe('No email provided');
    expect(await verify({ email: 'nobody@example.com' })).toBe('No user found with that email');
    expect(await verify({ sessionid: 'ZZZZZZZZZZ' })).toBe(SESSION_NOT_FOUND);
  });

  it('dies after 5 wrong tries, even for the right code afterwards', async () => {
    const sb = await startTestSandbox();
    await registerUser(sb, { username: 'mona', email: EMAIL });
    const sid = await sb.init();
    const code = await sendCode(sb, sid);
    const verify = async (c: string) => (await sb.client('emailCodeVerify', { sessionid: sid, email: EMAIL, code: c, hwid: HWID })).json.message as string;
    for (let i = 0; i < 4; i++) expect(await verify(other(code))).toBe('Invalid email code');
    expect(await verify('not-digits')).toBe('Invalid email code. Too many wrong codes, request a new one');
    expect(await verify(code)).toBe('Too many wrong codes, request a new one');
    expect((await sb.client('check', { sessionid: sid })).json.message).toBe('Session is not validated');
  });

  it('never compares more than 5 guesses, however many arrive at once', async () => {
    const sb = await startTestSandbox();
    await registerUser(sb, { username: 'mona', email: EMAIL });
    const sid = await sb.init();
    const code = await sendCode(sb, sid);
    const answers = await Promise.all(Array.from({ length: 20 }, () => sb.client('emailCodeVerify', { sessionid: sid, email: EMAIL, code: other(code), hwid: HWID })));
    expect(answers.filter((a) => String(a.json.message).startsWith('Invalid email code'))).toHaveLength(5);
    expect(answers.filter((a) => a.json.message === 'Too many wrong codes, request a new one')).toHaveLength(15);
  });

  it('expires after 10 minutes; a newer code replaces an older one', async () => {
    const clock = fakeClock();
    const sb = await startTestSandbox({ now: clock.now });
    await registerUser(sb, { username: 'mona', email: EMAIL });
    const sid = await sb.init();
    const first = await sendCode(sb, sid);
    clock.advance(600);
    expect((await sb.client('emailCodeVerify', { sessionid: sid, email: EMAIL, code: first, hwid: HWID })).json.message).toBe('Email code expired, request a new one');
    const older = await sendCode(sb, sid);
    const newer = await sendCode(sb, sid);
    if (older !== newer) expect((await sb.client('emailCodeVerify', { sessionid: sid, email: EMAIL, code: older, hwid: HWID })).json.message).toBe('Invalid email code');
    expect((await sb.client('emailCodeVerify', { sessionid: sid, email: EMAIL, code: newer, hwid: HWID })).json.success).toBe(true);
  });

  it('runs the login pipeline with the hwid sent to verify, and 2FA as `totp`, keeping the code until a login succeeds', async () => {
    const clock = fakeClock();
    const sb = await startTestSandbox({ now: clock.now });
    const { sid: loggedIn } = await registerUser(sb, { username: 'mona', email: EMAIL });
    const sid = await sb.init();
    const code = await sendCode(sb, sid);
    const verify = (params: Record<string, string | undefined>) => sb.client('emailCodeVerify', { sessionid: sid, email: EMAIL, code, hwid: HWID, ...params });
    expect((await verify({ hwid: OTHER_HWID })).json.message).toBe("HWID doesn't match. Ask for a HWID reset");
    expect((await verify({ hwid: undefined })).json.message).toBe('Force HWID is enabled, disable in app settings if you want to use blank HWIDs');

    const secret = (await sb.client('2faenable', { sessionid: loggedIn })).json['2fa'].secret_code as string;
    await sb.client('2faenable', { sessionid: loggedIn, code: totpCode(secret, clock.seconds()) });
    expect((await verify({})).json.message).toBe('2FA code required.');
    expect((await verify({ totp: totpCode(secret, clock.seconds()) })).json.success).toBe(true);
  });
});
