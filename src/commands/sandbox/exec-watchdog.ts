/**
 * What ends `sandbox exec`'s command when kactl itself is killed outright (SIGKILL, the OOM
 * killer): a small shell process of its own session, started before the command, holding the
 * read end of a pipe whose write end only kactl has. kactl writes the command's process group on
 * it, then `done` when the run ends as it should. A pipe that closes without `done` means kactl
 * died: the watchdog sends SIGTERM to the group, SIGKILL five seconds later if anything of it is
 * left, and removes the run's folder (the command's KACTL_CONFIG_DIR, with its sessions).
 *
 * A shell, not a second Node: it costs a few hundred kilobytes and a millisecond. Its own session
 * (detached) keeps a terminal's Ctrl-C or hang-up, and a kill of kactl's process group, away
 * from it. Nothing is known to the watchdog but the group and the folder: it reads no secret.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';

/** Why the script reads two lines: the group first (kactl may die before it has one), then `done`. */
const SCRIPT = [
  'group=; word=',
  'IFS= read -r group',
  'IFS= read -r word',
  '[ "$word" = done ] && exit 0',
  'case $group in "" | *[!0-9]*) group=0 ;; esac',
  'if [ "$group" -gt 1 ]; then',
  '  kill -TERM -"$group" 2>/dev/null',
  '  tries=0',
  '  while kill -0 -"$group" 2>/dev/null && [ "$tries" -lt 50 ]; do sleep 0.1; tries=$((tries + 1)); done',
  '  kill -KILL -"$group" 2>/dev/null',
  'fi',
  'rm -rf -- "$1"',
].join('\n');

export interface Watchdog {
  /** The command's process group, ended if kactl goes without `release`. */
  guard(pgid: number): void;
  /** The run ends as it should: the watchdog leaves without touching anything. */
  release(): void;
}

/** Starts the watchdog of `folder`; none when no shell can be started (the next run's sweep then removes the folder: exec-folders.ts). */
export function startWatchdog(folder: string): Watchdog {
  let child: ChildProcess | undefined;
  try {
    child = spawn('/bin/sh', ['-c', SCRIPT, 'kactl-exec-watchdog', folder], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
  } catch {
    child = undefined;
  }
  child?.on('error', () => undefined);
  const pipe: Writable | null | undefined = child?.stdin;
  pipe?.on('error', () => undefined);
  // Neither the watchdog nor its pipe (a socket) keeps kactl running.
  child?.unref();
  (pipe as { unref?: () => void } | null | undefined)?.unref?.();
  let released = false;
  return {
    guard(pgid) {
      pipe?.write(`${pgid}\n`);
    },
    release() {
      if (released) return;
      released = true;
      pipe?.end('done\n');
    },
  };
}
