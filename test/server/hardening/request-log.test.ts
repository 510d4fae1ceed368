/**
 * Issue 29 (items 5, 6, 7) and issue 28 (item 8): the request log and the faults around it.
 * - Live readers are bounded: at most 32 follow at once, one that falls behind or stops reading
 *   is dropped (200 stalled followers and 20,000 requests took a sandbox from 72 to 1,242 MB).
 * - Secrets are masked by what their names look like, not a fixed list (`oldPassword`), the shop
 *   hook's `app` (the app secret) is masked, and a URL value loses its user info and query.
 * - Masking replaces secret values, never the words of the reason (`wrong` as a password left
 *   `*** password for alice`), and leaves a value too short to be a secret as it was sent.
 * - A `replay` never sends one client's session answers to another client behind the same
 *   forwarded IP (`--trust-proxy`).
 */
import { describe, expect, it } from 'vitest';
import { startTestSandbox, type RecordedRequest, type TestSandbox } from '../../helpers/sandbox.js';
import { RequestRecorder } from '../../../src/server/inspector/recorder.js';
import type { RecordSource } from '../../../src/server/inspector/record.js';
import { Params } from '../../../src/server/dispatch/params.js';
import { openStore } from '../../../src/server/store/store.js';
import { HWID, registerUser } from '../support/client-fixtures.js';

async function lastOf(sb: TestSandbox, type: string): Promise<RecordedRequest> {
  const record = (await sb.requests({ type, limit: '1' })).requests.at(-1);
  if (record === undefined) throw new Error(`no ${type} was recorded`);
  return record;
}

function followUrl(sb: TestSandbox): string {
  return `${sb.baseUrl}/sandbox/requests?follow=1`;
}

describe('live readers of the request log are bounded', () => {
  it('serves at most 32 at once; a 33rd is refused until one leaves', async () => {
    const sb = await startTestSandbox();
    const headers = { authorization: `Bearer ${sb.info.adminToken}` };
    const open: AbortController[] = [];
    for (let i = 0; i < 32; i += 1) {
      const controller = new AbortController();
      const res = await fetch(followUrl(sb), { headers, signal: controller.signal });
      expect(res.status).toBe(200);
      open.push(controller);
    }
    const refused = await fetch(followUrl(sb), { headers });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('10');
    expect(((await refused.json()) as { message: string }).message).toBe('32 readers follow the request log already, the most it serves at once; stop one, or read without follow');
    // The dashboard's live view counts too.
    open.shift()!.abort();
    let again = 503;
    for (let tries = 0; tries < 100 && again === 503; tries += 1) {
      const res = await fetch(followUrl(sb), { headers, signal: AbortSignal.timeout(5_000) }).catch(() => undefined);
      again = res?.status ?? 503;
      if (again === 200) void res!.body?.cancel();
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(again).toBe(200);
    for (const controller of open) controller.abort();
  });

  function recorderWith(followerLimits: { maxUnreadBytes?: number; stallMs?: number }, heartbeatMs = 60_000): { recorder: RequestRecorder; close: () => void } {
    const store = openStore(':memory:');
    const recorder = new RequestRecorder(store, { limit: 100_000, log: () => undefined, followerLimits, heartbeatMs });
    return {
      recorder,
      close: () => {
        recorder.close();
        store.close();
      },
    };
  }

  const source = (n: number): RecordSource => ({
    at: Date.now(),
    api: '1.3',
    type: 'check',
    method: 'GET',
    path: '/api/1.3/',
    ip: '127.0.0.1',
    params: new Params([['padding', `${n}-${'x'.repeat(110)}`]]),
    status: 200,
    decision: { success: false, message: 'Session not found', reason: 'no session' },
    durationMs: 1,
  });

  it('drops a reader that falls more than its budget behind, and closes its connection', () => {
    const { recorder, close } = recorderWith({ maxUnreadBytes: 64 * 1024 });
    let destroyed = false;
    const socket = { writableLength: 0, destroy: () => (destroyed = true) };
    const follower = recorder.follow({}, [], socket);
    // Nobody reads the stream: every record waits in it.
    for (let n = 0; n < 400 && follower.open; n += 1) recorder.record(source(n));
    expect(follower.open).toBe(false);
    expect(destroyed).toBe(true);
    expect(follower.unread).toBeLessThan(128 * 1024);
    close();
  });

  it('counts what the socket holds unsent, and drops a reader that reads nothing for too long', async () => {
    const { recorder, close } = recorderWith({ maxUnreadBytes: 64 * 1024, stallMs: 100 }, 20);
    const full = { writableLength: 1024 * 1024, destroy: () => undefined };
    const behind = recorder.follow({}, [], full);
    recorder.record(source(1));
    expect(behind.open).toBe(false);
    const stalled = recorder.follow({}, [], { writableLength: 0, destroy: () => undefined });
    recorder.record(source(2));
    for (let tries = 0; tries < 200 && stalled.open; tries += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stalled.open).toBe(false);
    // A reader that reads keeps following.
    const reading = recorder.follow({}, [], { writableLength: 0, destroy: () => undefined });
    reading.stream.on('data', () => undefined);
    recorder.record(source(3));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(reading.open).toBe(true);
    close();
  });
});

describe('secrets in the request log, by what their names look like', () => {
  it("masks oldPassword, an apiKey, the shop hook app secret, and a URL value's user info and query", async () => {
    const sb = await startTestSandbox();
    const secrets = { old: 'old-password-0123', api: 'api-key-value-4567', hook: 'hook-secret-89ab', user: 'urluser', urlpass: 'url-pass-cdef' };
    await sb.client('changeUsername', { oldPassword: secrets.old, apiKey: secrets.api, newUsername: 'x' });
    await sb.request(`/api/reseller/?app=${encodeURIComponent(sb.info.app.secret)}&expiry=1`);
    await sb.seller('addwebhook', { baseurl: `https://${secrets.user}:${secrets.urlpass}@hooks.example.test/in?apikey=${secrets.hook}&x=1`, ua: 'test', authed: '0' });
    const { requests } = await sb.requests({ limit: '100' });
    const text = JSON.stringify(requests);
    for (const secret of [...Object.values(secrets), sb.info.app.secret]) expect(text, secret.slice(0, 4)).not.toContain(secret);
    expect((await lastOf(sb, 'changeUsername')).params).toMatchObject({ oldPassword: '***', apiKey: 'api-…' });
    expect(requests.find((record) => record.path.startsWith('/api/reseller'))?.params.app).toBe('***');
    expect((await lastOf(sb, 'addwebhook')).params.baseurl).toBe('https://hooks.example.test/in?…');
  });
});

describe('masking replaces secret values, never words of the sentence', () => {
  it('a password "wrong" leaves the reason as it reads; a 3-letter key is shown as sent', async () => {
    const sb = await startTestSandbox();
    await registerUser(sb, { username: 'alice', pass: 'alice-password' });
    await sb.client('login', { sessionid: await sb.init(), username: 'alice', pass: 'wrong', hwid: HWID });
    expect(await lastOf(sb, 'login')).toMatchObject({ reason: 'wrong password for alice', params: expect.objectContaining({ pass: '***' }) });
    await sb.client('license', { sessionid: await sb.init(), key: 'ZZZ', hwid: HWID });
    expect(await lastOf(sb, 'license')).toMatchObject({ reason: 'license ZZZ not found', params: expect.objectContaining({ key: 'ZZZ' }) });
    // A password that is also the username is still kept out of the user and the reason.
    await registerUser(sb, { username: 'same-as-pass-7', pass: 'same-as-pass-7' });
    const same = await lastOf(sb, 'register');
    expect(same.user).toBe('***');
    expect(JSON.stringify(same)).not.toContain('same-as-pass-7');
  });
});

describe('a replay stays with its client', () => {
  it('two clients behind one forwarded IP each get their own earlier answer, never the other session', async () => {
    const sb = await startTestSandbox({ trustProxy: true });
    const behind = { headers: { 'x-forwarded-for': '203.0.113.7' } };
    await sb.client('init', {}, behind); // answers are remembered only while a replay is held
    const faultForm = new URLSearchParams({ kind: 'replay', type: 'check' }).toString();
    const added = await sb.request('/sandbox/faults', { method: 'POST', headers: { authorization: `Bearer ${sb.info.adminToken}`, 'content-type': 'application/x-www-form-urlencoded' }, body: faultForm });
    expect(added.status).toBe(200);
    const first = await sb.client('init', {}, behind);
    const second = await sb.client('init', {}, behind);
    const firstSid = first.json.sessionid as string;
    const secondSid = second.json.sessionid as string;
    const firstCheck = await sb.client('check', { sessionid: firstSid }, behind);
    expect(firstCheck.bytes.equals(first.bytes)).toBe(true);
    expect(firstCheck.text).not.toContain(secondSid);
    const secondCheck = await sb.client('check', { sessionid: secondSid }, behind);
    expect(secondCheck.bytes.equals(second.bytes)).toBe(true);
    expect(secondCheck.text).not.toContain(firstSid);
  });
});
