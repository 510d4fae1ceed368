/**
 * Program updates: with the app's version raised, `kactl client init` prints the download link
 * from `invalidver`, and `kactl client update` follows it — here to a file server on loopback
 * started by the test — saves the file and prints its size and SHA-256. A failed download exits
 * 4 and leaves no file. `client update` did not exist before.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2ESandbox, type E2ESandbox } from '../helpers/e2e.js';
import { tempDir } from '../helpers/temp-dir.js';

const SLOW = 60_000;
const PROGRAM = Buffer.from(Array.from({ length: 200_000 }, (_, i) => i % 251));
let sb: E2ESandbox;
let files: http.Server;
let filesUrl: string;
let dir: string;
const stalled: http.ServerResponse[] = [];

beforeAll(async () => {
  sb = await startE2ESandbox();
  dir = tempDir();
  files = http.createServer((req, res) => {
    if (req.url === '/loader-2.0.exe') {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(PROGRAM.length) });
      res.end(PROGRAM);
    } else if (req.url === '/moved') {
      res.writeHead(302, { location: '/loader-2.0.exe' });
      res.end();
    } else if (req.url === '/stall.exe') {
      // Headers and a first piece, then nothing: the socket stays open until the test ends.
      res.writeHead(200, { 'content-length': '100000' });
      res.write(Buffer.alloc(10));
      stalled.push(res);
    } else if (req.url === '/cut.exe') {
      res.writeHead(200, { 'content-length': '1000' });
      res.write(Buffer.alloc(10));
      res.destroy();
    } else {
      res.writeHead(404);
      res.end('not here');
    }
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});
afterAll(() => {
  for (const res of stalled) res.destroy();
  return new Promise<void>((resolve) => files.close(() => resolve()));
});

describe('program updates (e2e)', () => {
  it('init prints the link; update downloads it with size and SHA-256', async () => {
    await sb.ok(['app', 'set', '--app-version', '2.0', '--download-url', `${filesUrl}/moved`]);
    const init = await sb.kactl(['client', 'init', '--new', '--app-version', '1.0']);
    expect(init.code).toBe(1);
    expect(init.stderr).toContain(`Download link: ${filesUrl}/moved`);
    // And the next step: fetch it as the program would, or test as the version the app wants.
    expect(init.stderr).toContain('kactl client update --out FILE');
    expect(init.stderr).toContain('kactl client init --app-version VERSION');

    const out = path.join(dir, 'new-loader.exe');
    const update = await sb.ok(['client', 'update', '--app-version', '1.0', '--out', out]);
    expect(readFileSync(out).equals(PROGRAM)).toBe(true);
    const sha = createHash('sha256').update(PROGRAM).digest('hex');
    expect(update.stdout).toContain(`bytes\t${PROGRAM.length}`);
    expect(update.stdout).toContain(`sha256\t${sha}`);
    // Not a terminal: no progress bar drawn.
    expect(update.stderr).not.toContain('█');

    const again = await sb.kactl(['client', 'update', '--app-version', '1.0', '--out', out]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('exists; add --force');
    const json = await sb.json<{ bytes: number; sha256: string; path: string }>(['client', 'update', '--app-version', '1.0', '--out', out, '--force', '--json']);
    expect(json).toMatchObject({ bytes: PROGRAM.length, sha256: sha, path: out });

    const current = await sb.ok(['client', 'update', '--app-version', '2.0']);
    expect(current.stderr).toContain('This version is current');
  }, SLOW);

  it('a 404, a cut-off body or a non-http link: non-zero exit and no file', async () => {
    await sb.ok(['app', 'set', '--download-url', `${filesUrl}/missing.exe`]);
    const out = path.join(dir, 'missing.exe');
    const missing = await sb.kactl(['client', 'update', '--app-version', '1.0', '--out', out]);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('answered HTTP 404');
    expect(existsSync(out)).toBe(false);

    await sb.ok(['app', 'set', '--download-url', `${filesUrl}/cut.exe`]);
    const cutOut = path.join(dir, 'cut.exe');
    const cut = await sb.kactl(['client', 'update', '--app-version', '1.0', '--out', cutOut]);
    expect(cut.code).toBe(4);
    expect(existsSync(cutOut)).toBe(false);
    expect(existsSync(`${cutOut}.part`)).toBe(false);

    // A server that sends the headers and then stalls mid-body: the timeout applies to every
    // wait for the body too (before, the download hung here until the test timed out).
    await sb.ok(['app', 'set', '--download-url', `${filesUrl}/stall.exe`]);
    const stallOut = path.join(dir, 'stall.exe');
    const stall = await sb.kactl(['client', 'update', '--app-version', '1.0', '--out', stallOut, '--timeout', '1s']);
    expect(stall.code).toBe(4);
    expect(stall.stderr).toContain('stalled: nothing arrived for 1 s after 10 bytes');
    expect(existsSync(stallOut)).toBe(false);
    expect(existsSync(`${stallOut}.part`)).toBe(false);

    await sb.ok(['app', 'set', '--download-url', 'ftp://example.invalid/loader.exe']);
    const ftp = await sb.kactl(['client', 'update', '--app-version', '1.0']);
    expect(ftp.code).toBe(4);
    expect(ftp.stderr).toContain('The download link is not http(s)');
    expect(ftp.stderr).not.toMatch(/at .*\.js:\d+/);
  }, SLOW);
});
