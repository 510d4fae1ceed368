/**
 * How a domain operation that can be refused reports back. A failure carries a stable `code`
 * (so the seller API can word it its own way) and the client API's `message`, already taken
 * from the app's configurable messages where the protocol says so.
 */
export interface Success<T> {
  readonly ok: true;
  readonly value: T;
}

export interface Failure<C extends string = string> {
  readonly ok: false;
  readonly code: C;
  readonly message: string;
}

export type Outcome<T, C extends string = string> = Success<T> | Failure<C>;

export function success<T>(value: T): Success<T> {
  return { ok: true, value };
}

export function failure<C extends string>(code: C, message: string): Failure<C> {
  return { ok: false, code, message };
}
