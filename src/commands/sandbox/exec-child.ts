/**
 * The command `kactl sandbox exec` runs: spawned with the terminal's streams as its own (stdin,
 * stdout and stderr inherited), in a session and process group of its own (on Windows, which has
 * none, as a plain child). Why its own group:
 * - kactl decides what reaches it. A terminal's Ctrl-C goes to the terminal's foreground group,
 *   kactl's, and no longer to the command as well: kactl passes on each SIGINT or SIGTERM it gets
 *   (the abort of `signal`, bin/kactl.js) to the whole group, so the command sees one Ctrl-C per
 *   key press, wherever the signal came from. Terminal resizes are passed on too.
 * - A second signal makes kactl exit at once (bin/kactl.js); on its way out it kills the group
 *   (SIGKILL), so a command that ignored the first is not left running, and removes the run's
 *   folder. A kactl killed outright cannot do that: its watchdog does (exec-watchdog.ts).
 * The command reads and writes the terminal as before (it is not the terminal's session, so no
 * job control stops it); a program that opens /dev/tty itself finds none.
 *
 * Its end is reported as a shell reports it: its exit code, or 128 + the signal's number when a
 * signal ended it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { constants } from 'node:os';
import type { EnvRecord } from '../../env.js';
import { startWatchdog, type Watchdog } from './exec-watchdog.js';
import { hasProcessGroups, onProcessExit, onTerminalResize, signalGroup } from './self-process.js';

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

/** Sends signals to the command: its whole group where there are groups, else the process. */
class CommandHandle {
  ended = false;
  constructor(
    readonly child: ChildProcess,
    private readonly pgid: number | undefined,
  ) {}

  signal(signal: NodeJS.Signals): void {
    if (this.ended) return;
    if (this.pgid !== undefined) signalGroup(this.pgid, signal);
    else if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
  }
}

/**
 * Runs the command until it ends. `folder` is the run's own (exec-folders.ts): removed by the
 * exit hook or the watchdog when kactl cannot finish the run itself.
 */
export function runChild(command: string, args: readonly string[], env: EnvRecord, abort: AbortSignal, folder: string): Promise<ChildEnd> {
  return new Promise((resolve) => {
    const watchdog: Watchdog | undefined = hasProcessGroups ? startWatchdog(folder) : undefined;
    const child = spawn(command, args, { stdio: 'inherit', env: { ...env }, detached: hasProcessGroups });
    const pgid = hasProcessGroups ? child.pid : undefined;
    if (pgid !== undefined) watchdog?.guard(pgid);
    const handle = new CommandHandle(child, pgid);
    const forward = (): void => handle.signal(signalOf(abort));
    const stopResizes = pgid === undefined ? () => undefined : onTerminalResize(() => handle.signal('SIGWINCH'));
    // kactl exiting before the command ended: the second Ctrl-C (bin/kactl.js), or an uncaught fault.
    const stopExitHook = onProcessExit(() => {
      handle.signal('SIGKILL');
      fs.rmSync(folder, { recursive: true, force: true });
    });
    abort.addEventListener('abort', forward, { once: true });
    // Already interrupted while the sandbox started: the command is told at once.
    if (abort.aborted) forward();
    const finish = (end: ChildEnd): void => {
      handle.ended = true;
      abort.removeEventListener('abort', forward);
      stopResizes();
      stopExitHook();
      watchdog?.release();
      resolve(end);
    };
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') finish({ status: 127, notStarted: `${command}: command not found (not a file, and not on PATH).` });
      else if (error.code === 'EACCES') finish({ status: 126, notStarted: `${command}: permission denied (not executable).` });
      else finish({ status: 126, notStarted: `${command} could not be started: ${error.code ?? error.message}.` });
    });
    child.once('close', (code, signal) => {
      finish({ status: code ?? 128 + (signal === null ? 0 : (constants.signals[signal] ?? 0)) });
    });
  });
}
