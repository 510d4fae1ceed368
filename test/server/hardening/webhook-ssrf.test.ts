/**
 * Issue 9 item 1: a client's webhook `params` cannot move the call off the seller's base link
 * (another host through userinfo, or out of the base path through dot segments).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox } from '../../helpers/sandbox.js';
import { createWebhook } from '../../../src/server/domain/webhooks.js';
import { registerUser } from '../support/client-fixtures.js';

const OUTSIDE = "Webhook params must stay under the webhook's base link.";
const servers: http.Server[] = [];
let seller = '';
let victim = '';
const victimHits: string[] = [];

async function listen(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  seller = await listen((req, res) => res.end(`seller saw ${req.url}`));
  victim = await listen((req, res) => {
    victimHits.push(req.url ?? '');
    res.end('internal secret');
  });
});
afterAll(() => Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))));

describe('webhook params stay under the base link', () => {
  it.each([
    ['userinfo trick on a base link with no path', '', `@${'VICTIM'}/pwned`],
    ['/../ out of the base path', '/api/hooks/', '../../admin'],
    ['encoded slashes out of the base path', '/api/hooks/', '..%2f..%2fadmin'],
    ['double-encoded slashes', '/api/hooks/', '..%252f..%252fadmin'],
    ['backslashes', '/api/hooks/', '..\\..\\admin'],
  ])('refuses %s', async (_label, basePath, params) => {
    const sb = await startTestSandbox();
    const hook = createWebhook(sb.store, sb.app().id, { baselink: `http://${seller}${basePath}`, useragent: 'KeyAuth' })!;
    const { sid } = await registerUser(sb);
    const hits = victimHits.length;
    const res = await sb.client('webhook', { sessionid: sid, webid: hook.webid, params: params.replace('VICTIM', victim) });
    expect(res.json).toMatchObject({ success: false, message: OUTSIDE });
    expect(res.text).not.toContain('internal secret');
    expect(res.text).not.toContain('seller saw /admin');
    expect(sb.verify13(res)).toBe(true);
    expect(victimHits.length).toBe(hits);
  });

  it('still sends params that stay under the base path or in the query', async () => {
    const sb = await startTestSandbox();
    const hook = createWebhook(sb.store, sb.app().id, { baselink: `http://${seller}/api/hooks/`, useragent: 'KeyAuth' })!;
    const { sid } = await registerUser(sb);
    const res = await sb.client('webhook', { sessionid: sid, webid: hook.webid, params: 'ban.php?user=a/../b' });
    expect(res.json).toMatchObject({ success: true, response: 'seller saw /api/hooks/ban.php?user=a/../b' });
  });
});
