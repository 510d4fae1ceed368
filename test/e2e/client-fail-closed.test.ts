/**
 * Issue 29 items 4 and 10, with the real CLI against a fake server that signs nothing and grants
 * a "level 99, lifetime" login to anyone.
 *
 * 4: a profile without `--public-key` (and not the hosted service, whose key is the default)
 * used to take those answers and exit 0. Now kactl refuses, before sending anything, with one
 * sentence naming `--no-verify`; `--no-verify`, or a profile saved with `--signatures skip`, is
 * the explicit way to take unchecked answers (each run warns). A 1.2 call without the app secret
 * is refused the same way.
 *
 * 10: a 1.3 call carrying a password, key or code goes as a POST form body; the profile's
 * `--method get` still sends everything as GET.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKactl, type SpawnResult } from '../helpers/run-kactl.js';
import { tempDir } from '../helpers/temp-dir.js';

const SLOW = 120_000;

interface Received {
  method: string;
  url: string;
  type: string;
  body: string;
}

let fake: http.Server;
let baseUrl: string;
const received: Received[] = [];

beforeAll(async () => {
  fake = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const fields = new URLSearchParams(body !== '' ? body : (req.url ?? '').split('?')[1] ?? '');
      const type = fields.get('type') ?? '';
      received.push({ method: req.method ?? '', url: req.url ?? '', type, body });
      const answer =
        type === 'init'
          ? { success: true, message: 'Initialized', sessionid: 'forged0001', newSession: true }
          : type === 'login'
            ? { success: true, message: 'Logged in!', info: { username: 'anyone', ip: '1.2.3.4', hwid: null, createdate: '1700000000', lastlogin: '1700000000', subscriptions: [{ subscription: 'lifetime', key: null, expiry: '4102444800', timeleft: 99_999_999, level: '99' }] } }
            : { success: true, message: 'ok', messages: [] };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => fake.close(() => resolve())));

async function withProfile(extra: readonly string[] = []): Promise<{ kactl: (args: readonly string[], input?: string) => Promise<SpawnResult> }> {
  const configDir = tempDir('kactl-fail-closed-');
  const kactl = (args: readonly string[], input?: string): Promise<SpawnResult> => runKactl(args, { configDir, ...(input === undefined ? {} : { input }) });
  const added = await kactl(['profile', 'add', 'fake', '--base-url', baseUrl, '--app-name', 'app', '--ownerid', 'abcdefghij', '--force', ...extra]);
  expect(added.code, added.stderr).toBe(0);
  return { kactl };
}

describe('a profile without a key', () => {
  it('sends nothing and exits 2 with one sentence naming --no-verify; --no-verify takes the answers, warning', async () => {
    const { kactl } = await withProfile();
    const before = received.length;
    const init = await kactl(['client', 'init']);
    expect(init.code).toBe(2);
    expect(init.stderr.split('\n')[0]).toBe(
      "error: kactl has no public key to check the server's 1.3 answers with, so it sent nothing: give one with --public-key or KACTL_PUBLIC_KEY, or pass --no-verify to accept unchecked answers.",
    );
    expect(init.stderr).toContain('kactl profile add fake --public-key HEX');
    expect(init.stderr).toContain('kactl profile add fake --signatures skip');
    expect(init.stdout).toBe('');
    expect(received.length).toBe(before);

    const unchecked = await kactl(['client', 'init', '--no-verify']);
    expect(unchecked.code, unchecked.stderr).toBe(0);
    expect(unchecked.stderr).toContain("Not checking the server's answer signatures (--no-verify).");
    const login = await kactl(['client', 'login', '--username', 'anyone', '--password-stdin', '--json', '--no-verify'], 'whatever');
    expect(login.code, login.stderr).toBe(0);
    expect(JSON.parse(login.stdout)).toMatchObject({ info: { subscriptions: [{ subscription: 'lifetime', level: '99' }] } });
    // Without the flag the same profile refuses again.
    expect((await kactl(['client', 'check'])).code).toBe(2);
  }, SLOW);

  it('a profile saved with --signatures skip takes unchecked answers, and says so each run', async () => {
    const { kactl } = await withProfile(['--signatures', 'skip']);
    const init = await kactl(['client', 'init']);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stderr).toContain("Not checking the server's answer signatures (profile fake says --signatures skip).");
    const shown = await kactl(['profile', 'show', 'fake']);
    expect(shown.stdout).toMatch(/signatures\s+skip/);
  }, SLOW);

  it('a 1.2 call without the app secret is refused the same way, naming KACTL_APP_SECRET', async () => {
    const { kactl } = await withProfile(['--public-key', 'ab'.repeat(32)]);
    expect((await kactl(['client', 'init', '--no-verify'])).code).toBe(0);
    const before = received.length;
    const chat = await kactl(['client', 'chat', 'read', 'general']);
    expect(chat.code).toBe(2);
    expect(chat.stderr.split('\n')[0]).toBe(
      "error: kactl has no app secret to check the server's 1.2 answers with (chatget goes to API 1.2), so it sent nothing: give it with KACTL_APP_SECRET, or pass --no-verify to accept unchecked answers.",
    );
    expect(received.length).toBe(before);
  }, SLOW);
});

describe('credentials in 1.3 calls', () => {
  it('a login goes as a POST form (the password in no URL); --method get keeps GET', async () => {
    const { kactl } = await withProfile(['--signatures', 'skip']);
    expect((await kactl(['client', 'init'])).code).toBe(0);
    const init = received.at(-1)!;
    expect(init).toMatchObject({ method: 'GET', type: 'init' });
    const login = await kactl(['client', 'login', '--username', 'anyone', '--password-stdin'], 'secret-pass-1');
    expect(login.code, login.stderr).toBe(0);
    const sent = received.at(-1)!;
    expect(sent).toMatchObject({ method: 'POST', url: '/api/1.3/', type: 'login' });
    expect(sent.body).toContain('pass=secret-pass-1');

    const asGet = await withProfile(['--signatures', 'skip', '--method', 'get']);
    expect((await asGet.kactl(['client', 'init'])).code).toBe(0);
    expect((await asGet.kactl(['client', 'login', '--username', 'anyone', '--password-stdin'], 'secret-pass-2')).code).toBe(0);
    expect(received.at(-1)).toMatchObject({ method: 'GET', type: 'login' });
    expect(received.at(-1)!.url).toContain('pass=secret-pass-2');
  }, SLOW);
});
