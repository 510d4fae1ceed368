/**
 * One run of the program under audit: spawned in a process group of its own (so what it starts
 * can be ended with it), its stdin given the license or closed at once, its stdout and stderr
 * kept (the start for `acceptedWhen`, the end for the report), and ended when it outlasts the
 * timeout or the audit is interrupted. Whatever it left running is ended when it exits: no run
 * leaves a process behind to answer in the next scenario.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { InterruptedError, UsageError } from '../../api/errors.js';

/** What is kept of each stream: enough for any `acceptedWhen` a tester writes, and the report's tail. */
const KEPT_BYTES = 256 * 1024;
/** After the program exits, how long its streams may stay open (a grandchild holding them) before they are cut. */
const STREAMS_GRACE_MS = 300;
/** An interrupted program gets this long after SIGTERM before SIGKILL. */
const TERM_GRACE_MS = 1000;

export interface ProgramRunOptions {
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string | undefined;
  /** Written to stdin, which is then closed; undefined: closed at once. */
  readonly stdin: string | undefined;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
  readonly now: () => number;
}

export interface ProgramRun {
  /** Null when a signal ended it, or it was still running at the timeout. */
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Still running at the timeout (then ended). */
  readonly hung: boolean;
  readonly stdout: string;
  readonly stderr: string;
  readonly durationMs: number;
}

/** Keeps the first KEPT_BYTES of a stream. */
class Kept {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  add(chunk: Buffer): void {
    if (this.size >= KEPT_BYTES) return;
    const part = chunk.subarray(0, KEPT_BYTES - this.size);
    this.chunks.push(part);
    this.size += part.length;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

/** Signals the program's whole process group; nothing when it is gone already. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    if (process.platform === 'win32') child.kill(signal);
    else process.kill(-child.pid, signal);
  } catch {
    // ESRCH: the group has ended.
  }
}

function notStarted(file: string, error: NodeJS.ErrnoException): UsageError {
  if (error.code === 'ENOENT') return new UsageError(`${file}: command not found (not a file, and not on the program's PATH).`);
  if (error.code === 'EACCES') return new UsageError(`${file}: permission denied (not executable).`);
  return new UsageError(`${file} could not be started: ${error.code ?? error.message}.`);
}

export function runProgram(command: readonly string[], options: ProgramRunOptions): Promise<ProgramRun> {
  const [file, ...args] = command;
  if (file === undefined || file === '') return Promise.reject(new UsageError('Give the program to audit, e.g. -- python3 app.py.'));
  return new Promise((resolve, reject) => {
    const started = options.now();
    const child = spawn(file, args, { env: { ...options.env }, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    const stdout = new Kept();
    const stderr = new Kept();
    child.stdout.on('data', (chunk: Buffer) => stdout.add(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.add(chunk));
    // A program that exits without reading its stdin closes the pipe under us.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.stdin ?? '');
    let hung = false;
    let interrupted = false;
    const timer = setTimeout(() => {
      hung = true;
      signalGroup(child, 'SIGKILL');
    }, options.timeoutMs);
    let killer: NodeJS.Timeout | undefined;
    const onAbort = (): void => {
      interrupted = true;
      signalGroup(child, 'SIGTERM');
      killer = setTimeout(() => signalGroup(child, 'SIGKILL'), TERM_GRACE_MS);
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted === true) onAbort();
    const settle = (): void => {
      clearTimeout(timer);
      clearTimeout(killer);
      options.signal?.removeEventListener('abort', onAbort);
    };
    child.once('error', (error: NodeJS.ErrnoException) => {
      settle();
      reject(notStarted(file, error));
    });
    child.once('exit', (code, signal) => {
      const durationMs = options.now() - started;
      // Whatever it started in its group goes with it.
      signalGroup(child, 'SIGKILL');
      const finish = (): void => {
        settle();
        if (interrupted) return reject(new InterruptedError());
        resolve({ exitCode: hung ? null : code, signal: hung ? null : signal, hung, stdout: stdout.text(), stderr: stderr.text(), durationMs });
      };
      const cut = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, STREAMS_GRACE_MS);
      // 'close' comes once both streams have ended (at once, or when cut).
      child.once('close', () => {
        clearTimeout(cut);
        finish();
      });
    });
  });
}
