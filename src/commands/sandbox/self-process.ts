/**
 * The few process-level facts a background sandbox needs: this process's id, how to run kactl
 * again (for `--detach`), and signals to other processes (for `stop`, which checks first that
 * the pid is still its sandbox: process-identity.ts). Kept in one module so the commands
 * themselves stay free of process globals.
 */
import process from 'node:process';
import { isSignallablePid } from './process-identity.js';

export const selfPid: number = process.pid;

/** The command line that runs this kactl again: node, its flags, and the entry script. */
export function selfCommand(): { file: string; args: string[] } {
  const script = process.argv[1];
  if (script === undefined) throw new Error('Cannot tell which script is running kactl');
  return { file: process.execPath, args: [...process.execArgv, script] };
}

/** Signals one process; never a group, init or "every process" (pid 0, 1, -1 and below). */
export function sendSignal(pid: number, signal: NodeJS.Signals): void {
  if (!isSignallablePid(pid)) throw new RangeError(`Refusing to signal pid ${String(pid)}: not a single process`);
  process.kill(pid, signal);
}

/**
 * Signals every process of a group (`sandbox exec`'s command runs in one of its own). The id is
 * the group leader's pid, checked as one (never 0, 1 or -1, which name far more); quiet when the
 * group has gone.
 */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  if (!isSignallablePid(pgid)) throw new RangeError(`Refusing to signal group ${String(pgid)}: not a single process group`);
  try {
    process.kill(-pgid, signal);
  } catch {
    // The group has ended.
  }
}

/**
 * Runs `listener` when this process exits, synchronously, whatever the exit (a second Ctrl-C
 * exits at once: bin/kactl.js); returns what removes it.
 */
export function onProcessExit(listener: () => void): () => void {
  process.once('exit', listener);
  return () => process.removeListener('exit', listener);
}

/** Runs `listener` on each terminal resize (SIGWINCH) while it is set; returns what removes it. */
export function onTerminalResize(listener: () => void): () => void {
  if (process.platform === 'win32') return () => undefined;
  process.on('SIGWINCH', listener);
  return () => process.removeListener('SIGWINCH', listener);
}

/** This user's id, to tell our files in a shared folder from others'; undefined on Windows. */
export function selfUid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}

/** Whether this platform has process groups (everything but Windows). */
export const hasProcessGroups: boolean = process.platform !== 'win32';
