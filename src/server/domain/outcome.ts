/**
 * How a domain operation that can be refused reports back. A failure carries a stable `code`
 * (so the seller API can word it its own way) and the client API's `message`, already taken
 * from the app's configurable messages where the protocol says so.
 *
 * Both may say `why` in plain words (the request inspector records it: src/server/README.md,
 * "The request inspector"): the rule that decided writes its reason where it decides, with the
 * values it compared ("HWID mismatch: the user is locked to 3f2a…, the request sent 9c1d…").
 * A reason never reaches the client and never holds a secret whole (mask it: domain/shown.ts).
 */
export interface Because {
  /** Why, in plain words. */
  readonly reason?: string | undefined;
  /** The end user the decision was about, when the request did not name them (a license's user). */
  readonly user?: string | undefined;
}

export interface Success<T> extends Because {
  readonly ok: true;
  readonly value: T;
}

export interface Failure<C extends string = string> extends Because {
  readonly ok: false;
  readonly code: C;
  readonly message: string;
}

export type Outcome<T, C extends string = string> = Success<T> | Failure<C>;

export function success<T>(value: T, because?: Because | string): Success<T> {
  return { ok: true, value, ...becauseOf(because) };
}

export function failure<C extends string>(code: C, message: string, because?: Because | string): Failure<C> {
  return { ok: false, code, message, ...becauseOf(because) };
}

function becauseOf(because: Because | string | undefined): Because {
  if (because === undefined) return {};
  return typeof because === 'string' ? { reason: because } : because;
}
