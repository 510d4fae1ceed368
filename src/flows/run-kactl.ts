/**
 * What a flow needs of kactl: one command line run in this process through the real `main()`,
 * with captured streams. The command that runs flows (`kactl test`) hands the runner this
 * function (commands/demo/in-process.ts's inProcessRunner): flows sit below the commands and do not
 * import them (docs/architecture.md, "Layers").
 */
import type { EnvRecord } from '../env.js';

export interface InProcessOptions {
  env: EnvRecord;
  /** Fed to the command's stdin (e.g. for `--password-stdin`); stdin is closed after it. */
  input?: string;
  /** Present the captured stdout and stderr as a terminal (tables, ✓ marks). */
  terminal: boolean;
  columns: number;
  signal: AbortSignal;
  now: () => number;
}

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout and stderr interleaved as written. */
  combined: string;
}

export type RunKactl = (argv: readonly string[], options: InProcessOptions) => Promise<InProcessResult>;
