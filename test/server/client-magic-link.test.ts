/**
 * magicLinkSend / magicLinkCheck and the approval page, over real HTTP (docs/design.md; interface
 * spec §3 and §5: single use, 15 minutes). Expiry is reached with the admin clock.
 */
import { describe, expect, it } from 'vitest';
import { fakeClock, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { banUser } from '../../src/server/domain/bans.js';
import { addBlacklist } from '../../src/server/domain/blacklists.js';
import { totpCode } from '../../src/server/domain/twofa.js';
import { HWID, OTHER_HWID, registerUser, SESSION_NOT_FOUND } from './support/client-fixtures.js';

const EMAIL = 'lena@example.com';

/** A user with an email, and a fresh session that sent a magic link; returns the session and the link. */
async function sendLink(sb: TestSandbox, params: Record<string, string | undefined> = {}): Promise<{ sid: string; link: string; token: string }> {
  const sid = await sb.init();
  const res = await sb.client('magicLinkSend', { sessionid: sid, email: EMAIL, hwid: HWID, ...params });
  expect(res.json, res.text).toMatchObject({ success: true, message: 'Magic link sent' });
  const mail = (await sb.outbox({ kind: 'magic-link' })).at(-1)!;
  return { sid, link: mail.link!, token: mail.data['token'] as string };
}

const path = (link: string): string => new URL(link).pathname;

describe('the sandbox log', () => {
  it('never holds a page token whole', async () => {
    const lines: string[] = [];
    const sb = await startTestSandbox({ log: (line) => lines.push(line) });
    await registerUser(sb, { username: 'lena', email: EMAIL });
    const { link, token } = await sendLink(sb);
    expect((await sb.page(path(link))).status).toBe(200);
    const logged = lines.join('\n');
    expect(logged).toContain(`GET /sandbox/magic/${token.slice(0, 4)}…`);
    expect(logged).not.toContain(token);
  });
});

describe('magicLinkSend', () => {
  it('mails a single-use link to the sandbox page', async () => {
    const sb = await startTestSandbox();
    await registerUser(sb, { username: 'lena', email: 'Lena@Example.com' });
    const { link, token } = await sendLink(sb);
    const [mail] = await sb.outbox({ kind: 'magic-link' });
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(link).toBe(`${sb.baseUrl}/sandbox/magic/${token}`);
    expect(mail).toMatchObject({ kind: 'magic-link', to: EMAIL, subject: 'Sign in to sandbox-app', link, data: { token, username: 'lena' } });
    expect(mail!.text).toContain(link);
    expect(mail!.text).toContain('15 minutes');
  });

  it('refuses a missing or unknown email, the HWID rules, a banned user, a blacklisted machine, no session', async () => {
    const sb = await startTestSandbox();
    const { username } = await registerUser(sb, { username: 'lena', email: EMAIL });
    const sid = await sb.init();
    const send = async (params: Record<string, string | undefined>) => (await sb.client('magicLinkSend', { sessionid: sid, email: EMAIL, hwid: HWID, ...params })).json.message as string;
    expect(await send({ email: undefined })).toBe('No email provided');
    expect(await send({ email: 'nobody@example.com' })).toBe('No user found with that email');
    expect(await send({ hwid: undefined })).toBe('Force HWID is enabled, disable in app settings if you want to use blank HWIDs');
    expect(await send({ hwid: 'short' })).toBe('HWID must be 20 or more characters, change this in app settings.');
    addBlacklist(sb.store, sb.app().id, 'hwid', OTHER_HWID);
    expect(await send({ hwid: OTHER_HWID })).toBe("You've been blacklisted from our application");
    banUser(sb.store, sb.app().id, username, 'x', {});
    expect(await send({})).toBe('The user is banned');
    expect((await sb.client('magicLinkSend', { email: EMAIL, hwid: HWID })).json.message).toBe(SESSION_NOT_FOUND);
    expect(await sb.outbox({ kind: 'magic-link' })).toEqual([]);
  });
});

describe('magicLinkCheck', () => {
  it('pending, then approved on the page: a login with info, the session validated; then used', async () => {
    const sb = await startTestSandbox();
    await registerUser(sb, { username: 'lena', email: EMAIL });
    const sid = await sb.init();
    const none = await sb.client('magicLinkCheck', { sessionid: sid });
    expect(none.json).toMatchObject({ success: false, message: 'No magic link was sent for this session', status: 'none' });

    const { sid: waiting, link } = await sendLink(sb);
    const pending = await sb.client('magicLinkCheck', { sessionid: waiting });
    expect(pending.status).toBe(200);
    expect(sb.verify13(pending)).toBe(true);
    expect(pending.json).toEqual({ success: false, code: 0, message: 'Magic link not approved yet', status: 'pending', ownerid: sb.info.app.ownerid });

    const approved = await sb.page(path(link), { decision: 'approve' });
    expect(approved.status).toBe(200);
    expect(approved.text).toContain('Sign-in approved');

    const done = await sb.client('magicLinkCheck', { sessionid: waiting });
    expect(done.status).toBe(200);
    expect(Object.keys(done.json)).toEqual(['success', 'code', 'message', 'info', 'nonce', 'ownerid']);
    expect(done.json).toMatchObject({ success: true, message: 'Logged in!', info: { username: 'lena', hwid: HWID } });
    expect(done.json.info.subscriptions[0]).toMatchObject({ subscription: 'default', level: '1' });
    expect((await sb.client('check', { sessionid: waiting })).json.message).toBe('Session is validated.');

    expect((await sb.client('magicLinkCheck', { sessionid: waiting })).json).toMatchObject({ success: false, message: 'Magic link already used', status: 'used' });
    const reopened = await sb.page(path(link));
    expect(reopened.status).toBe(410);
    expect(reopened.text).toContain('Link already used');
  });

  it('expires after 15 minutes (admin clock), and an expired link cannot be approved', async () => {
    const sb = await startTestSandbox();
    await registerUser(sb, { username: 'lena', email: EMAIL });
    const { sid, link } = await sendLink(sb);
    await sb.advance(14 * 60);
    expect((await sb.client('magicLinkCheck', { sessionid: sid })).json.status).toBe('pending');
    await sb.advance(61);
    expect((await sb.client('magicLinkCheck', { sessionid: sid })).json).toMatchObject({ success: false, message: 'Magic link expired', status: 'expired' });
    const late = await sb.page(path(link), { decision: 'approve' });
    expect(late.status).toBe(410);
    expect(late.text).toContain('Link expired');
    expect((await sb.client('magicLinkCheck', { sessionid: sid })).json.status).toBe('expired');
  });

  it('a link approved but not collected in time expires too', async () => {
    const clock = fakeClock();
    const sb = await startTestSandbox({ now: clock.now });
    await registerUser(sb, { username: 'lena', email: EMAIL });
    const { sid, link } = await sendLink(sb);
    await sb.page(path(link), { decision: 'approve' });
    clock.advance(15 * 60);
    expect((await sb.client('magicLinkCheck', { sessionid: sid })).json.message).toBe('Magic link expired');
  });

  it('a refused link reads as expired; a newer link replaces an older one', async () => {
    const sb = await startTestSandbox();
    await registerUser(sb, { username: 'lena', email: EMAIL });
    const refused = await sendLink(sb);
    const page = await sb.page(path(refused.link), { decision: 'deny' });
    expect(page.text).toContain('Sign-in refused');
    expect((await sb.client('magicLinkCheck', { sessionid: refused.sid })).json).toMatchObject({ message: 'Magic link expired', status: 'expired' });

    const sid = await sb.init();
    const first = await sb.client('magicLinkSend', { sessionid: sid, email: EMAIL, hwid: HWID });
    expect(first.json.success).toBe(true);
    const older = (await sb.outbox({ kind: 'magic-link' })).at(-1)!.link!;
    await sb.client('magicLinkSend', { sessionid: sid, email: EMAIL, hwid: HWID });
    const newer = (await sb.outbox({ kind: 'magic-link' })).at(-1)!.link!;
    expect(newer).not.toBe(older);
    expect((await sb.page(path(older), { decision: 'approve' })).status).toBe(410);
    await sb.page(path(newer), { decision: 'approve' });
    expect((await sb.client('magicLinkCheck', { sessionid: sid })).json.success).toBe(true);
  });

  it('runs the login pipeline: the HWID given at send meets the HWID lock, bans count at check time', async () => {
    const sb = await startTestSandbox();
    const { username } = await registerUser(sb, { username: 'lena', email: EMAIL });
    const otherMachine = await sendLink(sb, { hwid: OTHER_HWID });
    await sb.page(path(otherMachine.link), { decision: 'approve' });
    expect((await sb.client('magicLinkCheck', { sessionid: otherMachine.sid })).json.message).toBe("HWID doesn't match. Ask for a HWID reset");

    const banned = await sendLink(sb);
    await sb.page(path(banned.link), { decision: 'approve' });
    banUser(sb.store, sb.app().id, username, 'abuse', {});
    expect((await sb.client('magicLinkCheck', { sessionid: banned.sid })).json.message).toBe('The user is banned');
    expect((await sb.client('check', { sessionid: banned.sid })).json.message).toBe('Session is not validated');
  });

  it('wants the 2FA code of a user with 2FA, and keeps the link until a check brings it', async () => {
    const clock = fakeClock();
    const sb = await startTestSandbox({ now: clock.now });
    const { sid: loggedIn } = await registerUser(sb, { username: 'lena', email: EMAIL });
    const secret = (await sb.client('2faenable', { sessionid: loggedIn })).json['2fa'].secret_code as string;
    await sb.client('2faenable', { sessionid: loggedIn, code: totpCode(secret, clock.seconds()) });

    const { sid, link } = await sendLink(sb);
    await sb.page(path(link), { decision: 'approve' });
    expect((await sb.client('magicLinkCheck', { sessionid: sid })).json.message).toBe('2FA code required.');
    expect((await sb.client('magicLinkCheck', { sessionid: sid, code: totpCode(secret, clock.seconds()) })).json.success).toBe(true);
  });

  it('spends the link once under simultaneous checks', async () => {
    const sb = await startTestSandbox();
    await registerUser(sb, { username: 'lena', email: EMAIL });
    const { sid, link } = await sendLink(sb);
    await sb.page(path(link), { decision: 'approve' });
    const answers = await Promise.all(Array.from({ length: 10 }, () => sb.client('magicLinkCheck', { sessionid: sid })));
    expect(answers.filter((a) => a.json.success === true)).toHaveLength(1);
    expect(answers.filter((a) => a.json.message === 'Magic link already used')).toHaveLength(9);
  });
});

describe('the approval page', () => {
  it('shows the app and the user with a no-JavaScript form, and safe headers', async () => {
    const sb = await startTestSandbox();
    await registerUser(sb, { username: 'lena', email: EMAIL });
    const { link, token } = await sendLink(sb);
    const page = await sb.page(path(link));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.text).toContain('<html lang="en">');
    expect(page.text).toContain('sandbox-app');
    expect(page.text).toContain('lena');
    expect(page.text).toContain(`<form method="post" action="/sandbox/magic/${token}">`);
    expect(page.text).toContain('<button type="submit" name="decision" value="approve"');
    expect(page.text).toContain('<button type="submit" name="decision" value="deny"');
    expect(page.text).not.toMatch(/<script/i);
    // Looking at the page approves nothing.
    expect((await sb.page(path(link))).text).toContain('Approve this sign-in?');
  });

  it('escapes what it shows, answers 404 for unknown links and 400 without a decision', async () => {
    const sb = await startTestSandbox();
    await registerUser(sb, { username: 'lena', email: EMAIL });
    const { link } = await sendLink(sb);
    sb.store.run("UPDATE users SET username = ? WHERE username = 'lena'", 'le<i>na</i> & "co"');
    const page = await sb.page(path(link));
    expect(page.text).toContain('le&#60;i&#62;na&#60;/i&#62; &#38; &#34;co&#34;');
    expect(page.text).not.toContain('<i>na');
    expect((await sb.page(`/sandbox/magic/${'0'.repeat(64)}`)).status).toBe(404);
    expect((await sb.page(`/sandbox/magic/${'0'.repeat(64)}`, { decision: 'approve' })).status).toBe(404);
    expect((await sb.page(path(link), { decision: 'maybe' })).status).toBe(400);
    expect((await sb.page(path(link), {})).status).toBe(400);
    expect((await sb.request(path(link), { method: 'PUT' })).status).toBe(405);
  });
});
