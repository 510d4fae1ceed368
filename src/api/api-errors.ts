/**
 * Finer-grained errors of the protocol library. Each one extends a class of errors.ts and so
 * keeps that class's code (a bad answer has its own, `BAD_ANSWER`); the extra fields let the
 * retry policy, the CLI and programs tell cases apart without parsing messages.
 */
import { NetworkError, RateLimitError } from './errors.js';

/** What went wrong below HTTP, or with the HTTP exchange itself. */
export type TransportFailureKind =
  | 'refused'
  | 'dns'
  | 'reset'
  | 'closed'
  | 'timeout'
  | 'connect-timeout'
  | 'unreachable'
  | 'tls'
  | 'truncated'
  | 'too-large'
  | 'redirect'
  | 'other';

/** The request did not produce a complete HTTP answer we can use (code `NETWORK`). */
export class TransportError extends NetworkError {
  readonly kind: TransportFailureKind;
  /** `host:port` the request went to. */
  readonly host: string;
  constructor(message: string, kind: TransportFailureKind, host: string, options?: { cause?: unknown; hints?: readonly string[] }) {
    super(message, options);
    this.kind = kind;
    this.host = host;
  }
}

/** Why a complete answer could not be used. */
export type BadResponseKind = 'server-error' | 'html' | 'not-json' | 'truncated-json' | 'empty' | 'not-object' | 'keyauth-invalid' | 'unexpected-shape';

/**
 * A complete HTTP answer that is not what the protocol promises: a 5xx, an HTML page, the bare
 * text `KeyAuth_Invalid`, JSON cut short (code `BAD_ANSWER`). Carries the status and a short,
 * redacted excerpt so a caller can show more.
 */
export class BadResponseError extends NetworkError {
  readonly kind: BadResponseKind;
  readonly status: number;
  readonly excerpt: string;
  /** The parsed body when it was a JSON object (a 5xx's `{"success":false,...}`). */
  readonly body: Record<string, unknown> | undefined;
  constructor(
    message: string,
    details: { kind: BadResponseKind; status: number; excerpt: string; body?: Record<string, unknown> },
    options?: { hints?: readonly string[] },
  ) {
    super(message, { ...options, code: 'BAD_ANSWER' });
    this.kind = details.kind;
    this.status = details.status;
    this.excerpt = details.excerpt;
    this.body = details.body;
  }
}

/**
 * One answer that refused the request as rate-limited (429, or a rate-limit message in the body).
 * The retry policy waits and tries again; if it escapes (no retries left) it is still `RATE_LIMITED`.
 */
export class RateLimitedAnswer extends RateLimitError {
  readonly status: number;
  /** The server's text, verbatim. */
  readonly serverMessage: string;
  /** Wait asked for by `Retry-After`, in ms, when the server sent one. */
  readonly retryAfterMs: number | undefined;
  readonly body: Record<string, unknown> | undefined;
  constructor(details: { status: number; serverMessage: string; retryAfterMs?: number; body?: Record<string, unknown> }) {
    super(`Rate limited by the server: ${details.serverMessage}`);
    this.status = details.status;
    this.serverMessage = details.serverMessage;
    this.retryAfterMs = details.retryAfterMs;
    this.body = details.body;
  }
}
