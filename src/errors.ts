/**
 * The CLI's side of errors: the one exit-code table (docs/contracts.md, "Exit codes"), the map
 * from the library's error codes to it, and the errors only the CLI throws. The error classes
 * themselves are the library's (src/api/errors.ts, re-exported here so commands import one
 * module); `main` maps them to exit codes and adds the CLI's hints (src/error-hints.ts), and only
 * bin/kactl.js ends the process.
 */
import { KactlError, UsageError } from './api/errors.js';
import type { KactlErrorCode, KactlErrorOptions } from './api/errors.js';

export {
  ApiFailure,
  AuthError,
  InterruptedError,
  isKactlError,
  KactlError,
  NetworkError,
  PartialFailure,
  RateLimitError,
  SetupError,
  SignatureError,
  UsageError,
} from './api/errors.js';
export type { AuthReason, FailureReason, KactlErrorCode, KactlErrorOptions, SignatureReason } from './api/errors.js';

export const ExitCode = {
  ok: 0,
  /**
   * The server answered `success:false`, a bulk job ended short, or this machine would not let
   * the run finish (a full or read-only disk, a closed output, a native module built for another
   * Node): the run did not complete, and neither the command line (2) nor the network (4) is
   * what to fix.
   */
  failure: 1,
  /** Bad flag or argument, or input needed while there is no terminal. */
  usage: 2,
  /** Seller key refused, or client session invalid or expired. */
  auth: 3,
  /** Unreachable host, timeout, server fault, or a body that is not the expected JSON. */
  network: 4,
  /** A response signature or its timestamp failed the check. */
  signature: 5,
  /** Still rate limited after the allowed retries. */
  rateLimited: 6,
  /** Ctrl-C or SIGTERM. */
  interrupted: 130,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * What each exit code means, for people: `kactl help exit-codes` and the program's help are
 * written from this table, so the two never disagree with the codes above.
 */
export const EXIT_CODE_MEANINGS: Readonly<Record<keyof typeof ExitCode, string>> = {
  ok: 'Done as asked.',
  failure:
    'The server answered success:false (its message is printed), a bulk job made only part of what was asked, or this machine stopped the run: a file, folder or output kactl must write is full, read-only or forbidden, or the sandbox\'s native module was built for another Node (the message names the path and what to change).',
  usage: 'A wrong flag or argument, a cancelled confirmation, or input needed while there is no terminal to ask on.',
  auth: 'The seller key was refused, or the client session is unknown, expired or not validated.',
  network: 'The server could not be reached, timed out, failed (5xx), or answered something that is not the expected JSON.',
  signature: "A response's signature or its timestamp failed the check, or the answer was one already accepted (a replay); --no-verify skips the checks, with a warning.",
  rateLimited: 'The server still refused for rate limiting after the allowed retries.',
  interrupted: 'Interrupted by Ctrl-C or SIGTERM.',
};

/**
 * The exit code of each error code. `FAILURE`, `PARTIAL` and `SETUP` share 1: the run did not
 * complete, and neither the command line (2) nor the network (4) is what to fix.
 */
export const EXIT_CODE_OF: Readonly<Record<KactlErrorCode, ExitCodeValue>> = {
  FAILURE: ExitCode.failure,
  PARTIAL: ExitCode.failure,
  SETUP: ExitCode.failure,
  USAGE: ExitCode.usage,
  INPUT_REQUIRED: ExitCode.usage,
  CANCELLED: ExitCode.usage,
  AUTH: ExitCode.auth,
  NETWORK: ExitCode.network,
  BAD_ANSWER: ExitCode.network,
  SIGNATURE: ExitCode.signature,
  RATE_LIMITED: ExitCode.rateLimited,
  INTERRUPTED: ExitCode.interrupted,
};

/** The exit code `main` returns for an error of kactl. */
export function exitCodeOf(error: KactlError): ExitCodeValue {
  return EXIT_CODE_OF[error.code];
}

/** The error code that stands for an exit code (a child kactl's, in the demo); 1 for any other. */
export function errorCodeForExit(exit: number): KactlErrorCode {
  const found = (Object.keys(EXIT_CODE_OF) as KactlErrorCode[]).find((code) => EXIT_CODE_OF[code] === exit);
  return found ?? 'FAILURE';
}

/** A value is needed and there is no terminal to ask on. Names the flag that would supply it. */
export class InputRequiredError extends KactlError {
  constructor(message: string, options?: KactlErrorOptions) {
    super(message, 'INPUT_REQUIRED', options);
  }
}

/**
 * The user declined a confirmation. Nothing was changed; exit 2 as gh does for a cancelled
 * prompt (the design's table has no code of its own for it).
 */
export class CancelledError extends KactlError {
  constructor(message = 'Cancelled; nothing was changed.') {
    super(message, 'CANCELLED');
  }
}

/** Whether `main` prints "Run '… --help' for usage." after the error: a slip on the command line. */
export function wantsUsageLine(error: KactlError): boolean {
  return error instanceof UsageError;
}
