/**
 * Seller API, files (§3.4) and webhooks (§3.11), over real HTTP. `upload` / `editfile` really
 * download the URL, here from a file server on loopback (which the sandbox allows and the real
 * service refuses).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFile } from '../../src/server/domain/files.js';
import { findWebhook } from '../../src/server/domain/webhooks.js';
import { expectEmptyList, expectFail, expectOk, sellerOk, startSellerSandbox, type TestSandbox } from './support/seller-helpers.js';

const MB = 1024 * 1024;
const AUTHED = "Authed paramater must be 1 if you want to require login first, or 0 if you don't want to.";

let files: http.Server;
let base = '';

/** A file server: /app-1.2.zip (1536 bytes), /v2/app-2.0.zip (3 MB), redirects, 404, and files too large to keep. */
beforeAll(async () => {
  files = http.createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/app-1.2.zip') {
      res.end(Buffer.alloc(1536, 1));
    } else if (path === '/v2/app-2.0.zip') {
      res.end(Buffer.alloc(3 * MB, 2));
    } else if (path === '/latest') {
      res.writeHead(302, { location: '/app-1.2.zip' }).end();
    } else if (path === '/declared-huge.bin') {
      // Says 76 MB up front and sends nothing: the sandbox must refuse on the header alone.
      res.writeHead(200, { 'content-length': String(76 * MB) });
      res.flushHeaders();
    } else if (path === '/streamed-huge.bin') {
      // No length given: the sandbox has to count while it reads, and stop.
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(MB, 3);
      let sent = 0;
      const pump = (): void => {
        while (sent < 80 && !res.destroyed) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    } else {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});

afterAll(async () => {
  files.closeAllConnections();
  await new Promise<void>((resolve) => files.close(() => resolve()));
});

async function upload(sb: TestSandbox, url: string): Promise<string> {
  const body = await sellerOk(sb, 'upload', { url });
  return body['id'] as string;
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('upload', () => {
  it('downloads the URL once to measure it and stores a 6-digit id', async () => {
    const sb = await startSellerSandbox();
    const res = await sb.seller('upload', { url: `${base}/app-1.2.zip` });
    const body = expectOk(res);
    const id = body['id'] as string;
    expect(id).toMatch(/^\d{6}$/);
    expect(body['message']).toBe(`File ID ${id} Uploaded Successfully`);
    expect(findFile(sb.store, sb.app().id, id)).toMatchObject({ name: 'app-1.2.zip', size: '1.5 KB', url: `${base}/app-1.2.zip`, authed: 1 });
  });

  it('answers format=text with the sentence', async () => {
    const sb = await startSellerSandbox();
    const res = await sb.seller('upload', { url: `${base}/app-1.2.zip`, format: 'text' });
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/^File ID \d{6} Uploaded Successfully$/);
  });

  it('follows redirects', async () => {
    const sb = await startSellerSandbox();
    const id = await upload(sb, `${base}/latest`);
    expect(findFile(sb.store, sb.app().id, id)).toMatchObject({ name: 'latest', size: '1.5 KB' });
  });

  it('refuses invalid, local-file and Discord URLs before fetching', async () => {
    const sb = await startSellerSandbox();
    expectFail(await sb.seller('upload'), 'URL is invalid');
    expectFail(await sb.seller('upload', { url: 'not a url' }), 'URL is invalid');
    expectFail(await sb.seller('upload', { url: 'ftp://files.example.com/a.zip' }), 'URL is invalid');
    expectFail(await sb.seller('upload', { url: 'file:///etc/passwd' }), "URL can't be a local path! Must be a remote URL accessible by the open internet");
    expectFail(await sb.seller('upload', { url: 'https://cdn.discordapp.com/attachments/1/2/a.zip' }), "Discord's developers made files expire after 24 hours, use catbox.moe or pages.dev instead!");
  });

  it('reports the HTTP status of a failed download, 0 when nothing answers', async () => {
    const sb = await startSellerSandbox();
    expectFail(await sb.seller('upload', { url: `${base}/missing.zip` }), 'Failed to fetch file. HTTP Status: 404');
    expectFail(await sb.seller('upload', { url: `http://127.0.0.1:${await closedPort()}/a.zip` }), 'Failed to fetch file. HTTP Status: 0');
  });

  it('refuses files over 75 MB, whether the size is declared or only counted', async () => {
    const sb = await startSellerSandbox();
    expectFail(await sb.seller('upload', { url: `${base}/declared-huge.bin` }), 'File size limit is 75 MB.');
    expectFail(await sb.seller('upload', { url: `${base}/streamed-huge.bin` }), 'File size limit is 75 MB.');
    expectEmptyList(await sb.seller('fetchallfiles'), 'No files Found');
  });
});

describe('editfile / fetchfile / fetchallfiles / delete', () => {
  it('editfile points a file at a new URL, measures it again and sets the login rule', async () => {
    const sb = await startSellerSandbox();
    const id = await upload(sb, `${base}/app-1.2.zip`);
    await sellerOk(sb, 'editfile', { id, url: `${base}/v2/app-2.0.zip`, authed: '0' }, 'Successfully updated file');
    const res = await sb.seller('fetchfile', { id });
    expect(res.json).toEqual({
      success: true,
      message: 'Successfully retrieved file',
      file: { id, url: `${base}/v2/app-2.0.zip`, name: 'app-2.0.zip', size: '3 MB', authed: '0' },
    });
  });

  it('editfile refusals', async () => {
    const sb = await startSellerSandbox();
    const id = await upload(sb, `${base}/app-1.2.zip`);
    expectFail(await sb.seller('editfile', { id: '000000', url: `${base}/app-1.2.zip`, authed: '1' }), 'Failed to update file');
    expectFail(await sb.seller('editfile', { id, url: `${base}/gone.zip`, authed: '1' }), 'Failed to fetch file. HTTP Status: 404');
    expectFail(await sb.seller('editfile', { id, url: 'nope', authed: '1' }), 'URL is invalid');
    expectFail(await sb.seller('editfile', { id, url: `${base}/app-1.2.zip`, authed: 'maybe' }), 'Invalid parameter: authed must be 1/0, true/false, yes/no or on/off');
    expect(findFile(sb.store, sb.app().id, id)?.authed).toBe(1);
  });

  it('editfile without authed changes the URL and keeps the login rule, as the hosted server (the Telegram bot sends the URL alone)', async () => {
    const sb = await startSellerSandbox();
    const id = await upload(sb, `${base}/app-1.2.zip`);
    await sellerOk(sb, 'editfile', { id, url: `${base}/v2/app-2.0.zip` }, 'Successfully updated file');
    expect(findFile(sb.store, sb.app().id, id)).toMatchObject({ url: `${base}/v2/app-2.0.zip`, authed: 1 });
    await sellerOk(sb, 'editfile', { id, url: `${base}/v2/app-2.0.zip`, authed: 'false' });
    expect(findFile(sb.store, sb.app().id, id)?.authed).toBe(0);
    await sellerOk(sb, 'editfile', { id, url: `${base}/app-1.2.zip` });
    expect(findFile(sb.store, sb.app().id, id)).toMatchObject({ url: `${base}/app-1.2.zip`, authed: 0 });
  });

  it('fetchfile / fetchallfiles / delfile / delallfiles', async () => {
    const sb = await startSellerSandbox();
    expectEmptyList(await sb.seller('fetchfile', { id: '123456' }), 'No file Found with ID: 123456');
    expectFail(await sb.seller('delallfiles'), 'Failed to delete all files!');
    const a = await upload(sb, `${base}/app-1.2.zip`);
    const b = await upload(sb, `${base}/v2/app-2.0.zip`);
    expect((await sellerOk(sb, 'fetchallfiles', {}, 'Successfully retrieved files'))['files']).toEqual([
      { id: a, url: `${base}/app-1.2.zip` },
      { id: b, url: `${base}/v2/app-2.0.zip` },
    ]);
    await sellerOk(sb, 'delfile', { fileid: a }, 'Successfully deleted files!');
    expectFail(await sb.seller('delfile', { fileid: a }), 'Failed to delete all files!');
    await sellerOk(sb, 'delallfiles', {}, 'Successfully deleted all files!');
    expectEmptyList(await sb.seller('fetchallfiles'), 'No files Found');
  });
});

describe('webhooks', () => {
  it('addwebhook with a custom id and user agent; fetchallwebhooks shows 21 characters of the URL', async () => {
    const sb = await startSellerSandbox();
    await sellerOk(sb, 'addwebhook', { baseurl: 'http://127.0.0.1:9/hooks/grant?token=abc', ua: 'kactl', authed: '1', webid: 'grant' }, 'Successfully added webhook!');
    await sellerOk(sb, 'addwebhook', { baseurl: 'https://api.example.com/x', authed: '0' });
    const rows = (await sellerOk(sb, 'fetchallwebhooks', {}, 'Successfully retrieved all webhooks'))['webhooks'] as Record<string, unknown>[];
    expect(rows[0]).toEqual({ webid: 'grant', short_baselink: 'http://127.0.0.1:9/ho', useragent: 'kactl', app: sb.info.app.name, authed: '1' });
    expect(rows[1]).toMatchObject({ webid: expect.stringMatching(/^[A-Za-z0-9]{10}$/), useragent: 'KeyAuth', authed: '0' });
    expect(JSON.stringify(rows)).not.toContain('token=abc');
    expect(findWebhook(sb.store, sb.app().id, 'grant')?.baselink).toBe('http://127.0.0.1:9/hooks/grant?token=abc');
  });

  it('addwebhook refusals', async () => {
    const sb = await startSellerSandbox();
    expectFail(await sb.seller('addwebhook', { authed: '1' }), "URL isn't a valid URL!");
    expectFail(await sb.seller('addwebhook', { baseurl: 'hooks/grant', authed: '1' }), "URL isn't a valid URL!");
    expectFail(await sb.seller('addwebhook', { baseurl: 'file:///tmp/x', authed: '1' }), "URL can't be a local path! Must be a remote URL accessible by the open internet!");
    expectFail(await sb.seller('addwebhook', { baseurl: 'https://api.example.com' }), AUTHED);
    expectFail(await sb.seller('addwebhook', { baseurl: 'https://api.example.com', authed: 'sure' }), AUTHED);
    await sellerOk(sb, 'addwebhook', { baseurl: 'https://api.example.com', authed: '1', webid: 'grant' });
    expectFail(await sb.seller('addwebhook', { baseurl: 'https://api.example.com/2', authed: '1', webid: 'grant' }), 'Failed to add webhook!');
  });

  it('delwebhook / delallwebhooks', async () => {
    const sb = await startSellerSandbox();
    expectEmptyList(await sb.seller('fetchallwebhooks'), 'No webhooks found');
    expectFail(await sb.seller('delallwebhooks'), 'Failed to find any webhooks!');
    await sellerOk(sb, 'addwebhook', { baseurl: 'https://api.example.com', authed: '1', webid: 'a' });
    await sellerOk(sb, 'addwebhook', { baseurl: 'https://api.example.com', authed: '1', webid: 'b' });
    await sellerOk(sb, 'delwebhook', { webid: 'a' }, 'Successfully deleted webhook!');
    expectFail(await sb.seller('delwebhook', { webid: 'a' }), 'Failed to delete webhook!');
    await sellerOk(sb, 'delallwebhooks', {}, 'Successfully deleted all webhooks!');
    expectEmptyList(await sb.seller('fetchallwebhooks'), 'No webhooks found');
  });
});
