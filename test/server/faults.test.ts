/**
 * Faults (src/server/faults/, POST /sandbox/faults): what each kind turns a genuine answer into,
 * seen over real HTTP (and a raw socket for the reset and the cut body), which requests it hits,
 * how often, and the mark it leaves in the request inspector.
 */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { hmacHex, startTestSandbox, type ParamValues, type TestSandbox } from '../helpers/sandbox.js';
import { HWID, registerUser } from './support/client-fixtures.js';
import { addFault, added } from './support/fault-helpers.js';

async function listFaults(sb: TestSandbox): Promise<Array<Record<string, unknown>>> {
  const res = await sb.request('/sandbox/faults', { headers: { authorization: `Bearer ${sb.info.adminToken}` } });
  expect(res.status).toBe(200);
  return res.json.faults as Array<Record<string, unknown>>;
}

/** A raw HTTP/1.1 GET: every byte the socket gave before it closed, and how it closed. */
function rawGet(sb: TestSandbox, path: string): Promise<{ bytes: Buffer; error: string | undefined }> {
  const url = new URL(sb.baseUrl);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let error: string | undefined;
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (err: NodeJS.ErrnoException) => (error = err.code ?? err.message));
    socket.on('close', () => resolve({ bytes: Buffer.concat(chunks), error }));
  });
}

function clientPath(sb: TestSandbox, params: ParamValues): string {
  const all = new URLSearchParams({ name: sb.info.app.name, ownerid: sb.info.app.ownerid });
  for (const [name, value] of Object.entries(params)) if (value !== undefined) all.set(name, value);
  return `/api/1.3/?${all.toString()}`;
}

describe('signature faults on 1.3', () => {
  it('forge-signature: a well-formed Ed25519 signature by another key over the same body and timestamp', async () => {
    const sb = await startTestSandbox();
    await added(sb, { kind: 'forge-signature', type: 'init' });
    const res = await sb.client('init', { ver: sb.info.app.version });
    expect(res.status).toBe(200);
    expect(res.json.success).toBe(true);
    expect(res.headers.get('x-signature-ed25519')).toMatch(/^[0-9a-f]{128}$/);
    expect(Math.abs(Number(res.headers.get('x-signature-timestamp')) - Date.now() / 1000)).toBeLessThan(30);
    expect(sb.verify13(res)).toBe(false);
    // Another type is not hit.
    const sid = res.json.sessionid as string;
    expect(sb.verify13(await sb.client('check', { sessionid: sid }))).toBe(true);
  });

  it('stale-timestamp: signed again by the sandbox key, only the timestamp is old', async () => {
    const sb = await startTestSandbox();
    await added(sb, { kind: 'stale-timestamp', arg: '10m' });
    const res = await sb.client('init', { ver: sb.info.app.version });
    expect(sb.verify13(res)).toBe(true);
    const age = Date.now() / 1000 - Number(res.headers.get('x-signature-timestamp'));
    expect(age).toBeGreaterThan(590);
    expect(age).toBeLessThan(630);
  });

  it('replay: the previous signed answer to that client, byte for byte, headers included', async () => {
    const sb = await startTestSandbox();
    // Answers are remembered only while a replay fault is held: the init after it is the one replayed.
    await added(sb, { kind: 'replay', type: 'check' });
    const first = await sb.client('init', { ver: sb.info.app.version });
    const replayed = await sb.client('check', { sessionid: first.json.sessionid });
    expect(replayed.bytes.equals(first.bytes)).toBe(true);
    expect(replayed.headers.get('x-signature-ed25519')).toBe(first.headers.get('x-signature-ed25519'));
    expect(replayed.headers.get('x-signature-timestamp')).toBe(first.headers.get('x-signature-timestamp'));
    expect(sb.verify13(replayed)).toBe(true);
  });

  it('tamper: success flipped after signing, the signature left as it was', async () => {
    const sb = await startTestSandbox();
    await registerUser(sb, { username: 'alice', pass: 'right-password' });
    const sid = await sb.init();
    await added(sb, { kind: 'tamper', type: 'login' });
    const res = await sb.client('login', { sessionid: sid, username: 'alice', pass: 'wrong-password', hwid: HWID });
    expect(res.json.success).toBe(true);
    expect(res.json.message).toBe('Password does not match.');
    expect(sb.verify13(res)).toBe(false);
  });
});

describe('signature faults on 1.2 (HMAC)', () => {
  it('forge is an HMAC by a wrong key, tamper keeps the signature, replay sends the last answer again', async () => {
    const sb = await startTestSandbox();
    const secret = sb.info.app.secret;
    // Held first: answers are remembered only while a replay fault is held. It cannot fire before there is one.
    const replayId = await added(sb, { kind: 'replay', api: '1.2', times: '1' });
    const genuine = await sb.client('init', { ver: sb.info.app.version, enckey: 'clientenckey0001' }, { api: '1.2', method: 'POST' });
    expect(genuine.headers.get('signature')).toBe(hmacHex(secret, genuine.bytes));
    const replayed = await sb.client('init', { ver: sb.info.app.version, enckey: 'clientenckey0001' }, { api: '1.2', method: 'POST' });
    expect(replayed.bytes.equals(genuine.bytes)).toBe(true);
    expect(replayed.headers.get('signature')).toBe(genuine.headers.get('signature'));

    const forgeId = await added(sb, { kind: 'forge-signature', api: '1.2', times: '1' });
    const forged = await sb.client('init', { ver: sb.info.app.version, enckey: 'clientenckey0001' }, { api: '1.2', method: 'POST' });
    expect(forged.headers.get('signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(forged.headers.get('signature')).not.toBe(hmacHex(secret, forged.bytes));

    await added(sb, { kind: 'tamper', api: '1.2', times: '1' });
    const tampered = await sb.client('init', { ver: sb.info.app.version, enckey: 'clientenckey0001' }, { api: '1.2', method: 'POST' });
    expect(tampered.json.success).toBe(false);
    expect(tampered.headers.get('signature')).not.toBe(hmacHex(secret, tampered.bytes));

    const faults = await listFaults(sb);
    expect(faults.map((fault) => fault.fired)).toEqual([1, 1, 1]);
    expect(faults[0]).toMatchObject({ id: replayId, kind: 'replay', apis: ['1.2'], times: 1 });
    expect(faults[1]).toMatchObject({ id: forgeId, kind: 'forge-signature', apis: ['1.2'], times: 1 });
    // Spent faults fire no more.
    const after = await sb.client('init', { ver: sb.info.app.version, enckey: 'clientenckey0001' }, { api: '1.2', method: 'POST' });
    expect(after.headers.get('signature')).toBe(hmacHex(secret, after.bytes));
  });
});

describe('transport faults', () => {
  it('status, html, text and rate-limit answers', async () => {
    const sb = await startTestSandbox();
    await added(sb, { kind: 'status', arg: '503', times: '1' });
    const status = await sb.client('init', { ver: sb.info.app.version });
    expect(status.status).toBe(503);
    expect(status.json.success).toBe(true);

    await added(sb, { kind: 'html', times: '1' });
    const html = await sb.client('init');
    expect(html.status).toBe(502);
    expect(html.headers.get('content-type')).toBe('text/html');
    expect(html.text).toContain('<title>502 Bad Gateway</title>');

    await added(sb, { kind: 'text', times: '1' });
    const text = await sb.client('init');
    expect(text.status).toBe(200);
    expect(text.text).toBe('KeyAuth_Invalid');
    expect(text.headers.get('x-signature-ed25519')).toBeNull();

    await added(sb, { kind: 'rate-limit', times: '1' });
    const limited = await sb.client('init');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(limited.json).toMatchObject({ success: false, message: 'This application has sent too many requests. Try again in a minute.' });
    expect(sb.verify13(limited)).toBe(true);

    await added(sb, { kind: 'rate-limit', api: '1.2', times: '1' });
    const limited12 = await sb.client('init', {}, { api: '1.2', method: 'POST' });
    expect(limited12.status).toBe(200);
    expect(limited12.text).toBe('{"success":false,"message":"This application has sent too many requests. Try again in a minute."}');
    expect(limited12.headers.get('signature')).toBeNull();

    await added(sb, { kind: 'rate-limit', api: 'seller', times: '1' });
    const seller = await sb.seller('fetchallkeys');
    expect(seller.status).toBe(200);
    expect(seller.json.message).toMatch(/^Seller key used too frequently!/);
  });

  it('delay holds the answer back', async () => {
    const sb = await startTestSandbox();
    await added(sb, { kind: 'delay', arg: '300ms', times: '1' });
    const started = Date.now();
    const res = await sb.client('init', { ver: sb.info.app.version });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(sb.verify13(res)).toBe(true);
  });

  it('reset closes the connection before any byte; truncate sends part of the body, then ends it', async () => {
    const sb = await startTestSandbox();
    await added(sb, { kind: 'reset', times: '1' });
    const reset = await rawGet(sb, clientPath(sb, { type: 'init' }));
    expect(reset.bytes.length).toBe(0);

    await added(sb, { kind: 'truncate', times: '1' });
    const cut = await rawGet(sb, clientPath(sb, { type: 'init', ver: sb.info.app.version }));
    const text = cut.bytes.toString('latin1');
    const [head, body] = [text.slice(0, text.indexOf('\r\n\r\n')), text.slice(text.indexOf('\r\n\r\n') + 4)];
    expect(head).toMatch(/^HTTP\/1\.1 200/);
    const length = Number(/content-length: (\d+)/i.exec(head)![1]);
    expect(body.length).toBeGreaterThan(0);
    expect(body.length).toBeLessThan(length);

    await expect(sb.client('init')).resolves.toMatchObject({ status: 200 });
  });
});

describe('which requests a fault hits', () => {
  it('filters by type, API and user; rate 1 fires every time; the admin routes are never hit', async () => {
    const sb = await startTestSandbox();
    await registerUser(sb, { username: 'alice', pass: 'alice-password' });
    await registerUser(sb, { username: 'bob', pass: 'bob-password' });
    await added(sb, { kind: 'status', arg: '418', type: 'login', api: '1.3', user: 'bob', rate: '1' });
    const sid = await sb.init();
    expect((await sb.client('login', { sessionid: sid, username: 'alice', pass: 'alice-password', hwid: HWID })).status).toBe(200);
    expect((await sb.client('login', { sessionid: sid, username: 'bob', pass: 'bob-password', hwid: HWID })).status).toBe(418);
    expect((await sb.client('login', { sessionid: sid, username: 'bob', pass: 'bob-password', hwid: HWID }, { api: '1.2', method: 'POST' })).status).toBe(200);
    await added(sb, { kind: 'status', arg: '500' });
    // Neither the admin routes nor the dashboard are hit: the faults can always be listed and cleared.
    expect((await sb.request('/sandbox/ui')).status).toBe(401);
    expect((await listFaults(sb)).map((fault) => fault.fired)).toEqual([1, 0]);
  });

  it('marks every faulted answer in the inspector, and no secret is in the record or the listing', async () => {
    const sb = await startTestSandbox();
    await registerUser(sb, { username: 'carol', pass: 'carols-secret-pass' });
    const sid = await sb.init();
    const id = await added(sb, { kind: 'tamper', type: 'login' });
    await sb.client('login', { sessionid: sid, username: 'carol', pass: 'carols-secret-pass', hwid: HWID });
    const { requests } = await sb.requests({ type: 'login' });
    expect(requests.at(-1)).toMatchObject({ fault: `#${id} tamper`, user: 'carol' });
    const { requests: inits } = await sb.requests({ type: 'init' });
    expect(inits.at(-1)!.fault).toBeNull();
    const everything = JSON.stringify({ requests, faults: await listFaults(sb) });
    for (const secret of ['carols-secret-pass', sid, sb.info.adminToken, sb.info.sellerKey, sb.info.app.secret]) expect(everything).not.toContain(secret);
  });

  it('refuses a wrong fault in one sentence, wants the admin token, and clears one or all', async () => {
    const sb = await startTestSandbox();
    expect((await addFault(sb, { kind: 'explode' })).json.message).toMatch(/^Unknown fault kind "explode": use one of forge-signature,/);
    expect((await addFault(sb, { kind: 'delay' })).json.message).toBe('delay needs a DURATION, e.g. 10m');
    expect((await addFault(sb, { kind: 'status', arg: '99' })).status).toBe(400);
    expect((await addFault(sb, { kind: 'reset', times: '2', rate: '0.5' })).json.message).toBe('Give --times or --rate, not both');
    expect((await addFault(sb, { kind: 'replay', api: 'seller' })).status).toBe(400);
    const noToken = await sb.request('/sandbox/faults');
    expect(noToken.status).toBe(401);
    const first = await added(sb, { kind: 'reset' });
    await added(sb, { kind: 'text' });
    const clearOne = await addFault(sb, { clear: String(first) });
    expect(clearOne.json).toMatchObject({ cleared: 1 });
    expect((await addFault(sb, { clear: String(first) })).status).toBe(400);
    expect((await addFault(sb, { clear: 'all' })).json).toEqual({ cleared: 1, faults: [] });
    expect((await sb.client('init')).status).toBe(200);
  });
});

describe('a delayed answer and shutdown', () => {
  it('a sandbox stops without waiting out a long delay', async () => {
    const sb = await startTestSandbox();
    await added(sb, { kind: 'delay', arg: '10m' });
    const pending = sb.client('init').catch((error: unknown) => error);
    // The request has reached the sandbox once the fault counts it as fired.
    for (let i = 0; i < 100 && (await listFaults(sb))[0]!.fired === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    // Without the fault stage letting go when the connection closes, this waits ten minutes (the test's timeout ends it first).
    await sb.close();
    expect(await pending).toBeInstanceOf(Error);
  }, 90_000);
});

describe('a fault that could never fire is refused', () => {
  it('checks each type against the client and seller catalogs, with the nearest name', async () => {
    const sb = await startTestSandbox();
    const refused = async (form: ParamValues): Promise<string> => {
      const res = await addFault(sb, form);
      expect(res.status, res.text).toBe(400);
      return res.json.message as string;
    };
    expect(await refused({ kind: 'forge-signature', type: 'logn' })).toBe('--type "logn" is no client API type (did you mean login or log?), so the fault would never fire');
    expect(await refused({ kind: 'status', arg: '503', type: 'fetchalkeys' })).toBe('--type "fetchalkeys" is no client or seller API type (did you mean fetchallkeys?), so the fault would never fire');
    expect(await refused({ kind: 'reset', type: 'Login' })).toMatch(/did you mean login\?/);
    expect(await refused({ kind: 'reset', type: 'fetchallkeys', api: '1.3' })).toBe('--type "fetchallkeys" is a seller API type, and this fault hits only 1.3 answers');
    expect(await refused({ kind: 'text', type: 'login', api: 'page' })).toBe('--type cannot be given with --api page: page answers have no API type');
    expect(await refused({ kind: 'reset', api: 'sellr' })).toBe('--api must be among 1.3, 1.2, seller, page; got "sellr" (did you mean seller?)');
    expect(await refused({ kind: 'forge-sig' })).toMatch(/^Unknown fault kind "forge-sig" \(did you mean forge-signature\?\): use one of /);
    expect(await refused({ kind: 'rate-limit', api: 'page' })).toBe('rate-limit is the answer of an API rate limit, which pages do not have, so its --api can only be 1.3, 1.2 or seller');
    // Right ones are held: a client type, a seller alias, both lists at once.
    await added(sb, { kind: 'forge-signature', type: 'login,check' });
    await added(sb, { kind: 'status', arg: '503', type: 'fetchallkeys,login' });
    expect((await listFaults(sb)).map((fault) => fault.types)).toEqual([['login', 'check'], ['fetchallkeys', 'login']]);
  });
});
