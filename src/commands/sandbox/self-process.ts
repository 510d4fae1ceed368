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
