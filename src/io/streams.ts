/**
 * The process's streams with their terminal and colour state, decided once.
 * Commands never touch process.stdout/stderr/stdin directly: they get this object from the
 * Context, so tests can run `main()` in-process with buffers and any TTY combination.
 */
import fs from 'node:fs';
import type { EnvRecord } from '../env.js';
import { envFlag, readEnv } from '../env.js';
import type { SetupError } from '../errors.js';
import { stdoutFailure } from './storage-errors.js';

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
   * Width of the terminal stderr shows on, which notes and warnings wrap to; undefined when
   * stderr is not a terminal (a log keeps each note on one line).
   */
  readonly stderrColumns: number | undefined;
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
  /**
   * Write to stdout (data only). Throws SetupError (exit 1) when stdout refuses the write (a
   * full disk, `> /dev/full`), so the command can say where the work it did went instead.
   */
  out(data: string | Uint8Array): void;
  /** Write to stderr (everything that is not data). Never throws: there is nowhere left to say it. */
  err(text: string): void;
  /** Why stdout failed after its last write (a terminal's error arrives later), if it did. */
  stdoutFailure(): SetupError | undefined;
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

/** The error a stream has met, unless it is EPIPE (the reader left: bin/kactl.js ends the run quietly). */
function streamError(stream: OutputStream): Error | undefined {
  const errored = (stream as { errored?: unknown }).errored;
  if (!(errored instanceof Error) || (errored as NodeJS.ErrnoException).code === 'EPIPE') return undefined;
  return errored;
}

/**
 * The file descriptor behind stdout when it is a file or a device (`> keys.txt`, `> /dev/full`).
 * Node writes those with one write(2) and ignores a short count, so a nearly full disk would drop
 * the end of a write without a word; kactl writes them itself, to the last byte or a clear error.
 */
function fileDescriptor(stream: OutputStream): number | undefined {
  const fd = (stream as { fd?: unknown }).fd;
  if (typeof fd !== 'number' || stream.isTTY === true) return undefined;
  try {
    const stat = fs.fstatSync(fd);
    return stat.isFile() || stat.isCharacterDevice() ? fd : undefined;
  } catch {
    return undefined;
  }
}

/** Writes all of `data` to `fd`; returns the bytes left when the file asks to wait (EAGAIN). */
function writeAll(fd: number, data: string | Uint8Array): Buffer | undefined {
  const bytes = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  let done = 0;
  while (done < bytes.length) {
    try {
      done += fs.writeSync(fd, bytes, done);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return bytes.subarray(done);
      throw error;
    }
  }
  return undefined;
}

/** stdout's writer: every refusal becomes SetupError at the write that met it. */
function stdoutWriter(stdout: OutputStream): (data: string | Uint8Array) => void {
  let fd: number | undefined | null = null;
  return (data) => {
    fd = fd === null ? fileDescriptor(stdout) : fd;
    const before = streamError(stdout);
    if (before) throw stdoutFailure(before);
    let rest: string | Uint8Array | undefined = data;
    if (fd !== undefined) {
      try {
        rest = writeAll(fd, data);
      } catch (error) {
        throw stdoutFailure(error);
      }
    }
    if (rest !== undefined) stdout.write(rest);
    const after = streamError(stdout);
    if (after) throw stdoutFailure(after);
  };
}

export function createIOStreams(options: StreamOptions): IOStreams {
  const { stdout, stderr, env } = options;
  const noColor = options.noColor ?? false;
  const stdinSource = options.stdin;
  const isStdinTTY = stdinSource.isTTY === true;
  const isStdoutTTY = stdout.isTTY === true;
  const isStderrTTY = stderr.isTTY === true;
  const inCI = envFlag(env, 'CI');
  // A terminal's width: COLUMNS when it names one (as most tools read it), else the terminal's own.
  const given = Number(readEnv(env, 'COLUMNS'));
  const widthOf = (stream: OutputStream): number | undefined => (Number.isInteger(given) && given > 0 ? given : stream.columns);
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
    columns: (isStdoutTTY ? widthOf(stdout) : undefined) ?? (isStderrTTY ? widthOf(stderr) : undefined) ?? 80,
    stderrColumns: isStderrTTY ? (widthOf(stderr) ?? 80) : undefined,
    canPrompt: () => isStdinTTY && isStderrTTY && !inCI,
    noPromptReason: isStdinTTY && isStderrTTY && inCI ? 'CI is set, so kactl does not ask' : 'there is no terminal to ask on',
    out: stdoutWriter(stdout),
    err: (text) => {
      try {
        stderr.write(text);
      } catch {
        // A stderr that cannot be written to leaves nowhere to report it.
      }
    },
    stdoutFailure: () => {
      const error = streamError(stdout);
      return error ? stdoutFailure(error) : undefined;
    },
  };
}
