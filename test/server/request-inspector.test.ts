/**
 * The request inspector (src/server/inspector/, GET /sandbox/requests): every request is
 * recorded with the reason the deciding rule gave, secrets masked, bounded, kept in the store,
 * and followed live with server-sent events that end when the sandbox stops.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeClock, startTestSandbox, type RecordedRequest, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startSandbox } from '../../src/server/start.js';
import { HWID, OTHER_HWID, enable2fa, newKey, registerUser } from './support/client-fixtures.js';

/** The newest record of `type` (the records are written in batches; the route writes what waits first). */
async function lastOf(sb: TestSandbox, type: string): Promise<RecordedRequest> {
  const { requests } = await sb.requests({ type, limit: '1' });
  const record = requests.at(-1);
  if (record === undefined) throw new Error(`no ${type} request was recorded`);
  return record;
}

describe('the reason of each refusal, from the rule that decided', () => {
  it('says why a login, a register, an init and a check were refused', async () => {
    const clock = fakeClock();
    const sb = await startTestSandbox({ now: clock.now });
    const { key } = await registerUser(sb, { username: 'alice', pass: 'right-password' });

    let sid = await sb.init();
    await sb.client('login', { sessionid: sid, username: 'alice', pass: 'wrong-password', hwid: HWID });
    expect(await lastOf(sb, 'login')).toMatchObject({ api: '1.3', user: 'alice', success: false, status: 200, message: 'Password does not match.', reason: 'wrong password for alice' });

    await sb.client('login', { sessionid: sid, username: 'bob', pass: 'whatever', hwid: HWID });
    expect((await lastOf(sb, 'login')).reason).toBe('user bob not found');

    await sb.client('login', { sessionid: sid, username: 'alice', pass: 'right-password', hwid: OTHER_HWID });
    // HWID and OTHER_HWID share "HWID-": each is cut one character past where they differ.
    expect((await lastOf(sb, 'login')).reason).toBe('HWID mismatch: alice is locked to HWID-0…, the request sent HWID-f…');

    await sb.client('init', { ver: '0.9' });
    expect(await lastOf(sb, 'init')).toMatchObject({ success: false, message: 'invalidver', reason: 'app version is 1.0, the client sent 0.9 (the app has no download link to give)' });
    await sb.seller('setvariable', {}); // unrelated noise between the two
    sb.store.run('UPDATE apps SET download = ? WHERE id = ?', 'https://example.test/app.zip', sb.app().id);
    await sb.client('init', { ver: '0.9' });
    expect((await lastOf(sb, 'init')).reason).toBe('app version is 1.0, the client sent 0.9 (the answer carries the download link)');

    sid = await sb.init();
    await sb.client('register', { sessionid: sid, username: 'bob', pass: 'bobs-password', key, hwid: HWID });
    expect(await lastOf(sb, 'register')).toMatchObject({ success: false, reason: 'license already used by alice' });

    sid = await sb.init();
    await sb.advance(7 * 86_400);
    await sb.client('check', { sessionid: sid });
    // The session lasted 6 h from its init; the clock moved 7 days.
    expect((await lastOf(sb, 'check')).reason).toMatch(/^session [A-Za-z0-9]{2}… expired 6 days ago \(sandbox clock is 7 days ahead\)$/);
  });

  it('says 2FA is on and no code was sent, and names the user behind a session', async () => {
    const clock = fakeClock();
    const sb = await startTestSandbox({ now: clock.now });
    const { sid, username, pass } = await registerUser(sb, { username: 'carol' });
    await enable2fa(sb, sid, clock.seconds());
    expect(await lastOf(sb, '2faenable')).toMatchObject({ user: 'carol', success: true });
    const next = await sb.init();
    await sb.client('login', { sessionid: next, username, pass, hwid: HWID });
    expect(await lastOf(sb, 'login')).toMatchObject({ success: false, message: '2FA code required.', reason: '2FA is on for carol and no code was sent' });
  });

  it('says why the global checks, the seller API and the HTTP layer refused', async () => {
    const sb = await startTestSandbox({ rateLimit: true });
    await sb.client('init', { ver: '1.0', ownerid: 'short' });
    expect((await lastOf(sb, 'init')).reason).toBe('the ownerid is 5 characters; it must be 10');
    await sb.client('nosuchtype');
    expect((await lastOf(sb, 'nosuchtype')).reason).toBe('the client API has no type nosuchtype');
    await sb.seller('add', { expiry: 'soon' });
    expect(await lastOf(sb, 'add')).toMatchObject({ api: 'seller', success: false, reason: expect.stringMatching(/^add: expiry must be a number; it was "soon"$/) });
    await sb.request(`/api/seller/?sellerkey=${'0'.repeat(32)}&type=fetchallkeys`);
    expect((await lastOf(sb, 'fetchallkeys')).reason).toBe('no app has the seller key 0000…');
    await sb.request('/no/such/path');
    const { requests } = await sb.requests({ api: 'other' });
    expect(requests.at(-1)).toMatchObject({ status: 404, success: false, path: '/no/such/path', reason: 'the sandbox serves nothing at this path' });
    for (let i = 0; i < 201; i += 1) await sb.client('nosuchtype');
    expect((await lastOf(sb, 'nosuchtype')).reason).toMatch(/^rate limit: more than 200 requests from 127\.0\.0\.1 to this app within 60 s; retry in \d+ s$/);
  });

  it('names what a handler did not find, and keeps a parameter named __proto__ as one', async () => {
    const sb = await startTestSandbox();
    const { sid } = await registerUser(sb, { username: 'hana' });
    await sb.client('var', { sessionid: sid, varid: 'nope' });
    expect((await lastOf(sb, 'var')).reason).toBe('the app has no variable nope');
    await sb.client('getvar', { sessionid: sid, var: 'nope' });
    expect(await lastOf(sb, 'getvar')).toMatchObject({ user: 'hana', reason: 'hana has no variable nope' });
    await sb.client('webhook', { sessionid: sid, webid: 'nope' });
    expect((await lastOf(sb, 'webhook')).reason).toBe('the app has no webhook nope');
    await sb.request(`/api/1.3/?type=check&name=${sb.info.app.name}&ownerid=${sb.info.app.ownerid}&__proto__=polluted`);
    const check = await lastOf(sb, 'check');
    expect(Object.getOwnPropertyNames(check.params)).toContain('__proto__');
    expect(check.reason).toBe('no sessionid was sent');
  });

  it('says what a successful init and login did', async () => {
    const sb = await startTestSandbox();
    const key = newKey(sb);
    const sid = await sb.init();
    expect((await lastOf(sb, 'init')).reason).toMatch(/^new session [A-Za-z0-9]{2}… for 21600 s; version 1\.0 matches$/);
    await sb.client('register', { sessionid: sid, username: 'dave', pass: 'daves-password', key, hwid: HWID });
    expect(await lastOf(sb, 'register')).toMatchObject({ success: true, user: 'dave', reason: expect.stringMatching(/^dave registered with license \w{4}… \(level 1\) and logged in$/) });
    const next = await sb.init();
    await sb.client('login', { sessionid: next, username: 'dave', pass: 'daves-password', hwid: HWID });
    expect(await lastOf(sb, 'login')).toMatchObject({ success: true, reason: 'dave logged in' });
  });
});

describe('secrets in the records', () => {
  it('never holds a secret a request sent, in any field of any record', async () => {
    const clock = fakeClock();
    const sb = await startTestSandbox({ now: clock.now });
    const secrets = {
      pass: 'hunter2-very-secret',
      enckey: 'enckey-0123456789',
      seller: sb.info.sellerKey,
      admin: sb.info.adminToken,
      newpass: 'a-new-password-42',
      userpass: 'seller-made-pass-77',
    };
    const key = newKey(sb);
    const licenseKey = newKey(sb);
    const sid = await sb.init({ enckey: secrets.enckey }, { api: '1.2', method: 'POST' });
    await sb.client('register', { sessionid: sid, username: 'erin', pass: secrets.pass, key, hwid: HWID, email: 'erin@example.test' }, { api: '1.2', method: 'POST' });
    const twofa = await sb.client('2faenable', { sessionid: sid }, { api: '1.2', method: 'POST' });
    const totpSecret = twofa.json['2fa'].secret_code as string;
    await sb.client('login', { sessionid: sid, username: 'erin', pass: secrets.pass, code: '123456', hwid: HWID }, { api: '1.2', method: 'POST' });
    // A license user is named after its key: the name is a secret too, in every later request.
    const licensed = await sb.init();
    await sb.client('license', { sessionid: licensed, key: licenseKey, hwid: HWID });
    await sb.client('check', { sessionid: licensed });
    await sb.client('var', { sessionid: licensed, varid: 'nothing' });
    await sb.client('login', { sessionid: licensed, username: licenseKey, pass: licenseKey, hwid: HWID });
    await sb.seller('adduser', { user: 'frank', sub: 'default', expiry: '1', pass: secrets.userpass });
    await sb.seller('userdata', { user: licenseKey });
    await sb.seller('verify', { key: licenseKey });
    await sb.client('forgot', { sessionid: await sb.init(), username: 'erin', email: 'erin@example.test' });
    const resetLink = (await sb.outbox()).at(-1)?.link ?? '';
    const resetPath = new URL(resetLink).pathname;
    await sb.page(resetPath);
    await sb.page(resetPath, { password: secrets.newpass, confirm: secrets.newpass });
    await sb.request('/sandbox/outbox', { headers: { authorization: `Bearer ${secrets.admin}` } });

    const { requests } = await sb.requests({ limit: '10000' });
    expect(requests.length).toBeGreaterThan(12);
    const text = JSON.stringify(requests);
    const sessions = sb.store.all<{ id: string }>('SELECT id FROM sessions').map((row) => row.id);
    const resetSecret = resetPath.split('/').at(-1) ?? '';
    for (const secret of [...Object.values(secrets), key, licenseKey, totpSecret, resetSecret, ...sessions]) {
      expect(secret.length).toBeGreaterThanOrEqual(10);
      expect(text, `a record holds ${secret.slice(0, 4)}…`).not.toContain(secret);
    }
    // Masked with a short prefix, so two sessions can be told apart.
    const check = requests.find((record) => record.type === 'check');
    expect(check?.params.sessionid).toBe(`${licensed.slice(0, 2)}…`);
    expect(check?.user).toBe(`license user ${licenseKey.slice(0, 4)}…`);
    expect(requests.find((record) => record.type === 'register')?.params).toMatchObject({ pass: '***', key: `${key.slice(0, 4)}…` });
  });
});

describe('the store of records', () => {
  it('keeps only the newest --log-limit records, and none with 0', async () => {
    const sb = await startTestSandbox({ logLimit: 5 });
    for (let i = 0; i < 12; i += 1) await sb.client('nosuchtype', { n: String(i) });
    const { limit, requests } = await sb.requests({ limit: '100' });
    expect(limit).toBe(5);
    expect(requests.map((record) => record.params.n)).toEqual(['7', '8', '9', '10', '11']);
    expect(sb.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM request_log')?.n).toBe(5);

    const off = await startTestSandbox({ logLimit: 0 });
    await off.client('nosuchtype');
    expect(await off.requests()).toEqual({ limit: 0, requests: [] });
    expect(off.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM request_log')?.n).toBe(0);
  });

  it('survives a restart on a file store; ids go on where they stopped', async () => {
    const data = path.join(tempDir(), 'sandbox.db');
    const first = await startTestSandbox({ data });
    await first.client('nosuchtype', { run: 'first' });
    const before = (await first.requests()).requests;
    await first.close();

    const second = await startTestSandbox({ data });
    await second.client('nosuchtype', { run: 'second' });
    const after = (await second.requests()).requests;
    expect(after.map((record) => record.params.run)).toEqual(['first', 'second']);
    expect(after[0]).toEqual(before[0]);
    expect(after[1]!.id).toBeGreaterThan(after[0]!.id);
    await second.close();
    // A smaller limit at the next start applies to what was kept.
    const third = await startSandbox({ data, port: 0, rateLimit: false, logLimit: 1 });
    expect(third.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM request_log')?.n).toBe(1);
    await third.close();
    expect(fs.existsSync(data)).toBe(true);
  });

  it('filters by type, api, failure, user, time and id; refuses a bad filter and a missing token', async () => {
    const sb = await startTestSandbox();
    const { pass } = await registerUser(sb, { username: 'gina' });
    const sid = await sb.init();
    await sb.client('login', { sessionid: sid, username: 'gina', pass: 'nope-nope', hwid: HWID });
    await sb.client('login', { sessionid: sid, username: 'gina', pass, hwid: HWID });
    await sb.seller('fetchallkeys');
    const all = (await sb.requests()).requests;
    expect(all.map((record) => record.type)).toEqual(['init', 'register', 'init', 'login', 'login', 'fetchallkeys']);
    expect((await sb.requests({ type: 'login,register' })).requests).toHaveLength(3);
    expect((await sb.requests({ api: 'seller' })).requests.map((record) => record.type)).toEqual(['fetchallkeys']);
    expect((await sb.requests({ failed: '1' })).requests.map((record) => record.reason)).toEqual(['wrong password for gina']);
    expect((await sb.requests({ user: 'gina', type: 'login' })).requests).toHaveLength(2);
    expect((await sb.requests({ after: String(all[3]!.id), limit: '1' })).requests.map((record) => record.id)).toEqual([all[4]!.id]);
    expect((await sb.requests({ limit: '2' })).requests.map((record) => record.id)).toEqual([all[4]!.id, all[5]!.id]);
    expect((await sb.requests({ since: String(Date.now() + 60_000) })).requests).toEqual([]);
    expect((await sb.requests({ since: new Date(Date.now() - 60_000).toISOString() })).requests).toHaveLength(6);

    const bad = await sb.request('/sandbox/requests?api=graphql', { headers: { authorization: `Bearer ${sb.info.adminToken}` } });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ success: false, message: 'api must be among 1.3, 1.2, seller, page, admin, other; got graphql' });
    expect((await sb.request('/sandbox/requests')).status).toBe(401);
    // Reading the records is not recorded; the refused read is not either.
    expect((await sb.requests()).requests).toHaveLength(6);
  });
});

describe('what is no refusal', () => {
  it('an empty list and a request kactl marks as its own check are recorded, and left out of failed=1', async () => {
    const sb = await startTestSandbox();
    // No keys yet: the hosted answer, 406 and success:false.
    await sb.seller('fetchallkeys');
    await sb.client('check', { sessionid: 'nosuchsess' }, { headers: { 'x-kactl-probe': '1' } });
    await sb.client('check', { sessionid: 'nosuchsess' });
    const [empty, probe, refused] = (await sb.requests()).requests;
    expect(empty).toMatchObject({ type: 'fetchallkeys', status: 406, success: false, message: 'No keys found', empty: true, failed: false, probe: false });
    expect(probe).toMatchObject({ type: 'check', success: false, probe: true, failed: false, empty: false });
    expect(refused).toMatchObject({ type: 'check', success: false, probe: false, failed: true });
    expect((await sb.requests({ failed: '1' })).requests.map((record) => record.id)).toEqual([refused!.id]);
    // A list with rows is no empty list.
    newKey(sb);
    await sb.seller('fetchallkeys');
    expect((await lastOf(sb, 'fetchallkeys')).empty).toBe(false);
  });
});

/** Reads server-sent events from a response body until `until` holds for one of them. */
async function readEvents(body: ReadableStream<Uint8Array>, until: (event: { event: string; data: string }) => boolean): Promise<{ event: string; data: string }[]> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const events: { event: string; data: string }[] = [];
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return events;
    text += decoder.decode(value, { stream: true });
    let end = text.indexOf('\n\n');
    while (end >= 0) {
      const block = text.slice(0, end);
      text = text.slice(end + 2);
      end = text.indexOf('\n\n');
      const lines = block.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice(7);
      const data = lines.find((line) => line.startsWith('data: '))?.slice(6);
      if (event === undefined || data === undefined) continue;
      events.push({ event, data });
      if (until({ event, data })) {
        await reader.cancel();
        return events;
      }
    }
  }
}

describe('following the records', () => {
  it('streams each new matching request as a server-sent event', async () => {
    const sb = await startTestSandbox({ inspectorTiming: { heartbeatMs: 50 } });
    await sb.client('nosuchtype', { n: 'before' });
    const res = await fetch(`${sb.baseUrl}/sandbox/requests?follow=1&type=check,nosuchtype`, { headers: { authorization: `Bearer ${sb.info.adminToken}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reading = readEvents(res.body!, (event) => event.event === 'request' && (JSON.parse(event.data) as RecordedRequest).params.n === 'after');
    await sb.init();
    await sb.client('nosuchtype', { n: 'after' });
    const events = await reading;
    // No backlog without after/since/limit; the init does not match the filter.
    expect(events.map((event) => (JSON.parse(event.data) as RecordedRequest).params.n)).toEqual(['after']);
    expect(JSON.parse(events[0]!.data)).toMatchObject({ api: '1.3', type: 'nosuchtype', success: false, reason: 'the client API has no type nosuchtype' });
  });

  it('sends the backlog after Last-Event-ID first', async () => {
    const sb = await startTestSandbox();
    await sb.client('nosuchtype', { n: '1' });
    await sb.client('nosuchtype', { n: '2' });
    const [first] = (await sb.requests()).requests;
    const res = await fetch(`${sb.baseUrl}/sandbox/requests`, { headers: { authorization: `Bearer ${sb.info.adminToken}`, accept: 'text/event-stream', 'last-event-id': String(first!.id) } });
    const events = await readEvents(res.body!, () => true);
    expect((JSON.parse(events[0]!.data) as RecordedRequest).params.n).toBe('2');
  });

  it('ends every follower at shutdown, so closing the sandbox is not held up', async () => {
    const sb = await startTestSandbox();
    const res = await fetch(`${sb.baseUrl}/sandbox/requests?follow=1`, { headers: { authorization: `Bearer ${sb.info.adminToken}` } });
    const reading = readEvents(res.body!, (event) => event.event === 'end');
    await sb.client('nosuchtype');
    // Without the follower ended, the close would wait for the 10 s grace before cutting it.
    const closed = await Promise.race([sb.close().then(() => 'closed'), new Promise((resolve) => setTimeout(() => resolve('held up'), 8_000).unref())]);
    expect(closed).toBe('closed');
    const events = await reading;
    expect(events.map((event) => event.event)).toEqual(['request', 'end']);
    expect(JSON.parse(events[1]!.data)).toEqual({ message: 'the sandbox is stopping' });
  });

  it('says so and ends at once when the inspector is off', async () => {
    const sb = await startTestSandbox({ logLimit: 0 });
    const res = await fetch(`${sb.baseUrl}/sandbox/requests?follow=1`, { headers: { authorization: `Bearer ${sb.info.adminToken}` } });
    const events = await readEvents(res.body!, () => false);
    expect(events).toEqual([{ event: 'end', data: JSON.stringify({ message: 'the request inspector is off (sandbox start --log-limit 0)' }) }]);
  });
});
