/**
 * Typed errors and the one exit-code table (docs/contracts.md, "Exit codes").
 * Commands and the protocol library only throw these; `main` maps them to exit codes,
 * and only bin/kactl.js ends the process.
 */
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

/** Base class: a message meant for the user (one sentence) and the exit code it maps to. */
export class KactlError extends Error {
  readonly exitCode: ExitCodeValue;
  /** Extra lines printed under the message (hints, next steps); never secrets. */
  readonly hints: readonly string[];
  constructor(message: string, exitCode: ExitCodeValue, options?: { cause?: unknown; hints?: readonly string[] }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.exitCode = exitCode;
    this.hints = options?.hints ?? [];
  }
}

/** A wrong flag, a missing argument, or an unknown command. `main` prints usage after it. */
export class UsageError extends KactlError {
  constructor(message: string, options?: { hints?: readonly string[] }) {
    super(message, ExitCode.usage, options);
  }
}

/** A value is needed and there is no terminal to ask on. Names the flag that would supply it. */
export class InputRequiredError extends KactlError {
  constructor(message: string, options?: { hints?: readonly string[] }) {
    super(message, ExitCode.usage, options);
  }
}

/** The server said `success:false`. `message` is the server's text, verbatim. */
export class ApiFailure extends KactlError {
  readonly body: Record<string, unknown>;
  readonly status: number;
  constructor(message: string, body: Record<string, unknown>, status: number, options?: { hints?: readonly string[] }) {
    super(message, ExitCode.failure, options);
    this.body = body;
    this.status = status;
  }
}

/** The seller key was refused, or the client session is unknown, expired or not validated. */
export class AuthError extends KactlError {
  readonly body: Record<string, unknown> | undefined;
  constructor(message: string, options?: { body?: Record<string, unknown>; hints?: readonly string[]; cause?: unknown }) {
    super(message, ExitCode.auth, options);
    this.body = options?.body;
  }
}

/** Unreachable host, timeout, 5xx, or a body that is not the JSON we expected. */
export class NetworkError extends KactlError {
  constructor(message: string, options?: { cause?: unknown; hints?: readonly string[] }) {
    super(message, ExitCode.network, options);
  }
}

/** A response failed its Ed25519 or HMAC check, or its timestamp is outside the window. */
export class SignatureError extends KactlError {
  constructor(message: string, options?: { hints?: readonly string[] }) {
    super(message, ExitCode.signature, options);
  }
}

/** Rate limited, and still so after the allowed retries. */
export class RateLimitError extends KactlError {
  constructor(message: string, options?: { hints?: readonly string[] }) {
    super(message, ExitCode.rateLimited, options);
  }
}

/** The user pressed Ctrl-C (or the process got SIGTERM). */
export class InterruptedError extends KactlError {
  constructor(message = 'Interrupted.', options?: { hints?: readonly string[] }) {
    super(message, ExitCode.interrupted, options);
  }
}

/**
 * A bulk job stopped part way (e.g. license creation): what was done is in `partial`,
 * which the command has already printed; the message says what is missing. Always exit 1,
 * whatever failed underneath (`cause`): the run made only part of what was asked.
 */
export class PartialFailure extends KactlError {
  readonly partial: unknown;
  constructor(message: string, partial: unknown, cause?: unknown) {
    super(message, ExitCode.failure, { cause });
    this.partial = partial;
  }
}

/**
 * This machine stopped the run: a file, folder or stream kactl must write is full, read-only or
 * forbidden (ENOSPC, EROFS, EACCES, EIO…), or a native module does not load in this Node. The
 * sentence names the path or stream and what to change (`KACTL_CONFIG_DIR`, `KACTL_DATA_DIR`, a
 * rebuild command). Exit 1: the run did not complete, and neither the command line (2) nor the
 * server (4) is at fault, so running the same thing again elsewhere or later would not help.
 */
export class SetupError extends KactlError {
  /** `stdout` when standard output itself failed: nothing more may be printed there. */
  readonly stream: 'stdout' | undefined;
  constructor(message: string, options?: { cause?: unknown; hints?: readonly string[]; stream?: 'stdout' }) {
    super(message, ExitCode.failure, options);
    this.stream = options?.stream;
  }
}

/**
 * The user declined a confirmation. Nothing was changed; exit 2 as gh does for a cancelled
 * prompt (the design's table has no code of its own for it).
 */
export class CancelledError extends KactlError {
  constructor(message = 'Cancelled; nothing was changed.') {
    super(message, ExitCode.usage);
  }
}
