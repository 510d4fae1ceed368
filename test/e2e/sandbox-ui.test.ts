/**
 * `kactl sandbox ui` against a real sandbox: --print (and a stdout that is not a terminal)
 * prints a one-time sign-in link that signs a browser in once; --json gives it with its
 * lifetime; on a terminal with a browser it opens the link instead (BROWSER names a stand-in
 * that writes down what it was given), and with no display it prints it. A wrong admin token is
 * exit 3; no sandbox, exit 4. The admin token never appears in what is printed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startE2ESandbox, type E2ESandbox } from '../helpers/e2e.js';
import { spawnKactlInPty } from '../helpers/pty.js';
import { tempDir } from '../helpers/temp-dir.js';

const SLOW = 120_000;
const LINK = /^http:\/\/127\.0\.0\.1:\d+\/sandbox\/ui\/login\?code=[A-Za-z0-9_-]{32}$/;
let sb: E2ESandbox;

/** Opens `url` without following the redirect: 303 with a cookie when the code is good. */
async function spend(url: string): Promise<number> {
  return (await fetch(url, { redirect: 'manual' })).status;
}

/** A stand-in browser: writes the URL it is given into a file. */
function recordingBrowser(): { program: string; opened: () => string | undefined } {
  const dir = tempDir('kactl-browser-stand-in-');
  const file = path.join(dir, 'opened.txt');
  const program = path.join(dir, 'browser.sh');
  fs.writeFileSync(program, `#!/bin/sh\nprintf '%s' "$1" > '${file}'\n`, { mode: 0o755 });
  return { program, opened: () => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined) };
}

async function until<T>(read: () => T | undefined): Promise<T> {
  for (let tries = 0; tries < 100; tries += 1) {
    const value = read();
    if (value !== undefined && value !== '') return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('timed out');
}

beforeAll(async () => {
  sb = await startE2ESandbox();
}, SLOW);

describe('kactl sandbox ui', () => {
  it('--print prints a link that signs in once', async () => {
    const run = await sb.ok(['sandbox', 'ui', '--print']);
    const url = run.stdout.trim();
    expect(url).toMatch(LINK);
    expect(run.stdout).not.toContain(sb.info.adminToken);
    expect(run.stderr).toContain('it signs one browser in, once');
    expect(await spend(url)).toBe(303);
    expect(await spend(url)).toBe(401);
  }, SLOW);

  it('prints instead of opening when stdout is not a terminal', async () => {
    const browser = recordingBrowser();
    const run = await sb.ok(['sandbox', 'ui'], { env: { BROWSER: browser.program, DISPLAY: ':0' } });
    expect(run.stdout.trim()).toMatch(LINK);
    expect(browser.opened()).toBeUndefined();
  }, SLOW);

  it('--json gives the link and how long it lasts', async () => {
    const answer = await sb.json<{ url: string; expiresIn: number }>(['sandbox', 'ui', '--json']);
    expect(answer.url).toMatch(LINK);
    expect(answer.expiresIn).toBe(120);
  }, SLOW);

  it('on a terminal, opens the link in the browser', async () => {
    const browser = recordingBrowser();
    const run = spawnKactlInPty(['sandbox', 'ui'], { configDir: sb.configDir, env: { BROWSER: browser.program } });
    expect(await run.exited).toBe(0);
    expect(run.screen()).toContain('Opened the sandbox dashboard in your browser');
    const url = await until(browser.opened);
    expect(url).toMatch(LINK);
    expect(run.screen()).not.toContain(url);
    expect(await spend(url)).toBe(303);
  }, SLOW);

  it('on a terminal with no display and no BROWSER, prints the link', async () => {
    const run = spawnKactlInPty(['sandbox', 'ui'], { configDir: sb.configDir });
    expect(await run.exited).toBe(0);
    expect(run.screen()).toMatch(/http:\/\/127\.0\.0\.1:\d+\/sandbox\/ui\/login\?code=/);
  }, SLOW);

  it('a wrong admin token is exit 3; no sandbox, exit 4; one sentence, no stack', async () => {
    const refused = await sb.kactl(['sandbox', 'ui', '--print', '--admin-token', 'wrong-token']);
    expect(refused.code).toBe(3);
    expect(refused.stderr.trim()).toBe('error: The sandbox refused the admin token.');
    expect(refused.stdout).toBe('');
    const gone = await sb.kactl(['sandbox', 'ui', '--print', '--base-url', 'http://127.0.0.1:9']);
    expect(gone.code).toBe(4);
    expect(gone.stderr).not.toMatch(/\n\s+at /);
  }, SLOW);
});
