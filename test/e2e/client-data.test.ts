/**
 * What a logged-in client does with its session, end to end: user variables, chat, a webhook to
 * a loopback server (the sandbox really calls it), a file download through the sandbox, a
 * global variable, a log line, and logout.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2ESandbox, type E2ESandbox } from '../helpers/e2e.js';
import { linkTrap, otherUser, otherUserSkip } from '../helpers/other-user.js';
import { tempDir } from '../helpers/temp-dir.js';

const HWID = 'e2e-data-hwid-0000-0000-0001';
const FILE_BYTES = Buffer.from([0x00, 0x4b, 0x41, 0x0a, 0xff, 0x10, 0x7f]);
/** Many spawned kactl runs per test: room for a loaded two-core machine. */
const SLOW = 60_000;
let sb: E2ESandbox;
let remote: http.Server;
let remoteUrl: string;
const received: { method: string; url: string; body: string; contentType: string | undefined; userAgent: string | undefined }[] = [];

beforeAll(async () => {
  remote = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/files/app.bin') return res.end(FILE_BYTES);
      received.push({ method: req.method ?? '', url: req.url ?? '', body: Buffer.concat(chunks).toString(), contentType: req.headers['content-type'], userAgent: req.headers['user-agent'] });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ granted: true, url: req.url }));
    });
  });
  await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
  remoteUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;

  sb = await startE2ESandbox();
  await sb.ok(['profile', 'add', 'sandbox', '--hwid', HWID]);
  const [key] = (await sb.ok(['licenses', 'create', '--expiry', '30'])).stdout.split('\n').filter(Boolean);
  await sb.ok(['client', 'init']);
  await sb.ok(['client', 'register', '--username', 'dave', '--key', key!, '--password-stdin'], { input: 'pw-e2e-123456' });
}, SLOW);

afterAll(async () => {
  await new Promise((resolve) => remote.close(resolve));
});

describe('client data flows (e2e)', () => {
  it('sets and reads a user variable', async () => {
    await sb.ok(['client', 'var', 'set', 'theme', 'dark mode']);
    expect((await sb.ok(['client', 'var', 'get', 'theme'])).stdout).toBe('dark mode\n');
    const missing = await sb.kactl(['client', 'var', 'get', 'nope']);
    expect(missing.code).toBe(1);
  }, SLOW);

  it('sends and reads chat messages', async () => {
    await sb.ok(['chats', 'create', '--name', 'general', '--delay-seconds', '0']);
    await sb.ok(['client', 'chat', 'send', 'general', 'first message']);
    await sb.ok(['client', 'chat', 'send', 'general', 'second message']);
    const messages = JSON.parse((await sb.ok(['client', 'chat', 'read', 'general', '--json'])).stdout) as { author: string; message: string }[];
    expect(messages.map((m) => `${m.author}: ${m.message}`)).toEqual(['dave: first message', 'dave: second message']);
    const piped = await sb.ok(['client', 'chat', 'read', 'general']);
    expect(piped.stdout).toMatch(/^\d{4}-\d\d-\d\dT[\d:]+Z\tdave\tfirst message$/m);
    const unknown = await sb.kactl(['client', 'chat', 'send', 'nowhere', 'hello']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Chat channel not found');
  }, SLOW);

  it('calls a webhook: the sandbox makes the request to the loopback server and the answer is printed', async () => {
    await sb.ok(['webhooks', 'create', '--url', `${remoteUrl}/hook?app=1`, '--id', 'grant', '--user-agent', 'kactl-e2e']);
    const get = await sb.ok(['client', 'webhook', 'grant', '--params', '&user=dave']);
    expect(JSON.parse(get.stdout)).toEqual({ granted: true, url: '/hook?app=1&user=dave' });
    expect(received.at(-1)).toMatchObject({ method: 'GET', url: '/hook?app=1&user=dave', userAgent: 'kactl-e2e' });

    const post = await sb.ok(['client', 'webhook', 'grant', '--body', '{"event":"start"}', '--content-type', 'application/json']);
    expect(JSON.parse(post.stdout).granted).toBe(true);
    expect(received.at(-1)).toMatchObject({ method: 'POST', body: '{"event":"start"}', contentType: 'application/json' });
  }, SLOW);

  it('downloads a file through the sandbox, byte for byte', async () => {
    const id = (await sb.ok(['files', 'upload', '--url', `${remoteUrl}/files/app.bin`])).stdout.trim();
    expect(id).toMatch(/^\d{6}$/);
    const target = path.join(tempDir(), 'app.bin');
    const saved = await sb.ok(['client', 'file', 'download', id, '--out', target]);
    expect(saved.stderr).toContain(`Saved ${FILE_BYTES.length} bytes`);
    expect(fs.readFileSync(target)).toEqual(FILE_BYTES);
    expect((await sb.kactl(['client', 'file', 'download', id, '--out', target])).code).toBe(2);
    const missing = await sb.kactl(['client', 'file', 'download', '000000']);
    expect(missing.code).toBe(1);
  }, SLOW);

  const skip = otherUserSkip();
  it.skipIf(skip !== undefined)(`--out --force replaces a symbolic link another user planted there, never writes through it${skip ? ` (skipped: ${skip})` : ''}`, async () => {
    const id = (await sb.ok(['files', 'upload', '--url', `${remoteUrl}/files/app.bin`])).stdout.trim();
    const { precious, shared } = linkTrap(otherUser(), ['app.bin']);
    const target = path.join(shared, 'app.bin');
    expect((await sb.kactl(['client', 'file', 'download', id, '--out', target])).code).toBe(2);
    await sb.ok(['client', 'file', 'download', id, '--out', target, '--force']);
    expect(fs.readFileSync(precious, 'utf8')).toBe("root's own data");
    expect(fs.lstatSync(target).isFile()).toBe(true);
    expect(fs.readFileSync(target)).toEqual(FILE_BYTES);
    expect(fs.readdirSync(shared)).toEqual(['app.bin']);
  }, SLOW);

  it('reads a global variable, sends a log line, and logs out', async () => {
    await sb.ok(['vars', 'create', '--name', 'motd', '--data', 'Welcome back']);
    expect((await sb.ok(['client', 'global-var', 'get', 'motd'])).stdout).toBe('Welcome back\n');
    await sb.ok(['client', 'log', 'e2e reached the end', '--pcuser', 'tester']);
    const logs = JSON.parse((await sb.ok(['logs', 'list', '--json'])).stdout);
    expect(JSON.stringify(logs)).toContain('e2e reached the end');

    const out = await sb.ok(['client', 'logout']);
    expect(out.stderr).toContain('Successfully logged out.');
    expect((await sb.kactl(['client', 'whoami'])).code).toBe(3);
    expect((await sb.kactl(['client', 'var', 'get', 'theme'])).code).toBe(3);
    expect((await sb.ok(['client', 'logout'])).stderr).toContain('No client session');
  }, SLOW);
});
