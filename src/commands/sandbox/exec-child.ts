/**
 * The command `kactl sandbox exec` runs: spawned with the terminal as its own (stdin, stdout and
 * stderr inherited), in kactl's process group, so a terminal's Ctrl-C reaches it as it reaches
 * kactl. A signal sent to kactl alone (`kill -TERM`, a CI runner stopping the job) is passed on:
 * kactl's SIGINT or SIGTERM (the abort of `signal`, bin/kactl.js) is sent to the command, which
 * decides how to end. Its end is reported as a shell reports it: its exit code, or 128 + the
 * signal's number when a signal ended it.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import type { EnvRecord } from '../../env.js';

export interface ChildEnd {
  /** The exit status a shell would give: the code, or 128 + the number of the signal that ended it. */
  readonly status: number;
  /** Set when the command could not be started: 127 (not found) or 126 (not runnable), one sentence. */
  readonly notStarted?: string;
}

/** The signal kactl was sent, from the reason its abort carries (bin/kactl.js): SIGTERM, else SIGINT. */
function signalOf(abort: AbortSignal): NodeJS.Signals {
  const reason: unknown = abort.reason;
  return reason instanceof Error && reason.message === 'SIGTERM' ? 'SIGTERM' : 'SIGINT';
}

export function runChild(command: string, args: readonly string[], env: EnvRecord, abort: AbortSignal): Promise<ChildEnd> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env: { ...env } });
    const forward = (): void => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signalOf(abort));
    };
    abort.addEventListener('abort', forward, { once: true });
    // Already interrupted while the sandbox started: the command is told at once.
    if (abort.aborted) forward();
    child.once('error', (error: NodeJS.ErrnoException) => {
      abort.removeEventListener('abort', forward);
      if (error.code === 'ENOENT') resolve({ status: 127, notStarted: `${command}: command not found (not a file, and not on PATH).` });
      else if (error.code === 'EACCES') resolve({ status: 126, notStarted: `${command}: permission denied (not executable).` });
      else resolve({ status: 126, notStarted: `${command} could not be started: ${error.code ?? error.message}.` });
    });
    child.once('close', (code, signal) => {
      abort.removeEventListener('abort', forward);
      resolve({ status: code ?? 128 + (signal === null ? 0 : (constants.signals[signal] ?? 0)) });
    });
  });
}
