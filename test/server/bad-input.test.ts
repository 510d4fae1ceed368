/**
 * Bad input gets the spec's error shape `{"success":false,"message":…}` and the server keeps
 * serving (every case is followed by a good request). Requests the APIs refuse (no type, unknown
 * app, bad seller key) get the genuine server's status, 200 (404 for an unknown seller key), in
 * the default hosted mode; broken HTTP gets its 4xx whatever the mode. The spec-strict mode's 400s
 * are in status-policy.test.ts.
 */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestSandbox, type HttpResult, type TestSandbox } from '../helpers/sandbox.js';

async function expectStillServing(sb: TestSandbox): Promise<void> {
  const res = await sb.client('init');
  expect(res.status).toBe(200);
  expect(res.json.success).toBe(true);
}

function expectErrorShape(res: HttpResult, status: number, message: string | RegExp): void {
  expect(res.status, res.text).toBe(status);
  expect(res.json.success).toBe(false);
  if (typeof message === 'string') expect(res.json.message).toBe(message);
  else expect(res.json.message).toMatch(message);
}

/** Sends raw bytes and returns the raw answer (for what fetch refuses to send). */
function rawRequest(baseUrl: string, payload: Buffer | string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.end(payload));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
  });
}

describe('bad input on the client API', () => {
  it('unknown or missing type', async () => {
    const sb = await startTestSandbox();
    expectErrorShape(await sb.client('bogus'), 200, 'The value inputted for type parameter was not found');
    expectErrorShape(await sb.client(undefined), 200, 'The value inputted for type parameter was not found');
    expectErrorShape(await sb.client('', {}, { api: '1.2' }), 200, 'The value inputted for type paramater was not found');
    expectErrorShape(await sb.client('__proto__'), 200, 'The value inputted for type parameter was not found');
    expectErrorShape(await sb.client('toString'), 200, 'The value inputted for type parameter was not found');
    await expectStillServing(sb);
  });

  it('missing name or ownerid, and a wrong-length ownerid', async () => {
    const sb = await startTestSandbox();
    expectErrorShape(await sb.client('init', { ownerid: undefined }), 200, 'No OwnerID specified. Select app & copy code snippet from https://keyauth.cc/app/');
    expectErrorShape(await sb.client('init', { name: '  ' }), 200, 'No app name specified. Select app & copy code snippet from https://keyauth.cc/app/');
    expectErrorShape(await sb.client('init', { ownerid: 'abcdefghijk' }), 200, 'OwnerID should be 10 characters long. Select app & copy code snippet from https://keyauth.cc/app/');
    await expectStillServing(sb);
  });

  it('unknown app: the bare text KeyAuth_Invalid', async () => {
    const sb = await startTestSandbox();
    const res = await sb.client('init', { ownerid: 'ZZZZZZZZZZ' });
    expect(res.status).toBe(200);
    expect(res.text).toBe('KeyAuth_Invalid');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    await expectStillServing(sb);
  });

  it('a 2 MB parameter in the body: 413', async () => {
    const sb = await startTestSandbox();
    const res = await sb.client('init', { pad: 'x'.repeat(2 * 1024 * 1024) }, { method: 'POST' });
    expectErrorShape(res, 413, 'Request body too large');
    expect(sb.verify13(res)).toBe(true);
    await expectStillServing(sb);
  });

  it('a body that grows past the cap while streaming: 413', async () => {
    const sb = await startTestSandbox();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 40; i++) controller.enqueue(new TextEncoder().encode('a'.repeat(64 * 1024)));
        controller.close();
      },
    });
    const res = await sb.request('/api/1.3/', { method: 'POST', body: stream, headers: { 'content-type': 'application/x-www-form-urlencoded' }, duplex: 'half' });
    expectErrorShape(res, 413, 'Request body too large');
    await expectStillServing(sb);
  });

  it('a URL over 32 KiB: 414; a 2 MB URL, past the header parser: 431', async () => {
    const sb = await startTestSandbox();
    const long = await sb.client('init', { pad: 'y'.repeat(40 * 1024) });
    expectErrorShape(long, 414, 'Request URL too long');
    expect(long.json.ownerid).toBe(sb.info.app.ownerid);
    expect(sb.verify13(long)).toBe(true);
    expectErrorShape(await sb.client('init', { pad: 'y'.repeat(2 * 1024 * 1024) }), 431, 'Request headers too large');
    await expectStillServing(sb);
  });

  it('broken percent-encoding, in the query and in the body', async () => {
    const sb = await startTestSandbox();
    const { name, ownerid } = sb.info.app;
    const message = 'Malformed percent-encoding in the request parameters';
    expectErrorShape(await sb.request(`/api/1.3/?type=init&name=${name}&ownerid=${ownerid}&x=%zz`), 400, message);
    expectErrorShape(await sb.request(`/api/1.3/?type=init&name=${name}&ownerid=${ownerid}&x=%4`), 400, message);
    const body = await sb.request('/api/1.2/', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `type=init&name=${name}&ownerid=${ownerid}&x=100%` });
    expectErrorShape(body, 400, message);
    await expectStillServing(sb);
  });

  it('invalid UTF-8, percent-encoded or raw', async () => {
    const sb = await startTestSandbox();
    const { name, ownerid } = sb.info.app;
    const message = 'The request parameters are not valid UTF-8';
    expectErrorShape(await sb.request(`/api/1.3/?type=init&name=${name}&ownerid=${ownerid}&x=%FF%FE`), 400, message);
    expectErrorShape(await sb.request(`/api/1.3/?type=init&name=${name}&ownerid=${ownerid}&x=%ED%A0%80`), 400, message);
    const raw = Buffer.concat([Buffer.from(`type=init&name=${name}&ownerid=${ownerid}&x=`), Buffer.from([0xc3, 0x28])]);
    expectErrorShape(await sb.request('/api/1.3/', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: raw }), 400, message);
    await expectStillServing(sb);
  });

  it('POST with a wrong content type: 415', async () => {
    const sb = await startTestSandbox();
    const { name, ownerid } = sb.info.app;
    const form = `type=init&name=${name}&ownerid=${ownerid}`;
    const message = 'Unsupported content type; send application/x-www-form-urlencoded or multipart/form-data';
    for (const type of ['text/plain', 'application/json', 'multipart/mixed; boundary=x', 'application/x-www-form-urlencoded; charset=latin1']) {
      expectErrorShape(await sb.request('/api/1.3/', { method: 'POST', headers: { 'content-type': type }, body: form }), 415, message);
    }
    // A POST with no body and no content type reads the query.
    const empty = await sb.request(`/api/1.3/?${form}`, { method: 'POST' });
    expect(empty.json.success).toBe(true);
    await expectStillServing(sb);
  });

  it('unknown path 404, wrong method 405, preflight 204', async () => {
    const sb = await startTestSandbox();
    expectErrorShape(await sb.request('/api/1.4/?type=init'), 404, 'Not found');
    expectErrorShape(await sb.request('/'), 404, 'Not found');
    const put = await sb.request('/api/1.3/', { method: 'PUT', body: 'x' });
    expectErrorShape(put, 405, 'Method not allowed');
    expect(put.headers.get('allow')).toBe('GET, POST, OPTIONS');
    const options = await sb.request('/api/1.3/', { method: 'OPTIONS', headers: { origin: 'http://localhost:3000' } });
    expect(options.status).toBe(204);
    // A page on this machine's loopback may read the answers (http/origin-policy.ts).
    expect(options.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    await expectStillServing(sb);
  });

  it('routes /api/1.3 with or without the trailing slash', async () => {
    const sb = await startTestSandbox();
    const { name, ownerid } = sb.info.app;
    expect((await sb.request(`/api/1.3?type=init&name=${name}&ownerid=${ownerid}`)).json.success).toBe(true);
    expect((await sb.request(`/api/1.2?type=init&name=${name}&ownerid=${ownerid}`)).json.success).toBe(true);
  });

  it('garbage that is not HTTP gets a 400 in the error shape', async () => {
    const sb = await startTestSandbox();
    const answer = await rawRequest(sb.baseUrl, 'HELLO THERE\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('{"success":false,"message":"Malformed HTTP request"}');
    await expectStillServing(sb);
  });
});

describe('bad input on the seller API', () => {
  it('invalid seller keys get the exact messages with the hosted statuses', async () => {
    const sb = await startTestSandbox();
    const length = 'Seller key should be 32 characters long. Copy it from https://keyauth.cc/app/?page=seller-settings';
    expectErrorShape(await sb.request('/api/seller/?type=fetchallkeys'), 200, length);
    expectErrorShape(await sb.seller('fetchallkeys', { sellerkey: 'short' }), 200, length);
    expectErrorShape(await sb.seller('fetchallkeys', { sellerkey: 'a'.repeat(32) }), 404, 'No application found');
    // The key-length refusal is JSON even with format=text; the others follow format.
    expect((await sb.seller('fetchallkeys', { sellerkey: 'short', format: 'text' })).json.success).toBe(false);
    const text = await sb.seller('fetchallkeys', { sellerkey: 'a'.repeat(32), format: 'text' });
    expect(text.status).toBe(404);
    expect(text.text).toBe('No application found');
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  });

  it('missing, doubled and unknown types', async () => {
    const sb = await startTestSandbox();
    expectErrorShape(await sb.seller(undefined), 200, 'Type not specified');
    expectErrorShape(await sb.request(`/api/seller/?sellerkey=${sb.info.sellerKey}&type=a&type=b`), 200, 'You have "type" defined more than 1 time. Remove 1 of the types and keep only 1');
    expectErrorShape(await sb.seller('nosuchtype'), 200, "Type doesn't exist");
    expectErrorShape(await sb.seller('constructor'), 200, "Type doesn't exist");
    // PHP-style JSON on the seller API.
    expect((await sb.seller('nosuchtype')).text).toBe('{"success":false,"message":"Type doesn\'t exist"}');
    expect((await sb.request(`/api/seller?sellerkey=${sb.info.sellerKey}&type=x`)).json.message).toBe("Type doesn't exist");
  });

  it('accepts a JSON POST (shop webhooks) and reads parameters from the query', async () => {
    const sb = await startTestSandbox();
    const res = await sb.request(`/api/seller/?sellerkey=${sb.info.sellerKey}&type=nosuchtype`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"data":{"quantity":2}}' });
    expectErrorShape(res, 200, "Type doesn't exist");
  });
});
