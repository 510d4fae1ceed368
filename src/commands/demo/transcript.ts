/**
 * The demo's transcript: section headings, then each step as `$ kactl …` followed by what that
 * command printed. A step that fails stops the demo with the step's exit code, so CI notices.
 */
import { Chalk } from 'chalk';
import type { Context } from '../../context.js';
import type { EnvRecord } from '../../env.js';
import { errorCodeForExit, KactlError } from '../../errors.js';
import type { InProcessResult, RunKactl } from '../../flows/run-kactl.js';
import { shellQuote } from '../../util/shell-quote.js';

export interface StepOptions {
  /** Sent to the command's stdin. */
  input?: string;
  /** Shown after the command line, e.g. `< password.txt` for what `input` stands for. */
  redirect?: string;
}


export class Transcript {
  private readonly color: InstanceType<typeof Chalk>;

  constructor(
    private readonly ctx: Context,
    private readonly env: EnvRecord,
    /** Runs each step's command line in this process (commands/demo/in-process.ts). */
    private readonly runKactl: RunKactl,
  ) {
    this.color = new Chalk({ level: ctx.io.stdoutColor ? 1 : 0 });
  }

  /** A heading for the next few steps. */
  section(title: string): void {
    this.ctx.io.out(`\n${this.color.bold.cyan(`# ${title}`)}\n`);
  }

  /** A line of narration. */
  say(text: string): void {
    this.ctx.io.out(`${this.color.dim(text)}\n`);
  }

  /** Runs `kactl <argv>`, shows it and its output, and returns what it printed. */
  async run(argv: readonly string[], options: StepOptions = {}): Promise<InProcessResult> {
    const shown = ['kactl', ...argv.map(shellQuote), ...(options.redirect ? [options.redirect] : [])].join(' ');
    this.ctx.io.out(`${this.color.green('$')} ${this.color.bold(shown)}\n`);
    const result = await this.runKactl(argv, {
      env: this.env,
      ...(options.input === undefined ? {} : { input: options.input }),
      terminal: this.ctx.io.isStdoutTTY,
      columns: this.ctx.io.columns,
      signal: this.ctx.signal,
      now: this.ctx.now,
    });
    this.ctx.io.out(result.combined);
    if (result.code !== 0) {
      throw new KactlError(`The demo stopped: \`${shown}\` exited ${result.code}.`, errorCodeForExit(result.code));
    }
    return result;
  }
}
