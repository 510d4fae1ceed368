/**
 * Both APIs share one store (the "cross-API effects"): what the seller does through
 * /api/seller/ is what clients meet on /api/1.3/ and /api/1.2/, and the reverse. One sandbox,
 * real HTTP on both sides.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFail, loginSession, makeKey, makeUser, sellerOk, startSellerSandbox } from './support/seller-helpers.js';

const HWID = 'HWID-0000000000000000001';
const FILE_BYTES = Buffer.from('kactl sandbox file \x00\x01\x02', 'latin1');

let remote: http.Server;
let remoteBase = '';

/** The "internet" of these tests: a file and an echoing webhook target, on loopback. */
beforeAll(async () => {
  remote = http.createServer((req, res) => {
    if (req.url === '/files/tool.bin') {
      res.end(FILE_BYTES);
      return;
    }
    res.setHeader('content-type', 'text/plain');
    res.end(`${req.method ?? ''} ${req.url ?? ''} ua=${req.headers['user-agent'] ?? ''}`);
  });
  await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
  remoteBase = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
});

afterAll(async () => {
  remote.closeAllConnections();
  await new Promise<void>((resolve) => remote.close(() => resolve()));
});

describe('seller → client', () => {
  it('a key the seller makes works in the client license login, and the seller then sees it used', async () => {
    const sb = await startSellerSandbox();
    const key = await makeKey(sb, { expiry: '30' });
    const sessionid = await sb.init();
    const res = await sb.client('license', { sessionid, key, hwid: HWID });
    expect(res.json).toMatchObject({ success: true, info: { username: key } });
    expect(sb.verify13(res)).toBe(true);
    const info = await sellerOk(sb, 'info', { key });
    expect(info).toMatchObject({ status: 'Used', usedby: key });
    expect((await sellerOk(sb, 'fetchallusernames'))['usernames']).toEqual([{ username: key }]);
  });

  it('a key the seller bans is refused by the client license login', async () => {
    const sb = await startSellerSandbox();
    const key = await makeKey(sb);
    await sellerOk(sb, 'ban', { key, reason: 'Chargeback' });
    const sessionid = await sb.init();
    expect((await sb.client('license', { sessionid, key, hwid: HWID })).json.success).toBe(false);
  });

  it('a user the seller bans cannot log in; unbanned, they can', async () => {
    const sb = await startSellerSandbox();
    await makeUser(sb, 'alice');
    await sellerOk(sb, 'banuser', { user: 'alice', reason: 'Sharing' });
    const sessionid = await sb.init();
    const refused = await sb.client('login', { sessionid, username: 'alice', pass: 'pw', hwid: HWID });
    expect(refused.json).toMatchObject({ success: false, message: 'The user is banned' });
    await sellerOk(sb, 'unbanuser', { user: 'alice' });
    await loginSession(sb, 'alice');
  });

  it('a session the seller kills stops working', async () => {
    const sb = await startSellerSandbox();
    await makeUser(sb, 'alice');
    await sellerOk(sb, 'setvar', { user: 'alice', var: 'v', data: 'x' });
    const sessionid = await loginSession(sb, 'alice');
    expect((await sb.client('getvar', { sessionid, var: 'v' })).json).toMatchObject({ success: true, response: 'x' });
    await sellerOk(sb, 'kill', { sessid: sessionid });
    const after = await sb.client('getvar', { sessionid, var: 'v' });
    expect(after.json.success).toBe(false);
    expect(after.json.message).toMatch(/^Session not found/);
  });

  it('a variable set for all users is readable by each through the client getvar (1.3 and 1.2)', async () => {
    const sb = await startSellerSandbox();
    await makeUser(sb, 'alice');
    await makeUser(sb, 'bob');
    await sellerOk(sb, 'setvar', { user: 'all', var: 'tier', data: 'gold' });
    const alice = await loginSession(sb, 'alice');
    expect((await sb.client('getvar', { sessionid: alice, var: 'tier' })).json).toMatchObject({ success: true, response: 'gold' });
    const bob = await sb.init({}, { api: '1.2', method: 'POST' });
    expect((await sb.client('login', { sessionid: bob, username: 'bob', pass: 'pw', hwid: HWID }, { api: '1.2', method: 'POST' })).json.success).toBe(true);
    expect((await sb.client('getvar', { sessionid: bob, var: 'tier' }, { api: '1.2', method: 'POST' })).json).toMatchObject({ success: true, response: 'gold' });
  });

  it('a global variable the seller creates is readable through the client var', async () => {
    const sb = await startSellerSandbox();
    await sellerOk(sb, 'addvar', { name: 'motd', data: 'Welcome', authed: '0' });
    const sessionid = await sb.init();
    expect((await sb.client('var', { sessionid, varid: 'motd' })).json).toMatchObject({ success: true, message: 'Welcome' });
  });

  it('a webhook the seller adds is called through the client webhook, its URL hidden from the client', async () => {
    const sb = await startSellerSandbox();
    await sellerOk(sb, 'addwebhook', { baseurl: `${remoteBase}/hooks/grant?secret=abc`, ua: 'kactl-test', authed: '1', webid: 'grant' });
    await makeUser(sb, 'alice');
    const sessionid = await loginSession(sb, 'alice');
    const res = await sb.client('webhook', { sessionid, webid: 'grant', params: '&user=alice' });
    expect(res.json).toMatchObject({ success: true, response: 'GET /hooks/grant?secret=abc&user=alice ua=kactl-test' });
    // Login required: an unvalidated session is refused.
    const anonymous = await sb.init();
    expect((await sb.client('webhook', { sessionid: anonymous, webid: 'grant' })).json.success).toBe(false);
  });

  it('a file the seller uploads is downloadable through the client file', async () => {
    const sb = await startSellerSandbox();
    const id = (await sellerOk(sb, 'upload', { url: `${remoteBase}/files/tool.bin` }))['id'] as string;
    await makeUser(sb, 'alice');
    const sessionid = await loginSession(sb, 'alice');
    const res = await sb.client('file', { sessionid, fileid: id });
    expect(res.json).toMatchObject({ success: true, contents: FILE_BYTES.toString('hex') });
    await sellerOk(sb, 'delfile', { fileid: id });
    expect((await sb.client('file', { sessionid, fileid: id })).json.success).toBe(false);
  });

  it('a user the seller creates can log in, and a user the seller deletes no longer can', async () => {
    const sb = await startSellerSandbox();
    await makeUser(sb, 'alice');
    const sessionid = await loginSession(sb, 'alice');
    await sellerOk(sb, 'deluser', { user: 'alice' });
    expect((await sb.client('check', { sessionid })).json.success).toBe(false);
    const again = await sb.init();
    expect((await sb.client('login', { sessionid: again, username: 'alice', pass: 'pw', hwid: HWID })).json.message).toBe('Invalid username');
  });
});

describe('client → seller', () => {
  it('logs written by clients appear in fetchalllogs', async () => {
    const sb = await startSellerSandbox();
    await makeUser(sb, 'alice');
    const sessionid = await loginSession(sb, 'alice');
    expect((await sb.client('log', { sessionid, message: 'started v1.0', pcuser: 'DESKTOP\\alice' })).json.success).toBe(true);
    const logs = (await sellerOk(sb, 'fetchalllogs'))['logs'] as Record<string, unknown>[];
    expect(logs).toEqual([expect.objectContaining({ logdata: 'started v1.0', credential: 'alice', pcuser: 'DESKTOP\\alice', logapp: sb.info.app.name })]);
  });

  it('users who register with a key appear in the seller lists; their sessions too', async () => {
    const sb = await startSellerSandbox();
    const key = await makeKey(sb);
    const sessionid = await sb.init();
    expect((await sb.client('register', { sessionid, username: 'carol', pass: 'pw', key, hwid: HWID })).json.success).toBe(true);
    expect((await sellerOk(sb, 'getkey', { user: 'carol' }))['key']).toBe(key);
    expect((await sellerOk(sb, 'fetchallsessions'))['sessions']).toEqual([expect.objectContaining({ id: sessionid, credential: 'carol', validated: '1' })]);
    expectFail(await sb.seller('delunused'), "Didn't find any unused keys!");
  });
});
