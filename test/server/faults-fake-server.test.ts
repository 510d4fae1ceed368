/**
 * The fault kinds that stand for a fake or doctored server (`kactl sandbox audit` arms them):
 * emulate, emulate-secret, unsigned, other-app, future-timestamp, tamper-success, replay-type.
 * Each is seen over real HTTP: what the client gets, that a refusal becomes the success a valid
 * key gets (so a program that trusts `success` takes it), and how each signature checks out.
 */
import { describe, expect, it } from 'vitest';
import { hmacHex, startTestSandbox } from '../helpers/sandbox.js';
import { HWID, newKey } from './support/client-fixtures.js';
import { otherOwnerid } from '../../src/server/faults/other-app.js';
import { parseFaultSpec } from '../../src/server/faults/spec.js';
import { added } from './support/fault-helpers.js';

const UNKNOWN_KEY = 'NOSUCH-KEY-000000';

describe('emulate: a fake server with a key of its own', () => {
  it('1.3: the unknown key\'s refusal becomes a login success, signed by another key', async () => {
    const sb = await startTestSandbox();
    const sid = await sb.init();
    // Genuinely a refusal.
    expect((await sb.client('license', { sessionid: sid, key: UNKNOWN_KEY, hwid: HWID })).json.success).toBe(false);
    await added(sb, { kind: 'emulate' });
    const res = await sb.client('license', { sessionid: sid, key: UNKNOWN_KEY, hwid: HWID });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, code: 68, message: 'Logged in!', ownerid: sb.info.app.ownerid });
    expect(res.json.info).toMatchObject({ username: UNKNOWN_KEY, hwid: HWID, subscriptions: [{ subscription: 'default', key: UNKNOWN_KEY, level: '1' }] });
    expect(res.json.nonce).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('x-signature-ed25519')).toMatch(/^[0-9a-f]{128}$/);
    expect(Math.abs(Number(res.headers.get('x-signature-timestamp')) - Date.now() / 1000)).toBeLessThan(30);
    expect(sb.verify13(res)).toBe(false);
    // A genuine success keeps its body (the session goes on working), only the signature is another's.
    const init = await sb.client('init', { ver: sb.info.app.version });
    expect(init.json).toMatchObject({ success: true, message: 'Initialized', sessionid: expect.any(String) });
    expect(sb.verify13(init)).toBe(false);
  });

  it('1.2: a success with an HMAC by a key that is not the app\'s', async () => {
    const sb = await startTestSandbox();
    await added(sb, { kind: 'emulate', api: '1.2' });
    const init = await sb.client('init', { ver: sb.info.app.version, enckey: 'clientenckey0001' }, { api: '1.2', method: 'POST' });
    expect(init.json.success).toBe(true);
    const res = await sb.client('license', { sessionid: init.json.sessionid, key: UNKNOWN_KEY, hwid: HWID }, { api: '1.2', method: 'POST' });
    expect(res.json).toMatchObject({ success: true, message: 'Logged in!' });
    expect(res.json.ownerid).toBeUndefined();
    expect(res.headers.get('signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(res.headers.get('signature')).not.toBe(hmacHex(`clientenckey0001-${sb.info.app.secret}`, res.bytes));
  });
});

describe('emulate-secret: a fake server that read the app secret out of the program (1.2)', () => {
  it('signs init with the secret and later answers with enckey-secret: they check out', async () => {
    const sb = await startTestSandbox();
    await added(sb, { kind: 'emulate-secret' });
    const init = await sb.client('init', { ver: sb.info.app.version, enckey: 'clientenckey0001' }, { api: '1.2', method: 'POST' });
    expect(init.headers.get('signature')).toBe(hmacHex(sb.info.app.secret, init.bytes));
    const res = await sb.client('license', { sessionid: init.json.sessionid, key: UNKNOWN_KEY, hwid: HWID }, { api: '1.2', method: 'POST' });
    expect(res.json).toMatchObject({ success: true, message: 'Logged in!' });
    expect(res.headers.get('signature')).toBe(hmacHex(`clientenckey0001-${sb.info.app.secret}`, res.bytes));
    // 1.3 answers are left alone: their public-key signature cannot be made from the secret.
    const on13 = await sb.client('init', { ver: sb.info.app.version });
    expect(sb.verify13(on13)).toBe(true);
  });

  it('is refused on 1.3 with the reason', () => {
    expect(parseFaultSpec({ kind: 'emulate-secret', api: '1.3' })).toEqual({ error: 'emulate-secret signs with the app secret, which only 1.2 answers use, so its --api can only be 1.2' });
  });
});

describe('unsigned, future-timestamp, other-app', () => {
  it('unsigned: the genuine answer, no signature header', async () => {
    const sb = await startTestSandbox();
    await added(sb, { kind: 'unsigned' });
    const res = await sb.client('init', { ver: sb.info.app.version });
    expect(res.json).toMatchObject({ success: true, message: 'Initialized' });
    expect(res.headers.get('x-signature-ed25519')).toBeNull();
    expect(res.headers.get('x-signature-timestamp')).toBeNull();
    const on12 = await sb.client('init', { ver: sb.info.app.version, enckey: 'clientenckey0001' }, { api: '1.2', method: 'POST' });
    expect(on12.json.success).toBe(true);
    expect(on12.headers.get('signature')).toBeNull();
  });

  it('future-timestamp: signed by the sandbox, dated ahead', async () => {
    const sb = await startTestSandbox();
    await added(sb, { kind: 'future-timestamp', arg: '10m' });
    const res = await sb.client('init', { ver: sb.info.app.version });
    expect(sb.verify13(res)).toBe(true);
    const ahead = Number(res.headers.get('x-signature-timestamp')) - Date.now() / 1000;
    expect(ahead).toBeGreaterThan(570);
    expect(ahead).toBeLessThan(630);
    expect(parseFaultSpec({ kind: 'future-timestamp', arg: '10m', api: '1.2' })).toMatchObject({ error: expect.stringContaining('only 1.3 answers carry') });
    expect(parseFaultSpec({ kind: 'future-timestamp' })).toMatchObject({ error: 'future-timestamp needs a DURATION, e.g. 10m' });
  });

  it('other-app: a success for another ownerid, signed by the sandbox\'s own key', async () => {
    const sb = await startTestSandbox();
    await added(sb, { kind: 'other-app' });
    const init = await sb.client('init', { ver: sb.info.app.version });
    const other = otherOwnerid(sb.info.app.ownerid);
    expect(other).toMatch(/^[A-Za-z0-9]{10}$/);
    for (const [index, char] of [...other].entries()) expect(char).not.toBe(sb.info.app.ownerid[index]);
    expect(init.json).toMatchObject({ success: true, message: 'Initialized', ownerid: other });
    expect(sb.verify13(init)).toBe(true);
    const res = await sb.client('license', { sessionid: init.json.sessionid, key: UNKNOWN_KEY, hwid: HWID });
    expect(res.json).toMatchObject({ success: true, message: 'Logged in!', ownerid: other });
    expect(sb.verify13(res)).toBe(true);
  });
});

describe('tamper-success', () => {
  it('a refusal becomes a login success after signing; the signature is the refusal\'s', async () => {
    const sb = await startTestSandbox();
    await added(sb, { kind: 'tamper-success' });
    // init succeeds and carries no level: left alone, and the fault has not fired.
    const init = await sb.client('init', { ver: sb.info.app.version });
    expect(sb.verify13(init)).toBe(true);
    const res = await sb.client('license', { sessionid: init.json.sessionid, key: UNKNOWN_KEY, hwid: HWID });
    expect(res.json).toMatchObject({ success: true, message: 'Logged in!', info: { username: UNKNOWN_KEY } });
    expect(sb.verify13(res)).toBe(false);
    const listed = await sb.request('/sandbox/faults', { headers: { authorization: `Bearer ${sb.info.adminToken}` } });
    expect(listed.json.faults[0].fired).toBe(1);
  });

  it('a login success gets a higher level in each subscription', async () => {
    const sb = await startTestSandbox();
    const key = newKey(sb, { expires: 86_400 });
    await added(sb, { kind: 'tamper-success', type: 'license' });
    const sid = await sb.init();
    const res = await sb.client('license', { sessionid: sid, key, hwid: HWID });
    expect(res.json.success).toBe(true);
    expect(res.json.info.subscriptions[0].level).toBe('99');
    expect(sb.verify13(res)).toBe(false);
  });
});

describe('replay-type', () => {
  it('sends the last answer of the same type to this client, across sessions; not the last answer of any type', async () => {
    const sb = await startTestSandbox();
    const key = newKey(sb, { expires: 86_400 });
    // Added first: answers are remembered only while a fault that replays them is held.
    await added(sb, { kind: 'replay-type', type: 'license' });
    const firstSid = await sb.init();
    const success = await sb.client('license', { sessionid: firstSid, key, hwid: HWID });
    expect(success.json.success).toBe(true);
    await sb.seller('ban', { key, reason: 'chargeback' });
    // A new run: its own init (not replayed: no fault on init), then the license answer is the earlier one.
    const sid = await sb.init();
    const replayed = await sb.client('license', { sessionid: sid, key, hwid: HWID });
    expect(replayed.bytes.equals(success.bytes)).toBe(true);
    expect(replayed.headers.get('x-signature-ed25519')).toBe(success.headers.get('x-signature-ed25519'));
    expect(sb.verify13(replayed)).toBe(true);
  });

  it('does not fire when this client got no answer of the type', async () => {
    const sb = await startTestSandbox();
    await added(sb, { kind: 'replay-type' });
    const sid = await sb.init();
    const res = await sb.client('license', { sessionid: sid, key: UNKNOWN_KEY, hwid: HWID });
    expect(res.json.success).toBe(false);
    expect(sb.verify13(res)).toBe(true);
  });
});
