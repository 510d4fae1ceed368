/**
 * The Context's streams, output and prompts: built on first use from the process's streams and
 * the global options (`--no-color`, `--json`, `-o`, `--no-header`, `--verbose`), and built
 * anew when those change.
 */
import type { IOStreams } from '../io/streams.js';
import { createIOStreams } from '../io/streams.js';
import { Output } from '../io/output.js';
import type { Prompter } from '../io/prompter.js';
import type { GlobalOptions, SystemDeps } from './globals.js';

export class Terminal {
  private streams: IOStreams | undefined;
  private writer: Output | undefined;

  constructor(
    private readonly deps: SystemDeps,
    private readonly globals: () => GlobalOptions,
  ) {}

  /** The global options changed: streams and output follow the new ones. */
  reset(): void {
    this.streams = undefined;
    this.writer = undefined;
  }

  /** Depends on: the SystemDeps streams, `--no-color`. */
  get io(): IOStreams {
    this.streams ??= createIOStreams({ ...this.deps, noColor: !this.globals().color });
    return this.streams;
  }

  /** Depends on: io, `--json`, `-o`, `--no-header`. */
  get output(): Output {
    const globals = this.globals();
    this.writer ??= new Output(this.io, { json: globals.json, format: globals.output, header: globals.header });
    return this.writer;
  }

  /** A `--verbose` line on stderr (already redacted by the caller). */
  verbose(line: string): void {
    if (this.globals().verbose) this.io.err(`${line}\n`);
  }

  /**
   * @inquirer prompts (loaded lazily). Depends on: io, signal. It does not check for a terminal:
   * go through src/io/ask.ts, which refuses with InputRequiredError when there is none.
   */
  async prompter(): Promise<Prompter> {
    const { createPrompter } = await import('../io/prompter.js');
    return createPrompter(this.io, this.deps.signal);
  }
}
