/**
 * kactl/sandbox as a test suite uses it: start, seed, typed clients whose signatures are
 * checked, the outbox, clock and request log, reset, snapshots, many sandboxes at once, and
 * typed errors.
 * Everything runs against real servers on 127.0.0.1 in this process.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox, type LoggedRequest, type RequestApi, type Sandbox } from '../../src/sandbox.js';
import { ApiFailure, AuthError, BadResponseError, KactlError, SignatureError, TransportError, UsageError } from '../../src/index.js';
import { createClient, fileAnswerMemory, memorySessionStore } from '../../src/client.js';
import { tempDir } from '../helpers/temp-dir.js';

const open: Sandbox[] = [];
afterAll(async () => {
  await Promise.all(open.map((sb) => sb.close()));
});
async function start(...args: Parameters<typeof startSandbox>): Promise<Sandbox> {
  const sb = await startSandbox(...args);
  open.push(sb);
  return sb;
}

const STATE = {
  subscriptions: [{ name: 'default', level: 1 }],
  licenses: [{ key: 'CI-KEY-0001', level: 1, expiry: '30d' }],
  users: [{ username: 'alice', password: 'alice-pass-0001', subscription: 'default', expiry: '30d', email: 'alice@example.test' }],
  variables: { motd: { value: 'welcome', authed: false } },
};

describe('startSandbox', () => {
  it('serves on loopback with a fresh app, and its client checks every signature', async () => {
    const sb = await start();
    expect(sb.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sb.publicKey).toMatch(/^[0-9a-f]{64}$/);
    expect(sb.sellerKey).toMatch(/^[0-9a-f]{32}$/);
    const seller = sb.seller();
    // A fresh sandbox has the subscription `default` at level 1.
    const made = await seller.call('add', { expiry: 30, level: 1 });
    const client = sb.client();
    const init = await client.init();
    expect(init.sessionid).toBe(client.session?.id);
    const login = await client.register({ username: 'carol', pass: 'carol-pass-0001', key: made.key!, hwid: 'HWID-CAROL-000000000001' });
    expect(login.info.username).toBe('carol');
    expect(login.info.subscriptions[0]?.subscription).toBe('default');
    expect((await client.check()).message).toMatch(/validated/);

    // The same answers under another key are refused: the client did check them.
    const other = await start();
    const wrongKey = sb.client({ publicKey: other.publicKey });
    const error = await wrongKey.init().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SignatureError);
    expect(error).toMatchObject({ code: 'SIGNATURE', reason: 'mismatch', scheme: 'ed25519' });
  });

  it('1.2 answers are checked with the app secret', async () => {
    const sb = await start({ seed: STATE });
    const client = sb.client({ api: '1.2' });
    await client.init();
    await client.login({ username: 'alice', pass: 'alice-pass-0001', hwid: 'HWID-ALICE-000000000001' });
    const wrongSecret = sb.client({ api: '1.2', secret: 'f'.repeat(64) });
    await expect(wrongSecret.init()).rejects.toMatchObject({ code: 'SIGNATURE', scheme: 'hmac' });
  });

  it('seeds from an object and from a state file, !env NAME read from the env given', async () => {
    const fromObject = await start({ seed: STATE });
    const client = fromObject.client();
    await client.init();
    expect((await client.var({ varid: 'motd' })).message).toBe('welcome');

    const folder = tempDir('kactl-lib-seed-');
    const file = path.join(folder, 'state.yaml');
    fs.writeFileSync(file, 'subscriptions: [ { name: default, level: 1 } ]\nvariables: { motd: { value: !env MOTD, authed: false } }\n');
    const fromFile = await start({ seed: file, env: { MOTD: 'from the env' } });
    const second = fromFile.client();
    await second.init();
    expect((await second.var({ varid: 'motd' })).message).toBe('from the env');
  });

  it('refuses a seed that is not a state, with where and why', async () => {
    await expect(startSandbox({ seed: { licenses: [{ level: 1 }] } })).rejects.toThrow(/^seed: licenses\[0\]/);
    const folder = tempDir('kactl-lib-seed-');
    const file = path.join(folder, 'bad.yaml');
    fs.writeFileSync(file, 'subscriptions:\n  - { level: 1 }\n');
    const error = await startSandbox({ seed: file }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toMatch(/bad\.yaml, line 2/);
    const unset = path.join(folder, 'unset.yaml');
    fs.writeFileSync(unset, 'variables: { motd: { value: !env MOTD, authed: false } }\n');
    await expect(startSandbox({ seed: unset, env: {} })).rejects.toMatchObject({ code: 'USAGE', message: `${unset}, line 1: !env MOTD: MOTD is not set in the environment.` });
    // As `kactl apply` does: a ${NAME} in a text is refused, never read from the environment.
    const braces = path.join(folder, 'braces.yaml');
    fs.writeFileSync(braces, 'variables: { motd: { value: "${MOTD}", authed: false } }\n');
    await expect(startSandbox({ seed: braces, env: { MOTD: 'x' } })).rejects.toThrow(/line 1: "\$\{MOTD\}" is not read from the environment: write the whole value as !env MOTD/);
    // The record rules beyond the schema, as apply checks them (a used key needs its user).
    await expect(startSandbox({ seed: { licenses: [{ key: 'K-1', duration: '1d', status: 'used' }] } })).rejects.toThrow(/^seed: licenses\[0\]\.used_by: a used key needs used_by/);
  });

  it('reset() goes back to the seeded state: data, clock and outbox', async () => {
    const sb = await start({ seed: STATE });
    const seller = sb.seller();
    await seller.call('add', { expiry: 1, amount: 3 });
    const client = sb.client();
    await client.init();
    await client.forgot({ username: 'alice', email: 'alice@example.test' });
    expect(await sb.outbox.list()).toHaveLength(1);
    await sb.advance('2d');
    expect(await sb.clock.offset()).toBe(2 * 86_400);

    await sb.reset();
    expect((await seller.call('fetchallkeys')).keys.map((row) => row.key)).toEqual(['CI-KEY-0001']);
    expect(await sb.outbox.list()).toEqual([]);
    expect(await sb.clock.offset()).toBe(0);
    // The session opened before the reset is gone with the rest.
    await expect(client.check()).rejects.toMatchObject({ code: 'AUTH', reason: 'session-ended' });
  });

  it('snapshot() and restore() put a moment back; another sandbox refuses it', async () => {
    const sb = await start({ seed: STATE });
    const seller = sb.seller();
    await seller.createLicenses({ amount: 3, expiry: 1, note: 'before' });
    const snapshot = await sb.snapshot();
    expect(Buffer.from(snapshot.bytes.subarray(0, 15)).toString()).toBe('SQLite format 3');
    await seller.call('delalllicenses');
    expect((await seller.call('fetchallkeys')).keys).toEqual([]);
    await sb.restore(snapshot);
    expect((await seller.call('fetchallkeys')).keys).toHaveLength(4);
    const other = await start();
    await expect(other.restore(snapshot)).rejects.toThrow(/not taken of this sandbox/);
  });

  it('the clock: set, advance and back to real time', async () => {
    const sb = await start();
    const target = new Date(Date.UTC(2030, 0, 1));
    const now = await sb.clock.set(target);
    expect(Math.abs(now.getTime() - target.getTime())).toBeLessThan(2000);
    const later = await sb.clock.advance(3600);
    expect(Math.round((later.getTime() - now.getTime()) / 1000)).toBeGreaterThanOrEqual(3600);
    await sb.clock.reset();
    expect(await sb.clock.offset()).toBe(0);
    await expect(sb.advance('soon')).rejects.toBeInstanceOf(UsageError);
  });

  it('the outbox holds what a user was mailed; last() finds the newest', async () => {
    const sb = await start({ seed: STATE });
    const client = sb.client();
    await client.init();
    await client.emailCodeSend({ email: 'alice@example.test', hwid: 'HWID-ALICE-000000000001' });
    const mail = await sb.outbox.last({ kind: 'email-code', to: 'alice@example.test' });
    expect(mail?.data.code).toMatch(/^\d{6}$/);
    const login = await client.emailCodeVerify({ email: 'alice@example.test', code: String(mail!.data.code), hwid: 'HWID-ALICE-000000000001' });
    expect(login.info.username).toBe('alice');
  });

  it('logs() reads the request log as kactl sandbox logs does: why each request was refused, filtered', async () => {
    const sb = await start({ seed: STATE });
    // The seed went through the seller API, and was recorded like any request.
    expect((await sb.logs({ api: 'seller' })).map((record) => record.type)).toContain('add');
    const client = sb.client();
    await client.init();
    await expect(client.login({ username: 'alice', pass: 'wrong-pass-0001', hwid: 'HWID-ALICE-000000000001' })).rejects.toBeInstanceOf(ApiFailure);
    await client.login({ username: 'alice', pass: 'alice-pass-0001', hwid: 'HWID-ALICE-000000000001' });

    const logins = await sb.logs({ type: 'login', user: 'alice' });
    expect(logins.map((record) => record.success)).toEqual([false, true]);
    const [refused] = await sb.logs({ failed: true, api: ['1.3'] });
    expect(refused).toMatchObject({ api: '1.3', type: 'login', user: 'alice', success: false, status: 200, method: 'POST', path: '/api/1.3/' });
    expect(refused!.reason).toMatch(/password/i);
    expect(new Date(refused!.time).getTime()).toBeGreaterThan(Date.now() - 60_000);
    // Secrets are masked in the record, as on the route.
    expect(JSON.stringify(refused!.params)).not.toContain('wrong-pass-0001');

    // The newest that match, oldest first; `after` an id; `since` a time; types and APIs as lists.
    const [newest] = await sb.logs({ api: '1.3', limit: 1 });
    expect(newest).toMatchObject({ type: 'login', success: true });
    expect((await sb.logs({ after: refused!.id, api: '1.3' })).map((record) => record.id)).toEqual([newest!.id]);
    expect(await sb.logs({ since: new Date(Date.now() + 60_000) })).toEqual([]);
    expect((await sb.logs({ since: Date.now() - 60_000, type: ['init', 'login'] })).map((record) => record.type)).toEqual(['init', 'login', 'login']);

    // The same records the admin route gives `kactl sandbox logs`; reading them is not recorded.
    const raw = await fetch(`${sb.baseUrl}/sandbox/requests?type=login`, { headers: { authorization: `Bearer ${sb.adminToken}` } });
    expect(((await raw.json()) as { requests: LoggedRequest[] }).requests).toEqual(logins);
    expect(await sb.logs({ api: 'admin' })).toEqual([]);

    // A wrong filter is the caller's fault.
    await expect(sb.logs({ limit: 20_000 })).rejects.toMatchObject({ code: 'USAGE', message: expect.stringMatching(/limit must be a whole number from 0 to 10000/) });
    await expect(sb.logs({ api: 'graphql' as RequestApi })).rejects.toMatchObject({ code: 'USAGE', message: expect.stringMatching(/api must be among/) });
    await expect(sb.logs({ since: new Date('not a date') })).rejects.toMatchObject({ code: 'USAGE', message: 'since must be a valid date or a number of milliseconds since the epoch.' });

    // reset() takes the log back to the seed's requests with the rest of the store, those of a
    // request made just before it included (records wait a moment before they are written).
    await client.init();
    await sb.reset();
    expect(await sb.logs({ api: '1.3' })).toEqual([]);
    expect((await sb.logs({ api: 'seller' })).map((record) => record.type)).toContain('add');
    await client.init();
    expect((await sb.logs({ api: '1.3' })).map((record) => record.type)).toEqual(['init']);
  });

  it('faults: a forged or replayed answer is a SignatureError the program can tell apart; fired counts, marks and clear', async () => {
    const sb = await start({ seed: STATE });
    const client = sb.client();
    await client.init();
    const forged = await sb.faults.add({ kind: 'forge-signature', type: 'login', times: 1 });
    expect(forged).toMatchObject({ kind: 'forge-signature', types: ['login'], times: 1, fired: 0 });
    await expect(client.login({ username: 'alice', pass: 'alice-pass-0001', hwid: 'HWID-ALICE-000000000001' })).rejects.toMatchObject({ code: 'SIGNATURE', reason: 'mismatch' });
    // It fired once and stops; the next login is genuine.
    await client.login({ username: 'alice', pass: 'alice-pass-0001', hwid: 'HWID-ALICE-000000000001' });
    expect((await sb.faults.list()).map((fault) => fault.fired)).toEqual([1]);
    expect((await sb.logs({ type: 'login' })).map((record) => record.fault)).toEqual([`#${forged.id} forge-signature`, null]);

    // The previous signed answer to this client, byte for byte: only the replay check catches it.
    // Answers are remembered while a replay fault is held: it goes in before the answer it replays.
    await sb.faults.add({ kind: 'replay', type: 'check', times: 1 });
    await client.login({ username: 'alice', pass: 'alice-pass-0001', hwid: 'HWID-ALICE-000000000001' });
    const replayed = await client.check().catch((caught: unknown) => caught);
    expect(replayed).toBeInstanceOf(SignatureError);
    expect(replayed).toMatchObject({ code: 'SIGNATURE', reason: 'replay' });

    await expect(sb.faults.add({ kind: 'stale-timestamp' })).rejects.toBeInstanceOf(UsageError);
    expect(await sb.faults.clear()).toBe(2);
    expect(await sb.faults.list()).toEqual([]);
    await expect(sb.faults.clear(99)).rejects.toBeInstanceOf(UsageError);
  });

  it('fileAnswerMemory: a restarted program still refuses an answer it accepted before it stopped', async () => {
    const sb = await start({ seed: STATE });
    const file = path.join(tempDir('kactl-answers-'), 'answers.json');
    const before = sb.client({ answerMemory: fileAnswerMemory(file) });
    await before.init();
    await before.login({ username: 'alice', pass: 'alice-pass-0001', hwid: 'HWID-ALICE-000000000001' });
    // A replay fault sends only answers given while it is held: armed now, it lets this check
    // through (nothing was kept before it) and keeps its answer.
    await sb.faults.add({ kind: 'replay', type: 'check', times: 1 });
    await before.check();
    expect((await sb.faults.list())[0]).toMatchObject({ fired: 0 });
    const session = before.session;
    await before.close();

    // The program starts again with the same session and the same file; the next answer it gets
    // is the last one it accepted before, sent again.
    const after = sb.client({ answerMemory: fileAnswerMemory(file), session: memorySessionStore(session) });
    await expect(after.check()).rejects.toMatchObject({ code: 'SIGNATURE', reason: 'replay' });
    // With the default memory (this client's own), the restart forgot it: the same replay passes.
    const forgetful = sb.client({ session: memorySessionStore(session) });
    await sb.faults.add({ kind: 'replay', type: 'check', times: 1 });
    await expect(forgetful.check()).resolves.toMatchObject({ success: true });
  });

  it('logLimit: 0 records nothing', async () => {
    const sb = await start({ logLimit: 0 });
    await sb.client().init();
    expect(await sb.logs()).toEqual([]);
    await expect(startSandbox({ logLimit: -1 })).rejects.toMatchObject({ code: 'USAGE', option: 'logLimit', message: 'logLimit must be a whole number (0 records nothing).' });
  });

  it('runs many sandboxes side by side, each with its own data', async () => {
    const all = await Promise.all([start(), start(), start()]);
    expect(new Set(all.map((sb) => sb.baseUrl)).size).toBe(3);
    await all[0].seller().call('addsub', { name: 'only-here', level: 3 });
    const lists = await Promise.all(all.map(async (sb) => (await sb.seller().call('fetchallsubs')).subs.map((sub) => sub.name)));
    expect(lists[0]).toContain('only-here');
    expect(lists[1]).not.toContain('only-here');
  });

  it('serves HTTPS with tls, its clients trusting its own authority; the authority folder goes at close', async () => {
    const sb = await startSandbox({ tls: true });
    expect(sb.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const client = sb.client();
    await client.init();
    const folder = path.dirname(sb.caFile!);
    expect(fs.existsSync(folder)).toBe(true);
    await sb.close();
    expect(fs.existsSync(folder)).toBe(false);
  });

  it('names its options as the library does when one is wrong', async () => {
    const error = await startSandbox({ port: 70_000 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toMatchObject({ code: 'USAGE', option: 'port', message: 'port must be an integer from 0 to 65535.' });
    await expect(startSandbox({ ownerid: 'short' })).rejects.toThrow('ownerid must be exactly 10 letters or digits.');
  });

  it('gives the server lines to the logger, and nothing without one', async () => {
    const lines: string[] = [];
    const sb = await start({ logger: { info: (line) => lines.push(line), warn: (line) => lines.push(`warn ${line}`) } });
    await sb.client().init();
    expect(lines.some((line) => line.includes('/api/1.3/'))).toBe(true);
  });

  it('a closed sandbox refuses new clients; close() twice is fine', async () => {
    const sb = await startSandbox();
    await sb.close();
    await sb.close();
    expect(() => sb.client()).toThrow(UsageError);
  });
});

describe('errors a program can switch on', () => {
  it('a refused login is an ApiFailure with the server message', async () => {
    const sb = await start({ seed: STATE });
    const client = sb.client();
    await client.init();
    const error = await client.login({ username: 'alice', pass: 'wrong', hwid: 'HWID-ALICE-000000000001' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiFailure);
    expect(error).toMatchObject({ code: 'FAILURE', message: 'Password does not match.' });
  });

  it('a refusal the wire sends as a success is an ApiFailure too (the client catalog\'s refusalAsSuccess)', async () => {
    const sb = await start({ seed: STATE });
    const client = sb.client();
    await client.init();
    await client.login({ username: 'alice', pass: 'alice-pass-0001', hwid: 'HWID-ALICE-000000000001' });
    // 1.2 answers setvar's input errors with success:true and the refusal as its message.
    const raw = await client.request('setvar', { var: 'note', data: 'x'.repeat(501) });
    expect(raw.body).toMatchObject({ success: true, message: 'Variable data must be 500 characters or less' });
    const typed = await client.setvar({ var: 'note', data: 'x'.repeat(501) }).catch((caught: unknown) => caught);
    expect(typed).toBeInstanceOf(ApiFailure);
    expect(typed).toMatchObject({ code: 'FAILURE', message: 'Variable data must be 500 characters or less' });
    await expect(client.call('setvar', { var: 'note' })).rejects.toMatchObject({ code: 'FAILURE', message: 'No variable data provided' });
    await expect(client.setvar({ var: 'note', data: 'fine' })).resolves.toMatchObject({ success: true });
    await expect(client.getvar({ var: 'note' })).resolves.toMatchObject({ response: 'fine' });
  });

  it('a call before init, a refused seller key, a dead server, a wrong application', async () => {
    const sb = await start();
    await expect(sb.client().check()).rejects.toMatchObject({ code: 'AUTH', reason: 'no-session', message: 'There is no client session; call init() first.' });
    const error = await sb.seller({ sellerKey: 'x'.repeat(32) }).call('fetchallkeys').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).reason).toBe('unknown-seller-key');
    const dead = await startSandbox();
    const client = createClient({ baseUrl: dead.baseUrl, appName: dead.app.name, ownerid: dead.app.ownerid, publicKey: dead.publicKey });
    await dead.close();
    const refused = await client.init().catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(TransportError);
    expect(refused).toMatchObject({ code: 'NETWORK', kind: 'refused' });
    await client.close();
    const unknownApp = await sb.client({ appName: 'no-such-app' }).init().catch((caught: unknown) => caught);
    expect(unknownApp).toBeInstanceOf(BadResponseError);
    expect(unknownApp).toMatchObject({ code: 'BAD_ANSWER', kind: 'keyauth-invalid' });
    // Every one of them is a KactlError, and none names a kactl command.
    for (const caught of [error, refused, unknownApp]) {
      expect(caught).toBeInstanceOf(KactlError);
      expect(`${(caught as KactlError).message} ${(caught as KactlError).hints.join(' ')}`).not.toMatch(/`kactl |--[a-z]/);
    }
  });

  it('a bulk run cut short is a PartialFailure holding the keys made', async () => {
    const sb = await start();
    const seller = sb.seller();
    const controller = new AbortController();
    const seen: string[] = [];
    const error = await seller
      .createLicenses({ amount: 250, expiry: 1 }, { signal: controller.signal, onKeys: (keys) => { seen.push(...keys); controller.abort(); } })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'PARTIAL' });
    expect((error as { partial: string[] }).partial).toEqual(seen);
    expect(seen).toHaveLength(100);
  });
});
