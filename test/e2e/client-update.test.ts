/**
 * Program updates: with the app's version raised, `kactl client init` prints the download link
 * from `invalidver`, and `kactl client update` follows it — here to a file server on loopback
 * started by the test — saves the file and prints its size and SHA-256. A failed download exits
 * 4 and leaves no file. `client update` did not exist before.
 *
 * Then what must not happen (issue 21, items 5 and 6): writing through a symbolic link another
 * Unix user planted beside the target, overwriting a file that appeared during the download,
 * ignoring Ctrl-C, saving under a server-chosen name like `.bashrc` or one with control
 * characters, and trusting an unsigned 1.2 `invalidver` when the profile holds the app secret.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs, { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2ESandbox, type E2ESandbox } from '../helpers/e2e.js';
import { linkTrap, otherUser, otherUserSkip } from '../helpers/other-user.js';
import { KACTL_BIN, cleanEnv } from '../helpers/run-kactl.js';
import { tempDir } from '../helpers/temp-dir.js';

const SLOW = 60_000;
const PROGRAM = Buffer.from(Array.from({ length: 200_000 }, (_, i) => i % 251));
let sb: E2ESandbox;
let files: http.Server;
let filesUrl: string;
let dir: string;
const stalled: http.ServerResponse[] = [];
/** Requests the file server received, by path. */
const served: string[] = [];
/** `/slow.exe` sends its first bytes, then the rest once the test calls this. */
let releaseSlow: (() => void) | undefined;
let slowStarted: (() => void) | undefined;

beforeAll(async () => {
  sb = await startE2ESandbox();
  dir = tempDir();
  files = http.createServer((req, res) => {
    served.push(req.url ?? '');
    if (req.url === '/slow.exe') {
      res.writeHead(200, { 'content-length': String(PROGRAM.length) });
      res.write(PROGRAM.subarray(0, 10));
      releaseSlow = () => res.end(PROGRAM.subarray(10));
      slowStarted?.();
      return;
    }
    if (req.url === '/loader-2.0.exe' || req.url === '/.bashrc' || req.url?.startsWith('/named/')) {
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

/** The folder's entries other than `keep`: what a download left behind. */
function leftIn(folder: string, keep: readonly string[] = []): string[] {
  return fs.readdirSync(folder).filter((name) => !keep.includes(name));
}

describe('saving the download safely (e2e)', () => {
  const skip = otherUserSkip();
  it.skipIf(skip !== undefined)(`never writes through a symbolic link another user planted beside the target${skip ? ` (skipped: ${skip})` : ''}`, async () => {
    // Root's private file, and a folder of the other user's where root saves the update.
    const { precious, shared } = linkTrap(otherUser(), ['loader.exe.part', 'forced.exe']);

    await sb.ok(['app', 'set', '--app-version', '2.0', '--download-url', `${filesUrl}/loader-2.0.exe`]);
    // The old fixed temporary name `loader.exe.part` is a link to root's file: not followed.
    await sb.ok(['client', 'update', '--app-version', '1.0', '--out', path.join(shared, 'loader.exe')]);
    expect(readFileSync(precious, 'utf8')).toBe("root's own data");
    expect(fs.lstatSync(path.join(shared, 'loader.exe')).isFile()).toBe(true);
    expect(readFileSync(path.join(shared, 'loader.exe')).equals(PROGRAM)).toBe(true);
    expect(fs.lstatSync(path.join(shared, 'loader.exe.part')).isSymbolicLink()).toBe(true);

    // The target itself is a link: refused without --force, replaced (not written through) with it.
    const refused = await sb.kactl(['client', 'update', '--app-version', '1.0', '--out', path.join(shared, 'forced.exe')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('forced.exe exists; add --force');
    await sb.ok(['client', 'update', '--app-version', '1.0', '--out', path.join(shared, 'forced.exe'), '--force']);
    expect(readFileSync(precious, 'utf8')).toBe("root's own data");
    expect(fs.lstatSync(path.join(shared, 'forced.exe')).isFile()).toBe(true);
    expect(leftIn(shared).sort()).toEqual(['forced.exe', 'loader.exe', 'loader.exe.part']);
  }, SLOW);

  it('keeps a file that appeared at the target during the download (no --force) and leaves no temporary file', async () => {
    await sb.ok(['app', 'set', '--download-url', `${filesUrl}/slow.exe`]);
    const folder = tempDir();
    const out = path.join(folder, 'loader.exe');
    const started = new Promise<void>((resolve) => (slowStarted = resolve));
    const running = sb.kactl(['client', 'update', '--app-version', '1.0', '--out', out]);
    await started;
    fs.writeFileSync(out, 'made meanwhile');
    releaseSlow!();
    const result = await running;
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${out} exists; add --force to overwrite it.`);
    expect(readFileSync(out, 'utf8')).toBe('made meanwhile');
    expect(leftIn(folder)).toEqual(['loader.exe']);
  }, SLOW);

  it('the first Ctrl-C stops the download (130) and removes the temporary file', async () => {
    await sb.ok(['app', 'set', '--download-url', `${filesUrl}/stall.exe`]);
    const folder = tempDir();
    const child = spawn(process.execPath, [KACTL_BIN, 'client', 'update', '--app-version', '1.0', '--out', path.join(folder, 'stall.exe'), '--timeout', '60s'], {
      env: cleanEnv(sb.configDir),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    // Once the first bytes are being written (a temporary file exists), one SIGINT.
    for (let i = 0; i < 400 && leftIn(folder).length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(leftIn(folder)).toHaveLength(1);
    child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const code = await exited;
    clearTimeout(timer);
    expect(code, stderr).toBe(130);
    expect(stderr).toContain('Interrupted; nothing was saved.');
    expect(leftIn(folder)).toEqual([]);
  }, SLOW);

  it('saves under a name the server chose only when it is a plain one', async () => {
    const cwd = tempDir();
    fs.writeFileSync(path.join(cwd, '.bashrc'), 'mine');
    const update = async (link: string) => {
      await sb.ok(['app', 'set', '--download-url', link]);
      return sb.kactl(['client', 'update', '--app-version', '1.0', '--force'], { cwd });
    };
    const dotfile = await update(`${filesUrl}/.bashrc`);
    expect(dotfile.code).toBe(2);
    expect(dotfile.stderr).toContain('The server\'s file name ".bashrc" is not one kactl saves under');
    expect(dotfile.stderr).toContain('choose a name with --out FILE');
    expect(readFileSync(path.join(cwd, '.bashrc'), 'utf8')).toBe('mine');

    for (const [encoded, shown] of [['evil%0Aname.exe', '"evil\\nname.exe"'], ['red%1B%5B31m.exe', '"red\\u001b[31m.exe"']] as const) {
      const result = await update(`${filesUrl}/named/${encoded}`);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`The server's file name ${shown} is not one kactl saves under`);
      expect(result.stderr).not.toContain('\u001b');
    }
    const malformed = await update(`${filesUrl}/named/bad%zz.exe`);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('The download link ends in "bad%zz.exe", which is not a valid percent-encoded file name; choose one with --out FILE.');
    expect(malformed.stderr).not.toContain('URI malformed');
    expect(leftIn(cwd)).toEqual(['.bashrc']);

    // A plain name is used as before.
    const plain = await update(`${filesUrl}/named/loader%20v2.exe`);
    expect(plain.code, plain.stderr).toBe(0);
    expect(readFileSync(path.join(cwd, 'loader v2.exe')).equals(PROGRAM)).toBe(true);
  }, SLOW);
});

describe('an unsigned 1.2 invalidver (e2e)', () => {
  it('is refused when the profile holds the app secret: exit 5, nothing downloaded', async () => {
    // A 1.2 server that answers init with an unsigned invalidver pointing at the file server;
    // the sandbox signs every init failure, so it cannot send this.
    const forged = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ success: false, message: 'invalidver', download: `${filesUrl}/loader-2.0.exe` }));
      });
    });
    await new Promise<void>((resolve) => forged.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(forged.address() as AddressInfo).port}`;
      await sb.ok(['profile', 'add', 'forged', '--force', '--base-url', base, '--app-name', 'app', '--ownerid', 'AbCdEf1234', '--api', '1.2', '--secret', 'f'.repeat(64)]);
      const out = path.join(tempDir(), 'loader.exe');
      const before = served.length;
      const result = await sb.kactl(['client', 'update', '--profile', 'forged', '--app-version', '1.0', '--out', out]);
      expect(result.code, result.stderr).toBe(5);
      expect(result.stderr).toContain('The server\'s failure answer is not signed, yet it carries "download"');
      expect(existsSync(out)).toBe(false);
      expect(served.slice(before)).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => forged.close(() => resolve()));
    }
  }, SLOW);
});
