/**
 * The request log says what the client saw (issue 28, item 4): a faulted answer is recorded as
 * the answer the client got — its status, a reset, a cut body, the bare text, a delay the client
 * gave up on — with the fault's id and kind, and the sandbox's own answer in the reason. Also what
 * the fault stage does while no fault is held (nothing: no answer is remembered).
 */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestSandbox, type ParamValues, type RecordedRequest, type TestSandbox } from '../helpers/sandbox.js';
import { HWID, registerUser } from './support/client-fixtures.js';

async function added(sb: TestSandbox, form: ParamValues): Promise<number> {
  const body = new URLSearchParams(Object.entries(form).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const res = await sb.request('/sandbox/faults', {
    method: 'POST',
    headers: { authorization: `Bearer ${sb.info.adminToken}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: body.toString(),
  });
  expect(res.status, res.text).toBe(200);
  return res.json.fault.id as number;
}

/** A raw GET whose connection may be reset or cut: it resolves when the socket closes, whatever it got. */
function rawGet(sb: TestSandbox, path: string): Promise<void> {
  const url = new URL(sb.baseUrl);
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`));
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
    socket.on('close', () => resolve());
  });
}

function loginPath(sb: TestSandbox, sid: string, pass: string): string {
  const params = new URLSearchParams({ type: 'login', sessionid: sid, username: 'alice', pass, hwid: HWID, name: sb.info.app.name, ownerid: sb.info.app.ownerid });
  return `/api/1.3/?${params.toString()}`;
}

async function lastLogin(sb: TestSandbox): Promise<RecordedRequest> {
  const record = (await sb.requests({ type: 'login', limit: '1' })).requests.at(-1);
  if (record === undefined) throw new Error('no login was recorded');
  return record;
}

const OWN = "; the sandbox's own answer: alice logged in";

describe('a faulted answer is recorded as the client got it', () => {
  it('reset, truncate and text: no success, with the fault id and kind and what the sandbox had answered', async () => {
    const sb = await startTestSandbox();
    await registerUser(sb, { username: 'alice', pass: 'alice-password' });

    const reset = await added(sb, { kind: 'reset', type: 'login', times: '1' });
    await rawGet(sb, loginPath(sb, await sb.init(), 'alice-password'));
    expect(await lastLogin(sb)).toMatchObject({
      status: 0,
      delivery: 'reset',
      success: false,
      message: null,
      fault: `#${reset} reset`,
      faultId: reset,
      faultKind: 'reset',
      failed: true,
      reason: `the connection reset before any answer${OWN}`,
    });

    const truncate = await added(sb, { kind: 'truncate', type: 'login', times: '1' });
    await rawGet(sb, loginPath(sb, await sb.init(), 'alice-password'));
    expect(await lastLogin(sb)).toMatchObject({ status: 200, delivery: 'truncated', success: false, faultId: truncate, faultKind: 'truncate', failed: true, reason: `half the body, then the connection closed${OWN}` });

    const text = await added(sb, { kind: 'text', type: 'login', times: '1' });
    await sb.client('login', { sessionid: await sb.init(), username: 'alice', pass: 'alice-password', hwid: HWID });
    expect(await lastLogin(sb)).toMatchObject({ status: 200, delivery: 'answer', success: false, message: 'KeyAuth_Invalid', faultId: text, faultKind: 'text', failed: true });

    // Failed filters see them; the genuine logins (the registers' and this one) are not faulted.
    await sb.client('login', { sessionid: await sb.init(), username: 'alice', pass: 'alice-password', hwid: HWID });
    expect(await lastLogin(sb)).toMatchObject({ success: true, fault: null, faultId: null, faultKind: null, delivery: 'answer', failed: false, reason: 'alice logged in' });
    const failed = (await sb.requests({ failed: '1', type: 'login' })).requests;
    expect(failed.map((record) => record.faultKind)).toEqual(['reset', 'truncate', 'text']);
  });

  it('status, html and tamper: the status and success the client got', async () => {
    const sb = await startTestSandbox();
    await registerUser(sb, { username: 'alice', pass: 'alice-password' });
    const login = async (pass = 'alice-password'): Promise<void> => void (await sb.client('login', { sessionid: await sb.init(), username: 'alice', pass, hwid: HWID }));

    await added(sb, { kind: 'status', arg: '503', type: 'login', times: '1' });
    await login();
    expect(await lastLogin(sb)).toMatchObject({ status: 503, success: true, failed: true, reason: `the answer with HTTP 503${OWN}` });

    await added(sb, { kind: 'html', type: 'login', times: '1' });
    await login();
    expect(await lastLogin(sb)).toMatchObject({ status: 502, success: false, message: '502 Bad Gateway', failed: true });

    await added(sb, { kind: 'tamper', type: 'login', times: '1' });
    await login('wrong-password');
    // The client was told success: a program that trusts it without the signature let a wrong password in.
    expect(await lastLogin(sb)).toMatchObject({ status: 200, success: true, message: 'Password does not match.', failed: false, reason: "success flipped after signing; the sandbox's own answer: wrong password for alice" });
  });

  it('a delay the client gave up on is recorded, with the fault, though no answer was sent', async () => {
    const sb = await startTestSandbox();
    const id = await added(sb, { kind: 'delay', arg: '20s', type: 'init' });
    const given = await sb.request(`/api/1.3/?${new URLSearchParams({ type: 'init', name: sb.info.app.name, ownerid: sb.info.app.ownerid }).toString()}`, { signal: AbortSignal.timeout(300) }).catch((error: unknown) => error);
    expect(given).toBeInstanceOf(Error);
    let record: RecordedRequest | undefined;
    for (let tries = 0; tries < 100 && record === undefined; tries += 1) {
      record = (await sb.requests({ type: 'init' })).requests.at(-1);
      if (record === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(record).toMatchObject({ status: 0, delivery: 'abandoned', success: false, faultId: id, faultKind: 'delay', fault: `#${id} delay 20s`, failed: true });
    expect(record!.reason).toMatch(/^the answer held back 20s; the client closed the connection after \d+\.\d s, before it was sent; the sandbox's own answer: new session/);
    expect(record!.durationMs).toBeLessThan(20_000);
  });

  it('a live reader gets the record as the client saw it', async () => {
    const sb = await startTestSandbox();
    const res = await fetch(`${sb.baseUrl}/sandbox/requests?follow=1&type=init`, { headers: { authorization: `Bearer ${sb.info.adminToken}` } });
    const reader = res.body!.getReader();
    const id = await added(sb, { kind: 'text', type: 'init' });
    await sb.client('init');
    let text = '';
    while (!text.includes('event: request')) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    const record = JSON.parse(/data: (.*)\n/.exec(text.slice(text.indexOf('event: request')))![1]!) as RecordedRequest;
    expect(record).toMatchObject({ faultId: id, faultKind: 'text', success: false, message: 'KeyAuth_Invalid', failed: true });
  });
});

describe('the fault stage while no fault is held', () => {
  it('remembers no answer: a replay added later has nothing earlier to send', async () => {
    const sb = await startTestSandbox();
    const sid = await sb.init();
    await added(sb, { kind: 'replay', type: 'check' });
    const check = await sb.client('check', { sessionid: sid });
    // The genuine answer to check, not the init sent before any fault was held.
    expect(check.json.message).toBe('Session is not validated');
    const faults = (await sb.request('/sandbox/faults', { headers: { authorization: `Bearer ${sb.info.adminToken}` } })).json.faults as Array<{ fired: number }>;
    expect(faults[0]!.fired).toBe(0);
  });
});
