/** The roots every part of the Context grows from: the process's streams, env, signal and clock, and the parsed global options. */
import type { EnvRecord } from '../env.js';
import type { OutputFormat } from '../io/format.js';
import type { InputStream, LazyInput, OutputStream } from '../io/streams.js';

/** Options every command accepts (program-level and, hidden, on every leaf command). */
export interface GlobalOptions {
  profile?: string;
  json: boolean;
  output?: OutputFormat;
  yes: boolean;
  verbose: boolean;
  color: boolean;
  verify: boolean;
  baseUrl?: string;
  /** Seconds. */
  timeout?: number;
  appName?: string;
  ownerid?: string;
  appVersion?: string;
  publicKey?: string;
  /** False with `--no-header`: TSV and CSV lists without their header row. */
  header: boolean;
}

export const DEFAULT_GLOBALS: GlobalOptions = { json: false, yes: false, verbose: false, color: true, verify: true, header: true };

export interface SystemDeps {
  stdin: InputStream | LazyInput;
  stdout: OutputStream;
  stderr: OutputStream;
  env: EnvRecord;
  /** Aborted on Ctrl-C / SIGTERM. */
  signal: AbortSignal;
  now: () => number;
  /** Node version, platform and architecture (`kactl version`, `kactl doctor`). */
  runtime?: RuntimeInfo;
}

export interface RuntimeInfo {
  readonly node: string;
  readonly platform: string;
  readonly arch: string;
}
