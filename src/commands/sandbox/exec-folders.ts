/**
 * The folder of one `sandbox exec` run: the command's own kactl config folder (exec-env.ts says
 * why), private to this user, named `kactl-exec-<kactl's pid>-<random>` in the temp folder and
 * removed when the command ends. A kactl killed outright leaves it behind, sessions inside: its
 * watchdog removes it (exec-watchdog.ts), and should that have died too, the next `sandbox exec`
 * of this user sweeps every such folder whose kactl is gone.
 *
 * A folder counts as stale only when all of these hold: its name is ours, it is a folder (not a
 * link) owned by this user, and the pid in its name is not a running `kactl sandbox exec` (or
 * `start`: process-identity.ts reads the command line). A pid reused by another program is
 * thus not mistaken for the run's kactl, and another user's folders are never touched.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { processIdentity } from './process-identity.js';
import { selfPid, selfUid } from './self-process.js';

const PREFIX = 'kactl-exec-';
const NAME = /^kactl-exec-(\d{1,10})-[A-Za-z0-9]{6}$/;

/** A new run folder (0700), named after this kactl. */
export function makeRunFolder(tempRoot: string = os.tmpdir()): string {
  return fs.mkdtempSync(path.join(tempRoot, `${PREFIX}${selfPid}-`));
}

/** Removes the run folders of kactl processes that have gone; the paths removed. */
export function sweepStaleRunFolders(tempRoot: string = os.tmpdir(), isRunning: (pid: number) => boolean = isExecKactl): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(tempRoot);
  } catch {
    return [];
  }
  const removed: string[] = [];
  const uid = selfUid();
  for (const name of names) {
    const pid = Number(NAME.exec(name)?.[1] ?? NaN);
    if (!Number.isInteger(pid) || pid === selfPid) continue;
    const folder = path.join(tempRoot, name);
    try {
      const stat = fs.lstatSync(folder);
      if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) continue;
      if (isRunning(pid)) continue;
      fs.rmSync(folder, { recursive: true, force: true });
      removed.push(folder);
    } catch {
      // Gone meanwhile, or not ours to remove: left as it is.
    }
  }
  return removed;
}

function isExecKactl(pid: number): boolean {
  return processIdentity(pid)?.isSandbox === true;
}
