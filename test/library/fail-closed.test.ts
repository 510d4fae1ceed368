/**
 * Issue 29 item 4: kactl/client checks nothing without a key, and said nothing. A program that
 * passes `publicKey: process.env.KEYAUTH_PUBLIC_KEY` (docs/library.md's own example) with the
 * variable unset took a forged, unsigned "level 99, lifetime" login from a fake server; so did
 * `api: '1.2'` without `secret`. Now a missing key is a UsageError at createClient, naming
 * `verify: false` as the one explicit way to take answers unchecked; a call that goes to a
 * version without its key (chat on 1.2 without the secret) is refused before anything is sent.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client.js';
import { UsageError } from '../../src/index.js';

/** A fake server: every answer an unsigned success, the login a level-99 lifetime subscription. */
let fake: http.Server;
let baseUrl: string;
const received: string[] = [];

beforeAll(async () => {
  fake = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const type = new URLSearchParams(body || (req.url ?? '').split('?')[1] || '').get('type') ?? '';
      received.push(type);
      const answer =
        type === 'init'
          ? { success: true, message: 'Initialized', sessionid: 'forged0001' }
          : { success: true, message: 'Logged in!', info: { username: 'victim', subscriptions: [{ subscription: 'lifetime', level: '99', expiry: '4102444800', timeleft: 99999999 }] } };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => fake.close(() => resolve())));

const APP = { appName: 'app', ownerid: 'abcdefghij', appVersion: '1.0' } as const;

function thrown(make: () => unknown): unknown {
  try {
    make();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('kactl/client without a key', () => {
  it('createClient refuses a public key read from an unset variable, naming verify: false', () => {
    const error = thrown(() => createClient({ baseUrl, ...APP, publicKey: process.env['KACTL_TEST_SURELY_UNSET_KEY'] }));
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toMatchObject({ code: 'USAGE' });
    expect((error as Error).message).toMatch(/^No publicKey to check the server's 1\.3 answers with: pass publicKey .*, or verify: false to accept answers nobody checked\.$/);
    expect(thrown(() => createClient({ baseUrl, ...APP, publicKey: '' }))).toBeInstanceOf(UsageError);
  });

  it('createClient refuses api 1.2 without the secret', () => {
    const error = thrown(() => createClient({ baseUrl, ...APP, api: '1.2' }));
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(/^No secret to check the server's 1\.2 answers with: pass secret .*verify: false/);
  });

  it('a 1.3 client without the secret sends no 1.2 call (chat), refusing it before anything leaves', async () => {
    const session = { id: 'session01', enckey: 'enckey0000000001', createdAt: Date.now(), api: '1.3' };
    const client = createClient({ baseUrl, ...APP, publicKey: 'ab'.repeat(32), session: { load: () => session, save: () => undefined } });
    const before = received.length;
    await expect(client.call('chatget', { channel: 'general' })).rejects.toBeInstanceOf(UsageError);
    expect(received.length).toBe(before);
    await client.close();
  });

  it('verify: false is the explicit way: the forged login is then taken, with a warning', async () => {
    const warnings: string[] = [];
    const client = createClient({ baseUrl, ...APP, verify: false, logger: { info: () => undefined, warn: (line: string) => void warnings.push(line) } });
    await client.init();
    const login = await client.login({ username: 'victim', pass: 'x' });
    expect(login.info.subscriptions[0]?.level).toBe('99');
    expect(warnings).toEqual(["Not checking the server's answer signatures (verify: false)."]);
    await client.close();
  });
});
