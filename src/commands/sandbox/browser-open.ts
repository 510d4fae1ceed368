/**
 * Opening the dashboard's one-time sign-in in the default browser without putting the code where
 * other local users can read it. Whatever kactl passes to the opener (`$BROWSER`, `xdg-open`,
 * `open`, `cmd /c start`) is in that process's command line, and `/proc/<pid>/cmdline` (or `ps`)
 * shows it to every user of the machine: a second user scanning the process list spent a code
 * there first (issue 29 item 1). So, as Jupyter does, the opener gets the path of a page only we
 * can read — a 0600 file in a fresh 0700 folder of ours in the data folder — and that page posts
 * the code to the sandbox (`POST /sandbox/ui/login`), so it is in no URL either.
 *
 * The browser reads the file after kactl has exited, so it cannot be removed at once; each run
 * removes the folders earlier runs left (their codes are long spent or expired).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { escapeHtml } from '../../server/client/page-layout.js';
import { makeDir } from '../../util/make-dir.js';

/** The folders' name prefix in the data folder. */
const PAGE_FOLDER_PREFIX = 'ui-sign-in-';
/** Folders older than this are removed by the next run (a code lives two minutes). */
const STALE_MS = 10 * 60_000;

export interface BrowserOpener {
  readonly file: string;
  /** The arguments for opening `target`: a file: URL, or on Windows a path. */
  readonly args: (target: string) => string[];
  /** Whether `args` wants a path rather than a file: URL. */
  readonly wantsPath: boolean;
}

/** The program that opens a page in the default browser here, or undefined when there is no display. */
export function browserOpener(platform: string, env: Readonly<Record<string, string | undefined>>): BrowserOpener | undefined {
  if (env['BROWSER']) return { file: env['BROWSER'], args: (target) => [target], wantsPath: false };
  if (platform === 'darwin') return { file: 'open', args: (target) => [target], wantsPath: false };
  if (platform === 'win32') return { file: 'cmd', args: (target) => ['/c', 'start', '""', target], wantsPath: true };
  if (!env['DISPLAY'] && !env['WAYLAND_DISPLAY']) return undefined;
  return { file: 'xdg-open', args: (target) => [target], wantsPath: false };
}

/** Starts the browser on `target`; false when the opener could not be run. */
export async function openInBrowser(opener: BrowserOpener, target: string): Promise<boolean> {
  const { spawn } = await import('node:child_process');
  return new Promise((resolve) => {
    const child = spawn(opener.file, opener.args(target), { detached: true, stdio: 'ignore' });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}

/** The page: a form that posts the code to the link's sandbox, sent at once (the button without JavaScript). */
export function signInPageHtml(link: URL): string {
  const action = escapeHtml(`${link.origin}${link.pathname}`);
  const code = escapeHtml(link.searchParams.get('code') ?? '');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<title>Signing in to the kactl sandbox dashboard</title>
</head>
<body>
<form method="post" action="${action}">
<input type="hidden" name="code" value="${code}">
<p>Signing in to the sandbox dashboard… <button type="submit">Sign in</button></p>
</form>
<script>document.forms[0].submit();</script>
</body>
</html>
`;
}

/** Removes the page folders of earlier runs: ours, older than STALE_MS; anything else is left alone. */
function sweepOldPages(dataDir: string, nowMs: number): void {
  // -1 where there are no user ids (Windows): ownership is then left to the folder's ACL.
  const uid = os.userInfo().uid;
  for (const name of fs.readdirSync(dataDir)) {
    if (!name.startsWith(PAGE_FOLDER_PREFIX)) continue;
    const folder = path.join(dataDir, name);
    try {
      const stat = fs.lstatSync(folder);
      if (!stat.isDirectory() || (uid !== -1 && stat.uid !== uid) || nowMs - stat.mtimeMs < STALE_MS) continue;
      fs.rmSync(folder, { recursive: true, force: true });
    } catch {
      // Gone meanwhile, or not ours to remove: nothing to do.
    }
  }
}

/**
 * Writes the sign-in page for `link` into a new private folder of the data folder and returns
 * what to give the opener (a file: URL, or the path). The folder is made by mkdtemp (a new name,
 * mode 0700, ours), the file with O_EXCL and mode 0600.
 */
export function writeSignInPage(dataDir: string, link: URL, opener: BrowserOpener, nowMs: number): string {
  makeDir(dataDir);
  sweepOldPages(dataDir, nowMs);
  const folder = fs.mkdtempSync(path.join(dataDir, PAGE_FOLDER_PREFIX));
  fs.chmodSync(folder, 0o700);
  const file = path.join(folder, 'sign-in.html');
  fs.writeFileSync(file, signInPageHtml(link), { mode: 0o600, flag: 'wx' });
  return opener.wantsPath ? file : pathToFileURL(file).href;
}
