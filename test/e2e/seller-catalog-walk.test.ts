/**
 * The catalog walk: against a real sandbox, every seller catalog entry runs through its own
 * command at least once, and its effect is checked afterwards — a created license shows in
 * `licenses list`, a banned user reads as banned, a deleted record is gone. Steps run in order,
 * each on the records earlier steps made. The last tests fail if an entry of the catalog was
 * never run (tracked from the command lines, not by hand), or if the real binary was never
 * spawned for one of the families below.
 *
 * Which runs spawn the built CLI: spawning each of the walk's ~140 commands cost a Node start
 * and a bundle load apiece, most of the walk's time. What only the binary can get wrong is shared
 * by whole families of commands: the launcher and the bundle chunk of each command group
 * (scripts/bundle.mjs splits the bundle per group), the code each effect (confirmation, backup)
 * and each answer kind (table, record, value, keys) loads on first use, text and `--json`
 * output, stdin, and the exit code of a refusal. So a command is spawned when it covers a family
 * no spawned run has covered yet, and otherwise runs kactl's main() in this process (the same
 * sources: the harness checks that dist/ was built from them) against the same sandbox and
 * config folder.
 *
 * Fixtures the seller API cannot make (sessions, client logs, chat messages, a file to upload)
 * come from the client API and a loopback file server, as they would in real life.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SELLER_CATALOG, SELLER_GROUP_ORDER, commandsForGroup, opKey } from '../../src/api/seller-catalog/index.js';
import type { SellerGroup, SellerOp } from '../../src/api/seller-catalog/index.js';
import { startE2ESandbox } from '../helpers/e2e.js';
import type { E2ESandbox, KactlOptions } from '../helpers/e2e.js';
import type { SpawnResult } from '../helpers/run-kactl.js';

const ALIASES: Readonly<Record<string, string>> = { ls: 'list', rm: 'delete', info: 'get' };

/** The catalog entry a command line addresses: group, longest matching path, selector flag. */
function opOf(args: readonly string[]): SellerOp | undefined {
  const group = args[0] as SellerGroup;
  const paths = (() => {
    try {
      return commandsForGroup(group);
    } catch {
      return [];
    }
  })();
  const words = args.slice(1).map((w) => ALIASES[w] ?? w);
  const path = [...paths].sort((a, b) => b.command.length - a.command.length).find((p) => p.command.every((w, i) => words[i] === w));
  if (!path) return undefined;
  const flags = new Set(args.filter((a) => a.startsWith('--')).map((a) => a.slice(2)));
  return path.ops.find((op) => op.selector !== undefined && flags.has(op.selector)) ?? path.ops.find((op) => op.selector === undefined);
}

/** A server answer or list row; checked field by field. */
type Row = Record<string, unknown>;

let sb: E2ESandbox;
const ran = new Set<string>();
/** The families (see the header) some spawned run has covered. */
const spawned = new Set<string>();

/** The families a command line belongs to. */
function familiesOf(args: readonly string[], options: KactlOptions | undefined, expectedCode: number): string[] {
  const op = opOf(args);
  return [
    `group ${args[0]}`,
    ...(op ? [`effect ${op.effect}`, `answer ${op.response.kind}`] : []),
    args.includes('--json') ? 'output --json' : 'output text',
    ...(options?.input !== undefined ? ['stdin'] : []),
    `exit ${expectedCode}`,
  ];
}

/** Runs kactl, spawned or in-process (see the header); an exit 0 counts the catalog entry the command line addresses as run. */
async function kactl(args: readonly string[], options?: KactlOptions, expectedCode = 0): Promise<SpawnResult> {
  const families = familiesOf(args, options, expectedCode);
  const spawn = families.some((family) => !spawned.has(family));
  if (spawn) for (const family of families) spawned.add(family);
  const result = spawn ? await sb.kactl(args, options) : await sb.inProcess(args, options);
  const op = opOf(args);
  if (op && result.code === 0) ran.add(opKey(op));
  return result;
}

/** Must exit 0; returns the result. */
async function ok(args: readonly string[], options?: KactlOptions): Promise<SpawnResult> {
  const result = await kactl(args, options);
  expect(result.code, `kactl ${args.join(' ')}\n${result.stderr}`).toBe(0);
  return result;
}

/** Must exit 0 with --json; returns the parsed stdout. */
async function json<T = Row>(args: readonly string[], options?: KactlOptions): Promise<T> {
  return JSON.parse((await ok([...args, '--json'], options)).stdout) as T;
}

/** Must exit 1 (the server said success:false). */
async function refused(args: readonly string[]): Promise<SpawnResult> {
  const result = await kactl(args, undefined, 1);
  expect(result.code, `kactl ${args.join(' ')} should fail\n${result.stderr}`).toBe(1);
  return result;
}

const out = async (args: readonly string[]): Promise<string> => (await ok(args)).stdout.trim();

// ------------------------------------------------------------------ client API fixtures

async function client13(params: Record<string, string>): Promise<Row> {
  const url = new URL('/api/1.3/', sb.info.baseUrl);
  url.search = new URLSearchParams({ ...params, name: sb.info.app.name, ownerid: sb.info.app.ownerid }).toString();
  return (await (await fetch(url)).json()) as Row;
}

async function client12(params: Record<string, string>): Promise<Row> {
  const res = await fetch(new URL('/api/1.2/', sb.info.baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...params, name: sb.info.app.name, ownerid: sb.info.app.ownerid }).toString(),
  });
  return (await res.json()) as Row;
}

async function newSession(): Promise<string> {
  const body = await client13({ type: 'init', ver: sb.info.app.version });
  expect(body.success, JSON.stringify(body)).toBe(true);
  return String(body.sessionid);
}

// ------------------------------------------------------------------ a file server for uploads

let files: http.Server;
let filesBase: string;

beforeAll(async () => {
  sb = await startE2ESandbox();
  files = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.end(Buffer.alloc(req.url?.includes('big') ? 3000 : 1500, 7));
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesBase = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => files.close(() => resolve()));
  await sb.stop();
});

// ------------------------------------------------------------------ shared state

const day = 86_400;
let keys: string[] = [];
/** A user's `default` subscription (an empty row when there is none, so the checks say what is off). */
const subOf = async (user: string): Promise<Row> => (await json<Row[]>(['users', 'subscriptions', user])).find((s) => s.subscription === 'default') ?? {};
const userRow = async (user: string): Promise<Row> => (await json<Row[]>(['users', 'list'])).find((u) => u.username === user) ?? {};
const keyInfo = async (key: string): Promise<Row> => json(['licenses', 'get', key]);

describe('catalog walk', () => {
  it('app: the seller key, details, settings', async () => {
    expect(await json(['app', 'verify-key'])).toMatchObject({ success: true });
    const details = await json(['app', 'details']);
    expect(details.appdetails).toMatchObject({ name: sb.info.app.name, ownerid: sb.info.app.ownerid, version: sb.info.app.version, secret: sb.info.app.secret });
    const before = await json(['app', 'settings']);
    expect(String(before.version)).toBe(sb.info.app.version);
    expect(String(before['hwid-lock'])).toBe('true');
    await ok(['app', 'set', '--hwid-lock', 'false', '--msg-key-used', 'That key is taken', '--download-url', 'https://example.com/app-2.zip']);
    const after = await json(['app', 'settings']);
    expect(String(after['hwid-lock'])).toBe('false');
    expect(after.keytakenmsg).toBe('That key is taken');
    expect(after.download).toBe('https://example.com/app-2.zip');
    // The hash check is off for new apps, so the hashes themselves are not observable here.
    expect(await json(['app', 'hash', 'add', '--md5', '5d41402abc4b2a76b9719d911017c592'])).toMatchObject({ success: true });
    expect(await json(['app', 'hash', 'reset', '--yes'])).toMatchObject({ success: true });
  });

  it('subs: create, list, edit', async () => {
    await ok(['subs', 'create', '--name', 'premium', '--level', '2']);
    expect(await json(['subs', 'list'])).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'premium', level: '2' }), expect.objectContaining({ name: 'default' })]));
    await ok(['subs', 'edit', 'premium', '--level', '3']);
    expect((await json<Row[]>(['subs', 'ls'])).find((s) => s.name === 'premium')).toMatchObject({ level: '3' });
  });

  it('licenses: create, list, get, verify, notes, duration, time for unused keys', async () => {
    keys = await json<string[]>(['licenses', 'create', '--amount', '8', '--expiry', '30', '--level', '1', '--note', 'walk', '--mask', 'WALK-****-****']);
    expect(new Set(keys).size).toBe(8);
    for (const key of keys) expect(key).toMatch(/^WALK-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}$/);
    const listed = await json<Row[]>(['licenses', 'list']);
    expect(listed.map((k) => k.key).sort()).toEqual([...keys].sort());
    expect(listed.every((k) => k.note === 'walk' && k.status === 'Not Used' && String(k.level) === '1')).toBe(true);
    expect(await keyInfo(keys[0]!)).toMatchObject({ status: 'Not Used', level: '1', duration: String(30 * day) });
    await ok(['licenses', 'verify', keys[0]!]);
    await refused(['licenses', 'verify', 'NO-SUCH-KEY']);
    await ok(['licenses', 'note', keys[0]!, '--note', 'paid by transfer']);
    expect(await out(['licenses', 'get-note', keys[0]!])).toBe('paid by transfer');
    await ok(['licenses', 'edit', keys[0]!, '--seconds', '3600']);
    expect(String((await keyInfo(keys[0]!)).duration)).toBe('3600');
    const addTime = await ok(['licenses', 'add-time', '--days', '1', '--yes']);
    expect(addTime.stderr).toContain('Backup of 8 records');
    expect(String((await keyInfo(keys[1]!)).duration)).toBe(String(31 * day));
    const stats = await json(['app', 'stats']);
    expect(String(stats.totalkeys)).toBe('8');
    expect(String(stats.unused)).toBe('8');
  });

  it('licenses: ban and unban', async () => {
    await ok(['licenses', 'ban', keys[1]!, '--reason', 'chargeback']);
    expect(await keyInfo(keys[1]!)).toMatchObject({ status: 'Banned' });
    await ok(['licenses', 'unban', keys[1]!]);
    expect(await keyInfo(keys[1]!)).toMatchObject({ status: 'Not Used' });
  });

  it('users: create, list, get, subscriptions, verify', async () => {
    await ok(['users', 'create', '--username', 'alice', '--password', 'alice-pw-1', '--sub', 'default', '--expiry', '30']);
    await ok(['users', 'create', '--username', 'bob', '--password-stdin', '--sub', 'default', '--expiry', '10'], { input: 'bob-pw\n' });
    await ok(['users', 'create', '--username', 'carol', '--password', 'carol-pw', '--sub', 'default', '--expiry', '5']);
    expect((await json<Row[]>(['users', 'list'])).map((u) => u.username).sort()).toEqual(['alice', 'bob', 'carol']);
    expect((await json<Row[]>(['users', 'list', '--usernames'])).map((u) => (typeof u === 'string' ? u : u.username)).sort()).toEqual(['alice', 'bob', 'carol']);
    const data = await json(['users', 'get', 'alice']);
    expect(data.username).toBe('alice');
    expect((data.subscriptions as Row[]).map((s) => s.subscription)).toEqual(['default']);
    const sub = await subOf('alice');
    expect(Number(sub.expiry) - Date.now() / 1000).toBeGreaterThan(29 * day);
    await ok(['users', 'verify', 'alice']);
    await refused(['users', 'verify', 'nobody']);
    expect(await out(['subs', 'count', 'default'])).toBe('3');
  });

  it('users: HWIDs, ban and unban (with the blacklist), pause, cooldown, email, password', async () => {
    await ok(['users', 'add-hwid', 'alice', '--hwid', 'HW-ALICE']);
    expect((await userRow('alice')).hwid).toContain('HW-ALICE');
    await ok(['users', 'ban', 'alice', '--reason', 'sharing']);
    expect((await json(['users', 'get', 'alice'])).banned).toBe('sharing');
    expect((await json<Row[]>(['blacklists', 'list'])).some((b) => b.hwid === 'HW-ALICE')).toBe(true);
    await ok(['users', 'unban', 'alice']);
    expect((await json(['users', 'get', 'alice'])).banned ?? null).toBeNull();
    expect((await json<Row[]>(['blacklists', 'list'])).some((b) => b.hwid === 'HW-ALICE')).toBe(false);
    await ok(['users', 'reset-hwid', 'alice']);
    expect((await userRow('alice')).hwid || null).toBeNull();

    await ok(['users', 'pause', 'bob']);
    expect(String((await subOf('bob')).paused)).toBe('1');
    await ok(['users', 'unpause', 'bob']);
    expect(String((await subOf('bob')).paused)).toBe('0');

    await ok(['users', 'set-cooldown', 'alice', '--seconds', '120']);
    expect(String((await json(['users', 'get', 'alice'])).cooldown)).toBe('120');
    // Seller answers never show an email (stored hashed); a client password reset finds it.
    const session = await newSession();
    const forgot = { type: 'forgot', username: 'alice', email: 'alice@example.com', sessionid: session };
    expect((await client13(forgot)).success).toBe(false);
    await ok(['users', 'set-email', 'alice', '--email', 'alice@example.com']);
    expect((await client13(forgot)).success).toBe(true);
    expect((await sb.outbox()).some((mail) => mail.to === 'alice@example.com')).toBe(true);
    await ok(['users', 'set-password', 'carol', '--password', 'carol-pw-2']);
    const login = { type: 'login', username: 'carol', hwid: 'HW-CAROL-0000-0000-0001', sessionid: session };
    expect((await client13({ ...login, pass: 'carol-pw' })).success).toBe(false);
    expect((await client13({ ...login, pass: 'carol-pw-2' })).success).toBe(true);
  });

  it('users: time — extend and subtract for one user and for all', async () => {
    const alice0 = Number((await subOf('alice')).expiry);
    await ok(['users', 'extend', 'alice', '--sub', 'default', '--expiry', '7']);
    const alice1 = Number((await subOf('alice')).expiry);
    expect(alice1 - alice0).toBe(7 * day);
    await ok(['users', 'subtract', 'alice', '--sub', 'default', '--seconds', '3600']);
    const alice2 = Number((await subOf('alice')).expiry);
    expect(alice1 - alice2).toBe(3600);
    const bob0 = Number((await subOf('bob')).expiry);
    const all = await ok(['users', 'extend', '--all', '--sub', 'default', '--expiry', '1', '--active-only', '--yes']);
    expect(all.stderr).toContain('Backup of 3 records');
    expect(Number((await subOf('alice')).expiry) - alice2).toBe(day);
    expect(Number((await subOf('bob')).expiry) - bob0).toBe(day);
    await ok(['users', 'subtract', '--all', '--sub', 'default', '--seconds', '60', '--yes']);
    expect(Number((await subOf('alice')).expiry)).toBe(alice2 + day - 60);
    expect(Number((await subOf('bob')).expiry)).toBe(bob0 + day - 60);
  });

  it('licenses: activate, a user\'s license, assign', async () => {
    await ok(['licenses', 'activate', keys[2]!, '--username', 'walker', '--password', 'walker-pw', '--hwid', 'HW-WALK']);
    expect(await keyInfo(keys[2]!)).toMatchObject({ status: 'Used', usedby: 'walker' });
    expect((await subOf('walker')).key).toBe(keys[2]);
    expect(await out(['users', 'license', 'walker'])).toBe(keys[2]);
    const carol0 = Number((await subOf('carol')).expiry);
    await ok(['licenses', 'assign', keys[3]!, '--username', 'carol']);
    expect(await keyInfo(keys[3]!)).toMatchObject({ status: 'Used', usedby: 'carol' });
    expect(Number((await subOf('carol')).expiry)).toBeGreaterThan(carol0);
  });

  it('pausing the app and a subscription freezes user subscriptions', async () => {
    await ok(['subs', 'pause', 'default']);
    expect(String((await subOf('alice')).paused)).toBe('1');
    await ok(['subs', 'unpause', 'default']);
    expect(String((await subOf('alice')).paused)).toBe('0');
    await ok(['app', 'pause']);
    expect(String((await subOf('bob')).paused)).toBe('1');
    await ok(['app', 'unpause']);
    expect(String((await subOf('bob')).paused)).toBe('0');
  });

  it('uservars: set, get, list, set for all, delete, delete for all', async () => {
    await ok(['uservars', 'set', 'alice', '--name', 'discord', '--data', 'alice#0001', '--read-only']);
    expect(await out(['uservars', 'get', 'alice', '--name', 'discord'])).toBe('alice#0001');
    expect(await json(['uservars', 'list'])).toEqual([expect.objectContaining({ user: 'alice', name: 'discord', data: 'alice#0001' })]);
    await ok(['uservars', 'set', '--all', '--name', 'tier', '--data', 'gold', '--yes']);
    const tiers = (await json<Row[]>(['uservars', 'list'])).filter((v) => v.name === 'tier');
    expect(tiers.map((v) => v.user).sort()).toEqual(['alice', 'bob', 'carol', 'walker']);
    expect(tiers.every((v) => v.data === 'gold')).toBe(true);
    await ok(['uservars', 'delete', 'alice', '--name', 'discord', '--yes']);
    await refused(['uservars', 'get', 'alice', '--name', 'discord']);
    await ok(['uservars', 'delete', '--all', '--name', 'tier', '--yes']);
    expect(await json(['uservars', 'list'])).toEqual([]);
  });

  it('vars: create, get, list, edit, delete, delete all', async () => {
    await ok(['vars', 'create', '--name', 'motd', '--data', 'Welcome back', '--require-login']);
    expect(await out(['vars', 'get', 'motd'])).toBe('Welcome back');
    expect(await json(['vars', 'list'])).toEqual([expect.objectContaining({ varid: 'motd', msg: 'Welcome back' })]);
    await ok(['vars', 'edit', 'motd', '--data', 'Maintenance tonight']);
    expect(await out(['vars', 'info', 'motd'])).toBe('Maintenance tonight');
    await ok(['vars', 'delete', 'motd', '--yes']);
    expect(await json(['vars', 'list'])).toEqual([]);
    await ok(['vars', 'create', '--name', 'a', '--data', '1']);
    await ok(['vars', 'create', '--name', 'b', '--data', '2']);
    await ok(['vars', 'delete', '--all', '--yes']);
    expect(await json(['vars', 'list'])).toEqual([]);
  });

  let loggedIn = '';
  let spare = '';
  it('sessions: list and kill one', async () => {
    loggedIn = await newSession();
    expect((await client13({ type: 'login', username: 'alice', pass: 'alice-pw-1', hwid: 'HW-ALICE-0000-0000-0002', sessionid: loggedIn })).success).toBe(true);
    spare = await newSession();
    const ids = (await json<Row[]>(['sessions', 'list'])).map((s) => s.id);
    expect(ids).toEqual(expect.arrayContaining([loggedIn, spare]));
    await ok(['sessions', 'kill', spare, '--yes']);
    const after = (await json<Row[]>(['sessions', 'list'])).map((s) => s.id);
    expect(after).toContain(loggedIn);
    expect(after).not.toContain(spare);
  });

  it('logs: list what a client logged, delete all', async () => {
    expect((await client13({ type: 'log', pcuser: 'walk-pc', message: 'hello from the walk', sessionid: loggedIn })).success).toBe(true);
    expect(await json(['logs', 'list'])).toEqual([expect.objectContaining({ logdata: 'hello from the walk', pcuser: 'walk-pc' })]);
    await ok(['logs', 'delete', '--all', '--yes']);
    expect(await json(['logs', 'list'])).toEqual([]);
  });

  it('chats: channels, mutes, clearing messages', async () => {
    await ok(['chats', 'create', '--name', 'general', '--delay-seconds', '5']);
    expect(await json(['chats', 'list'])).toEqual([expect.objectContaining({ name: 'general', delay: '5' })]);
    await ok(['chats', 'edit', 'general', '--delay-minutes', '0.5']);
    expect(String((await json<Row[]>(['chats', 'list']))[0]?.delay)).toBe('30');
    expect((await client12({ type: 'chatsend', message: 'first words', channel: 'general', sessionid: loggedIn })).success).toBe(true);
    expect(JSON.stringify(await client12({ type: 'chatget', channel: 'general', sessionid: loggedIn }))).toContain('first words');
    const cleared = await ok(['chats', 'clear', 'general', '--yes']);
    expect(cleared.stderr).toContain('No seller operation lists chat messages');
    expect(JSON.stringify(await client12({ type: 'chatget', channel: 'general', sessionid: loggedIn }))).not.toContain('first words');
    await ok(['chats', 'mute', 'alice', '--seconds', '3600']);
    const mute = (await json<Row[]>(['chats', 'mutes'])).find((m) => m.user === 'alice');
    expect(Number(mute?.time) - Date.now() / 1000).toBeGreaterThan(3000);
    await ok(['chats', 'unmute', 'alice']);
    expect(await json(['chats', 'mutes'])).toEqual([]);
    await ok(['chats', 'delete', 'general', '--yes']);
    expect(await json(['chats', 'list'])).toEqual([]);
  });

  it('sessions: kill all', async () => {
    await ok(['sessions', 'kill', '--all', '--yes']);
    expect(await json(['sessions', 'list'])).toEqual([]);
  });

  it('files: upload, get, list, edit, delete, delete all', async () => {
    const id = await out(['files', 'upload', '--url', `${filesBase}/dist/app.zip`]);
    expect(id).toMatch(/^\d{6}$/);
    expect(await json(['files', 'list'])).toEqual([expect.objectContaining({ id, url: `${filesBase}/dist/app.zip` })]);
    expect((await json(['files', 'get', id])).file).toMatchObject({ id, name: 'app.zip' });
    await ok(['files', 'edit', id, '--url', `${filesBase}/dist/big.zip`, '--require-login']);
    expect((await json(['files', 'get', id])).file).toMatchObject({ name: 'big.zip', url: `${filesBase}/dist/big.zip`, authed: expect.stringMatching(/^(1|true)$/) });
    await ok(['files', 'delete', id, '--yes']);
    expect(await json(['files', 'list'])).toEqual([]);
    await out(['files', 'upload', '--url', `${filesBase}/one.bin`]);
    await out(['files', 'upload', '--url', `${filesBase}/two.bin`]);
    expect(await json(['files', 'list'])).toHaveLength(2);
    await ok(['files', 'delete', '--all', '--yes']);
    expect(await json(['files', 'list'])).toEqual([]);
  });

  it('webhooks: create, list, delete, delete all', async () => {
    await ok(['webhooks', 'create', '--url', 'https://api.example.com/grant/licence', '--user-agent', 'kactl-walk', '--id', 'grant']);
    expect(await json(['webhooks', 'list'])).toEqual([expect.objectContaining({ webid: 'grant', short_baselink: 'https://api.example.c', useragent: 'kactl-walk' })]);
    await ok(['webhooks', 'delete', 'grant', '--yes']);
    expect(await json(['webhooks', 'list'])).toEqual([]);
    await ok(['webhooks', 'create', '--url', 'https://api.example.com/one']);
    await ok(['webhooks', 'create', '--url', 'https://api.example.com/two', '--require-login']);
    expect(await json(['webhooks', 'list'])).toHaveLength(2);
    await ok(['webhooks', 'delete', '--all', '--yes']);
    expect(await json(['webhooks', 'list'])).toEqual([]);
  });

  it('blacklists: create, delete one, delete all', async () => {
    await ok(['blacklists', 'create', '--ip', '203.0.113.7', '--hwid', 'HW-BAD']);
    const rows = await json<Row[]>(['blacklists', 'list']);
    expect(rows).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'ip', ip: '203.0.113.7' }), expect.objectContaining({ type: 'hwid', hwid: 'HW-BAD' })]));
    await ok(['blacklists', 'delete', '203.0.113.7', '--type', 'ip', '--yes']);
    expect((await json<Row[]>(['blacklists', 'list'])).some((b) => b.ip === '203.0.113.7')).toBe(false);
    await ok(['blacklists', 'delete', '--all', '--yes']);
    expect(await json(['blacklists', 'list'])).toEqual([]);
  });

  it('whitelists: add, delete one, delete all (no list exists: a second delete shows the effect)', async () => {
    await ok(['whitelists', 'create', '--ip', '198.51.100.20']);
    await ok(['whitelists', 'delete', '198.51.100.20', '--yes']);
    await refused(['whitelists', 'delete', '198.51.100.20', '--yes']);
    await ok(['whitelists', 'create', '--ip', '198.51.100.21']);
    const all = await ok(['whitelists', 'delete', '--all', '--yes']);
    expect(all.stderr).toContain('No seller operation lists whitelisted IPs');
    await refused(['whitelists', 'delete', '198.51.100.21', '--yes']);
  });

  it('loader: create, list, delete, delete all', async () => {
    await ok(['loader', 'create', '--text', 'Launch game', '--value', 'launch']);
    expect(await json(['loader', 'list'])).toEqual([{ text: 'Launch game', value: 'launch' }]);
    await ok(['loader', 'delete', 'launch', '--yes']);
    expect(await json(['loader', 'list'])).toEqual([]);
    await ok(['loader', 'create', '--text', 'One', '--value', 'one']);
    await ok(['loader', 'create', '--text', 'Two', '--value', 'two']);
    await ok(['loader', 'delete', '--all', '--yes']);
    expect(await json(['loader', 'list'])).toEqual([]);
  });

  it('team: resellers and managers, balance, delete', async () => {
    await ok(['team', 'create', '--role', 'Reseller', '--username', 'shop1', '--password', 'shop-pw', '--email', 'shop1@example.com', '--key-levels', '1|2']);
    await ok(['team', 'create', '--role', 'Manager', '--username', 'boss1', '--password-stdin', '--email', 'boss1@example.com', '--permissions', '3'], { input: 'boss-pw' });
    expect((await json<Row[]>(['team', 'list'])).map((r) => r.username)).toEqual(['shop1']);
    expect((await json<Row[]>(['team', 'list', '--managers'])).map((m) => m.username)).toEqual(['boss1']);
    await ok(['team', 'add-balance', 'shop1', '--month-keys', '20', '--lifetime-keys', '2']);
    const balance = (await json(['team', 'balance', 'shop1'])).balance as Row;
    expect(Number(balance.month)).toBe(20);
    expect(Number(balance.lifetime)).toBe(2);
    await ok(['team', 'delete', 'shop1', '--yes']);
    expect(await json(['team', 'list'])).toEqual([]);
  });

  it('users: delete a subscription, rename, delete one, delete expired', async () => {
    await ok(['users', 'delete-sub', 'bob', '--sub', 'default', '--yes']);
    expect(await json(['users', 'subscriptions', 'bob'])).toEqual([]);
    await ok(['users', 'rename', 'carol', '--new-username', 'carol2']);
    const names = (await json<Row[]>(['users', 'list'])).map((u) => u.username);
    expect(names).toContain('carol2');
    expect(names).not.toContain('carol');
    await ok(['users', 'delete', 'carol2', '--yes']);
    await refused(['users', 'verify', 'carol2']);
    // bob now has no subscription at all, so he counts as expired; alice and walker do not.
    await ok(['users', 'delete', '--expired', '--yes']);
    expect((await json<Row[]>(['users', 'list'])).map((u) => u.username).sort()).toEqual(['alice', 'walker']);
  });

  it('licenses: delete one, several, used, unused, all', async () => {
    await ok(['licenses', 'delete', keys[4]!, '--yes']);
    await refused(['licenses', 'verify', keys[4]!]);
    await ok(['licenses', 'delete-many', '--keys', `${keys[5]!},${keys[6]!}`, '--yes']);
    await refused(['licenses', 'verify', keys[5]!]);
    await refused(['licenses', 'verify', keys[6]!]);
    await ok(['licenses', 'delete', '--used', '--yes']);
    const left = await json<Row[]>(['licenses', 'list']);
    // Left: keys 0, 1 and 7, never used (2 and 3 were redeemed, 4 to 6 deleted).
    expect(left.map((k) => k.key).sort()).toEqual([keys[0], keys[1], keys[7]].sort());
    expect(left.every((k) => k.status === 'Not Used')).toBe(true);
    await ok(['licenses', 'delete', '--unused', '--yes']);
    expect(await json(['licenses', 'list'])).toEqual([]);
    const more = await json<string[]>(['licenses', 'create', '--amount', '3', '--expiry', '1']);
    expect(more).toHaveLength(3);
    await ok(['licenses', 'delete', '--all', '--yes']);
    expect(await json(['licenses', 'list'])).toEqual([]);
  });

  it('users: reset every HWID, delete all; subs: delete', async () => {
    expect((await userRow('walker')).hwid).toContain('HW-WALK');
    await ok(['users', 'reset-hwid', '--all', '--yes']);
    expect((await userRow('walker')).hwid || null).toBeNull();
    await ok(['users', 'delete', '--all', '--yes']);
    expect(await json(['users', 'list'])).toEqual([]);
    await ok(['subs', 'delete', 'premium', '--yes']);
    expect((await json<Row[]>(['subs', 'list'])).map((s) => s.name)).toEqual(['default']);
  });

  it('ran every catalog entry through its command', () => {
    const missing = SELLER_CATALOG.map((op) => opKey(op)).filter((key) => !ran.has(key));
    expect(missing).toEqual([]);
    expect(ran.size).toBe(SELLER_CATALOG.length);
  });

  it('spawned the real binary for every group, effect and answer kind of the catalog, stdin and a refusal', () => {
    const families = [
      ...SELLER_GROUP_ORDER.map((group) => `group ${group}`),
      ...new Set(SELLER_CATALOG.flatMap((op) => [`effect ${op.effect}`, `answer ${op.response.kind}`])),
      'output --json',
      'output text',
      'stdin',
      'exit 0',
      'exit 1',
    ];
    expect(families.filter((family) => !spawned.has(family))).toEqual([]);
  });
});
