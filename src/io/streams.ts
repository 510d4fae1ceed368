/**
 * The process's streams with their terminal and colour state, decided once.
 * Commands never touch process.stdout/stderr/stdin directly: they get this object from the
 * Context, so tests can run `main()` in-process with buffers and any TTY combination.
 */
import type { EnvRecord } from '../env.js';
import { envFlag, readEnv } from '../env.js';

export interface InputStream extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
}
export interface OutputStream extends NodeJS.WritableStream {
  isTTY?: boolean;
  columns?: number;
}

export interface IOStreams {
  readonly stdin: InputStream;
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  readonly isStdinTTY: boolean;
  readonly isStdoutTTY: boolean;
  readonly isStderrTTY: boolean;
  /** Colour for what goes to stdout (tables). */
  readonly stdoutColor: boolean;
  /** Colour for what goes to stderr (notes, errors, prompts). */
  readonly stderrColor: boolean;
  /** Terminal width for tables and progress bars (80 when unknown). */
  readonly columns: number;
  /**
   * Whether we may ask the user something. Prompts are drawn on stderr and read from stdin,
   * so both must be terminals (stdout may be piped: `kactl licenses create > keys.txt` can
   * still ask for confirmation). Never in CI.
   */
  canPrompt(): boolean;
  /**
   * Why `canPrompt()` is false, for the error that names the flag instead: `CI is set` on a
   * terminal (saying "there is no terminal" there would be untrue), else `there is no terminal`.
   */
  readonly noPromptReason: string;
  /** Write to stdout (data only). */
  out(text: string): void;
  /** Write to stderr (everything that is not data). */
  err(text: string): void;
}

/**
 * Standard input made only when a command reads it (a prompt, `--password-stdin`): creating
 * `process.stdin` costs a networked command up to a few ms, most when it is a file or /dev/null
 * (as in CI), and most commands never read it. `isTTY` is known without it (`tty.isatty(0)`).
 */
export class LazyInput {
  private stream: InputStream | undefined;
  constructor(
    readonly isTTY: boolean,
    private readonly make: () => InputStream,
  ) {}

  open(): InputStream {
    this.stream ??= this.make();
    return this.stream;
  }
}

export interface StreamOptions {
  stdin: InputStream | LazyInput;
  stdout: OutputStream;
  stderr: OutputStream;
  env: EnvRecord;
  /** `--no-color` was given. */
  noColor?: boolean;
}

/**
 * Colour rules (cli/go-gh term/env.go): forced by FORCE_COLOR (anything but "0"), otherwise on
 * only for a terminal when neither NO_COLOR nor --no-color is set.
 */
function colorFor(isTTY: boolean, env: EnvRecord, noColor: boolean): boolean {
  const force = readEnv(env, 'FORCE_COLOR');
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (noColor || readEnv(env, 'NO_COLOR') !== undefined) return false;
  return isTTY;
}

export function createIOStreams(options: StreamOptions): IOStreams {
  const { stdout, stderr, env } = options;
  const noColor = options.noColor ?? false;
  const stdinSource = options.stdin;
  const isStdinTTY = stdinSource.isTTY === true;
  const isStdoutTTY = stdout.isTTY === true;
  const isStderrTTY = stderr.isTTY === true;
  const inCI = envFlag(env, 'CI');
  return {
    get stdin(): InputStream {
      return stdinSource instanceof LazyInput ? stdinSource.open() : stdinSource;
    },
    stdout,
    stderr,
    isStdinTTY,
    isStdoutTTY,
    isStderrTTY,
    stdoutColor: colorFor(isStdoutTTY, env, noColor),
    stderrColor: colorFor(isStderrTTY, env, noColor),
    columns: (isStdoutTTY ? stdout.columns : undefined) ?? (isStderrTTY ? stderr.columns : undefined) ?? 80,
    canPrompt: () => isStdinTTY && isStderrTTY && !inCI,
    noPromptReason: isStdinTTY && isStderrTTY && inCI ? 'CI is set, so kactl does not ask' : 'there is no terminal to ask on',
    out: (text) => {
      stdout.write(text);
    },
    err: (text) => {
      stderr.write(text);
    },
  };
}
