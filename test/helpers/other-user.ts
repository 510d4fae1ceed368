/**
 * "Another local user" for the tests of what such a user must not be able to do to kactl: a real
 * second Unix account (`kactl-other`, made with useradd on first use), and commands run as it.
 * Needs root, as CI runs; elsewhere the tests skip, saying why (`otherUserSkip()`).
 */
import { execFileSync, spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from './temp-dir.js';

export const OTHER_USER = 'kactl-other';

export interface OtherUser {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
  /** Runs `script` with sh as the other user; throws with its stderr when it fails. */
  sh(script: string, options?: { cwd?: string }): string;
  /** Runs a program as the other user and returns what it did. */
  run(program: string, args: readonly string[], options?: { cwd?: string; env?: NodeJS.ProcessEnv }): SpawnSyncReturns<string>;
  /** Starts a program as the other user (stdout and stderr piped). */
  start(program: string, args: readonly string[]): ChildProcess;
  /** A node binary the other user can run (this one, or a copy it can reach). */
  node(): string;
  /** Makes `file` (a folder, a file or a symbolic link itself) belong to the other user. */
  own(file: string): void;
}

function lookUp(): { uid: number; gid: number } | undefined {
  const id = (flag: string): number => Number(execFileSync('id', [flag, OTHER_USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    return undefined;
  }
}

/** Why the other-user tests cannot run here, or undefined when they can. */
export function otherUserSkip(): string | undefined {
  if (process.platform === 'win32') return 'another Unix user needs a Unix system';
  if (process.getuid?.() !== 0) return 'creating and acting as a second Unix user needs root (CI runs as root)';
  return undefined;
}

let made: OtherUser | undefined;
let nodeBinary: string | undefined;

/**
 * This process's node when the other user can run it, else a copy in a folder it can read (the
 * Node 24 of CI lives under the checkout, which may be closed to other users).
 */
function reachableNode(run: OtherUser['run']): string {
  if (run(process.execPath, ['-e', '0']).status === 0) return process.execPath;
  const dir = tempDir('kactl-other-node-');
  fs.chmodSync(dir, 0o755);
  const copy = path.join(dir, 'node');
  fs.copyFileSync(process.execPath, copy);
  fs.chmodSync(copy, 0o755);
  return copy;
}

/** The other user, made on first use. Call only when `otherUserSkip()` said nothing. */
export function otherUser(): OtherUser {
  if (made) return made;
  let ids = lookUp();
  // Test files run in parallel: another may be adding the account right now (useradd then
  // refuses to lock /etc/passwd, or finds it exists), so try a few times and look again.
  for (let attempt = 0; ids === undefined && attempt < 20; attempt += 1) {
    spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', '--user-group', OTHER_USER], { stdio: 'ignore' });
    ids = lookUp();
    if (ids === undefined) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
  }
  if (ids === undefined) throw new Error(`Could not create the user ${OTHER_USER} with useradd.`);
  const { uid, gid } = ids;
  const run: OtherUser['run'] = (program, args, options = {}) =>
    spawnSync(program, [...args], { uid, gid, encoding: 'utf8', cwd: options.cwd ?? '/', env: options.env ?? { PATH: '/usr/local/bin:/usr/bin:/bin' } });
  made = {
    name: OTHER_USER,
    uid,
    gid,
    run,
    sh(script, options = {}) {
      const result = run('sh', ['-c', script], options);
      if (result.status !== 0) throw new Error(`as ${OTHER_USER}: sh -c ${JSON.stringify(script)} failed (${result.status}): ${result.stderr}`);
      return result.stdout;
    },
    start(program, args) {
      return spawn(program, [...args], { uid, gid, cwd: '/', env: { PATH: '/usr/local/bin:/usr/bin:/bin' }, stdio: ['ignore', 'pipe', 'pipe'] });
    },
    node() {
      nodeBinary ??= reachableNode(run);
      return nodeBinary;
    },
    own(file) {
      fs.lchownSync(file, uid, gid);
    },
  };
  return made;
}

export interface LinkTrap {
  /** A private file of ours (0600) the links point at; its text stays "root's own data" unless written through. */
  readonly precious: string;
  /** A folder of the other user's (its owner may plant links there, whatever fs.protected_symlinks says). */
  readonly shared: string;
}

/** The other user's folder holding symbolic links named `names`, each to a private file of ours. */
export function linkTrap(other: OtherUser, names: readonly string[]): LinkTrap {
  const dir = tempDir();
  fs.chmodSync(dir, 0o755);
  const precious = path.join(dir, 'precious');
  fs.writeFileSync(precious, "root's own data", { mode: 0o600 });
  const shared = path.join(dir, 'shared');
  fs.mkdirSync(shared, { mode: 0o755 });
  other.own(shared);
  other.sh(names.map((name) => `ln -s '${precious}' '${name}'`).join(' && '), { cwd: shared });
  return { precious, shared };
}
