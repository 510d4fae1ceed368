/**
 * Where `licenses create` puts the keys it makes: stdout or an `--out` file (created new;
 * `--force` overwrites), one a line as they come, or one JSON array at the end (`--json`; YAML with `-o yaml`).
 *
 * A key counts as delivered only once the write that holds it has completed. When stdout or the
 * file refuses a write (a full disk, `> /dev/full`, a read-only folder), the sink keeps why and
 * takes nothing more; a file is cut back to its last whole write, so it never ends in half a key.
 * The keys it did not take are the caller's to put elsewhere (key-rescue.ts): none is lost.
 */
import fs from 'node:fs';
import type { Context } from '../../context.js';
import { SetupError, UsageError } from '../../errors.js';
import { pathFailure, storageErrno } from '../../io/storage-errors.js';

export interface KeySink {
  /** Writes `keys` (held back until `finish` with --json); false once the sink has failed. */
  add(keys: readonly string[]): boolean;
  /** Writes what waits for the end (--json), makes a file durable and closes it. Call once. */
  finish(all: readonly string[]): void;
  /** The keys the sink holds for certain. */
  readonly delivered: ReadonlySet<string>;
  /** Why the sink stopped taking keys, once it has. */
  readonly failure: SetupError | undefined;
  /** For messages: "on stdout" / "in keys.txt". */
  readonly where: string;
  /** For messages: "stdout" / "keys.txt". */
  readonly name: string;
  readonly isStdout: boolean;
}

export interface SinkOptions {
  /** Write the keys here instead of stdout. */
  out?: string;
  /** Overwrite `out` if it exists. */
  force: boolean;
  /** One document at the end instead of a key a line (`--json`, `-o yaml`): the keys' array as that text. */
  document: ((keys: readonly string[]) => string) | undefined;
}

/** What both sinks share: the delivered keys, the failure, and the line or JSON formatting. */
abstract class BaseSink implements KeySink {
  readonly delivered = new Set<string>();
  failure: SetupError | undefined;
  abstract readonly where: string;
  abstract readonly name: string;
  abstract readonly isStdout: boolean;

  constructor(private readonly document: ((keys: readonly string[]) => string) | undefined) {}

  /** Writes all of `text` or throws. */
  protected abstract write(text: string): void;
  /** Makes what was written durable and releases the sink. */
  protected abstract close(): void;
  /** The failure to keep for an error `write` or `close` threw. */
  protected abstract failureOf(error: unknown): SetupError;

  private deliver(text: string, keys: readonly string[]): boolean {
    if (this.failure !== undefined) return false;
    try {
      this.write(text);
    } catch (error) {
      this.failure = this.failureOf(error);
      return false;
    }
    for (const key of keys) this.delivered.add(key);
    return true;
  }

  add(keys: readonly string[]): boolean {
    if (this.document !== undefined || keys.length === 0) return this.failure === undefined;
    return this.deliver(keys.map((key) => `${key}\n`).join(''), keys);
  }

  finish(all: readonly string[]): void {
    if (this.document !== undefined) this.deliver(this.document(all), all);
    try {
      this.close();
    } catch (error) {
      // Whether the file holds what was written is unknown: every key goes elsewhere as well.
      this.failure ??= this.failureOf(error);
      this.delivered.clear();
    }
  }
}

class StdoutSink extends BaseSink {
  readonly where = 'on stdout';
  readonly name = 'stdout';
  readonly isStdout = true;

  constructor(
    private readonly ctx: Context,
    document: ((keys: readonly string[]) => string) | undefined,
  ) {
    super(document);
  }

  protected write(text: string): void {
    this.ctx.io.out(text);
  }

  protected close(): void {}

  protected failureOf(error: unknown): SetupError {
    if (error instanceof SetupError) return error;
    throw error;
  }
}

class FileSink extends BaseSink {
  readonly where: string;
  readonly isStdout = false;
  /** Bytes certainly in the file: a failed write is cut back to here. */
  private size = 0;

  constructor(
    private readonly ctx: Context,
    readonly name: string,
    private readonly fd: number,
    document: ((keys: readonly string[]) => string) | undefined,
  ) {
    super(document);
    this.where = `in ${name}`;
  }

  protected write(text: string): void {
    const bytes = Buffer.from(text);
    let done = 0;
    try {
      // A nearly full disk takes part of a write and refuses the rest: write to the last byte.
      while (done < bytes.length) done += fs.writeSync(this.fd, bytes, done, bytes.length - done, this.size + done);
    } catch (error) {
      try {
        fs.ftruncateSync(this.fd, this.size);
      } catch {
        // The keys of this write go elsewhere anyway; a partial last line is all this can leave.
      }
      throw error;
    }
    this.size += bytes.length;
  }

  protected close(): void {
    try {
      fs.fsyncSync(this.fd);
    } finally {
      fs.closeSync(this.fd);
    }
  }

  protected failureOf(error: unknown): SetupError {
    return pathFailure(error, this.name, this.ctx);
  }
}

/**
 * Opens the sink. A file that exists is refused without `force`; one that cannot be created says
 * why in one sentence. Both before any key is made.
 */
export function openSink(ctx: Context, options: SinkOptions): KeySink {
  if (options.out === undefined) return new StdoutSink(ctx, options.document);
  const file = options.out;
  let fd: number;
  try {
    // License keys are secrets: 0600 like backups, also when --force reuses an existing file.
    fd = fs.openSync(file, options.force ? 'w' : 'wx', 0o600);
    fs.fchmodSync(fd, 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new UsageError(`${file} already exists; add --force to overwrite it.`);
    if (storageErrno(error) !== undefined) throw pathFailure(error, file, ctx);
    throw new UsageError(`Can't write --out ${file} (${code ?? 'error'}).`);
  }
  return new FileSink(ctx, file, fd, options.document);
}
