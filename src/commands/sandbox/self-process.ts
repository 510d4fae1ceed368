/**
 * The few process-level facts a background sandbox needs: this process's id, how to run kactl
 * again (for `--detach`), and signals to other processes (for `stop`). Kept in one module so
 * the commands themselves stay free of process globals.
 */
import fs from 'node:fs';
import process from 'node:process';

export const selfPid: number = process.pid;

/** The command line that runs this kactl again: node, its flags, and the entry script. */
export function selfCommand(): { file: string; args: string[] } {
  const script = process.argv[1];
  if (script === undefined) throw new Error('Cannot tell which script is running kactl');
  return { file: process.execPath, args: [...process.execArgv, script] };
}

/** Whether `pid` is a running process (a zombie waiting for its parent counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    // Linux: "pid (comm) S …"; state Z is a process that has exited but was not yet reaped.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/**
 * Whether `pid` still looks like a kactl sandbox (not a process that reused a dead sandbox's
 * id). Only checkable where /proc exists; elsewhere the recorded id is trusted.
 */
export function looksLikeSandbox(pid: number): boolean {
  try {
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return cmdline.includes('sandbox');
  } catch {
    return true;
  }
}

export function sendSignal(pid: number, signal: NodeJS.Signals): void {
  process.kill(pid, signal);
}
