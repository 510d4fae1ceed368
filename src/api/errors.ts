/**
 * The errors of kactl as a library (`kactl`, `kactl/client`, `kactl/seller`, `kactl/sandbox`):
 * one class per kind of failure, each with a stable `code` a program can switch on, and the
 * server's own message where there is one. The library never prints, never exits and names no
 * command: the CLI maps codes to exit codes and adds its `kactl …` hints itself (src/errors.ts,
 * src/error-hints.ts).
 *
 * The classes form a small tree, so `instanceof NetworkError` still catches a bad answer
 * (BadResponseError, code `BAD_ANSWER`) and `instanceof RateLimitError` a single refused answer.
 */

/**
 * Every code an error of kactl carries. The library throws all of them but the last three, which
 * only the CLI's own errors use (a flag it could not parse, input it had no terminal to ask for,
 * a confirmation declined).
 */
export type KactlErrorCode =
  /** The server answered `success:false`; its message is the error's message. */
  | 'FAILURE'
  /** A job of many calls stopped part way; what was made is in `partial`. */
  | 'PARTIAL'
  /** This machine stopped the work: a file or folder that can't be written, a native module built for another Node. */
  | 'SETUP'
  /** A wrong argument or option: a value out of range, a state file that does not validate. */
  | 'USAGE'
  /** The seller key was refused, or the client session is missing, over or not logged in. */
  | 'AUTH'
  /** No complete answer: connection refused or reset, DNS, timeout, TLS. */
  | 'NETWORK'
  /** A complete answer that is not what the protocol promises: a 5xx, HTML, not JSON, a missing field. */
  | 'BAD_ANSWER'
  /** An answer's signature or timestamp failed the check. */
  | 'SIGNATURE'
  /** Still rate limited after the allowed retries. */
  | 'RATE_LIMITED'
  /** The caller's AbortSignal stopped the work. */
  | 'INTERRUPTED'
  /** CLI only. */
  | 'INPUT_REQUIRED'
  /** CLI only. */
  | 'CANCELLED';

export interface KactlErrorOptions {
  readonly cause?: unknown;
  /** Extra lines for people (next steps); never secrets. The library's own errors leave it empty. */
  readonly hints?: readonly string[];
}

/** Base class of every error kactl throws. */
export class KactlError extends Error {
  readonly code: KactlErrorCode;
  /** Extra lines for people, printed under the message by the CLI; never secrets. */
  readonly hints: readonly string[];
  constructor(message: string, code: KactlErrorCode, options?: KactlErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.hints = options?.hints ?? [];
  }
}

/** A wrong argument, option or input file: the caller has to change what it asked. */
export class UsageError extends KactlError {
  constructor(message: string, options?: KactlErrorOptions) {
    super(message, 'USAGE', options);
  }
}

/**
 * Why an ApiFailure says more than the server's refusal:
 * - `outdated-version`: `init` was refused as `invalidver`, the app wanting another version than
 *   `appVersion`; `body.download`, when not empty, is where the server sends outdated programs;
 * - `unsigned`: a 1.2 failure without its signature, let through so its message can be read
 *   (the server leaves a few unsigned): nothing else in `body` is vouched for.
 */
export type FailureReason = 'outdated-version' | 'unsigned';

/** The server said `success:false`. `message` is the server's text, verbatim; `body` the whole answer. */
export class ApiFailure extends KactlError {
  readonly body: Record<string, unknown>;
  readonly status: number;
  readonly reason: FailureReason | undefined;
  constructor(message: string, body: Record<string, unknown>, status: number, options?: KactlErrorOptions & { reason?: FailureReason }) {
    super(message, 'FAILURE', options);
    this.body = body;
    this.status = status;
    this.reason = options?.reason;
  }
}

/**
 * Why an AuthError was thrown:
 * - `no-session`: a client call needs a session and `init` has not opened one;
 * - `session-ended`: the server no longer knows the session (expired, logged out): open a new one;
 * - `session-unvalidated`: the session exists but no login, license or register validated it;
 * - `no-seller-key`: no seller key was given;
 * - `seller-key-missing`, `seller-key-length`, `unknown-seller-key`, `no-seller-plan`, `ip-restricted`, `app-banned`,
 *   `seller-key-refused`: the seller API refused the key (the server's message says how).
 */
export type AuthReason =
  | 'no-session'
  | 'session-ended'
  | 'session-unvalidated'
  | 'no-seller-key'
  | 'seller-key-missing'
  | 'seller-key-length'
  | 'unknown-seller-key'
  | 'no-seller-plan'
  | 'ip-restricted'
  | 'app-banned'
  | 'seller-key-refused';

/** The seller key was refused, or the client session is unknown, expired or not validated. */
export class AuthError extends KactlError {
  readonly body: Record<string, unknown> | undefined;
  readonly reason: AuthReason | undefined;
  constructor(message: string, options?: KactlErrorOptions & { body?: Record<string, unknown>; reason?: AuthReason }) {
    super(message, 'AUTH', options);
    this.body = options?.body;
    this.reason = options?.reason;
  }
}

/** No usable answer: unreachable host, timeout, reset; subclasses say more (src/api/api-errors.ts). */
export class NetworkError extends KactlError {
  constructor(message: string, options?: KactlErrorOptions & { code?: 'NETWORK' | 'BAD_ANSWER' }) {
    super(message, options?.code ?? 'NETWORK', options);
  }
}

/**
 * Why a SignatureError was thrown:
 * - `unsigned`: the signature header is missing;
 * - `bad-timestamp`: the signed timestamp is not a number of seconds;
 * - `stale`: the signed timestamp is outside the accepted window (a replay, or a clock off);
 * - `mismatch`: the signature does not match the body (changed on the way, or another key);
 * - `other-app`: a correctly signed answer for another application (its ownerid);
 * - `enckey-refused`: a 1.2 server says no encryption key was sent, though one was.
 */
export type SignatureReason = 'unsigned' | 'bad-timestamp' | 'stale' | 'mismatch' | 'other-app' | 'enckey-refused' | 'replay';

/** A response failed its Ed25519 or HMAC check, or its timestamp is outside the window. */
export class SignatureError extends KactlError {
  readonly reason: SignatureReason | undefined;
  /** `ed25519` (1.3) or `hmac` (1.2). */
  readonly scheme: 'ed25519' | 'hmac' | undefined;
  constructor(message: string, options?: KactlErrorOptions & { reason?: SignatureReason; scheme?: 'ed25519' | 'hmac' }) {
    super(message, 'SIGNATURE', options);
    this.reason = options?.reason;
    this.scheme = options?.scheme;
  }
}

/** Rate limited, and still so after the allowed retries. */
export class RateLimitError extends KactlError {
  constructor(message: string, options?: KactlErrorOptions) {
    super(message, 'RATE_LIMITED', options);
  }
}

/** The caller's AbortSignal (Ctrl-C in the CLI) stopped the work. */
export class InterruptedError extends KactlError {
  constructor(message = 'Interrupted.', options?: KactlErrorOptions) {
    super(message, 'INTERRUPTED', options);
  }
}

/**
 * A job of many calls stopped part way (licenses made in bulk, a state applied): what was done
 * is in `partial`; `cause` is what stopped it.
 */
export class PartialFailure extends KactlError {
  readonly partial: unknown;
  constructor(message: string, partial: unknown, cause?: unknown) {
    super(message, 'PARTIAL', { cause });
    this.partial = partial;
  }
}

/**
 * This machine stopped the work: a file, folder or stream that must be written is full,
 * read-only or forbidden (ENOSPC, EROFS, EACCES, EIO…), or a native module does not load in this
 * Node. The message names the path and what to change.
 */
export class SetupError extends KactlError {
  /** `stdout` when standard output itself failed (the CLI prints nothing more there). */
  readonly stream: 'stdout' | undefined;
  constructor(message: string, options?: KactlErrorOptions & { stream?: 'stdout' }) {
    super(message, 'SETUP', options);
    this.stream = options?.stream;
  }
}

/** True for any error kactl throws; narrows `unknown` in a catch. */
export function isKactlError(error: unknown): error is KactlError {
  return error instanceof KactlError;
}
