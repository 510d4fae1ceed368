/**
 * Values that are ready now or later. Most requests are answered without waiting for anything
 * (a GET has no body to read, and most handlers are synchronous SQLite work), so the request
 * path passes plain values along and only turns into promises where something is awaited:
 * every `await` of a ready value still costs a trip through the microtask queue.
 */
export type MaybePromise<T> = T | Promise<T>;

export function isPromise<T>(value: MaybePromise<T>): value is Promise<T> {
  return value instanceof Promise;
}

/** `next(value)` now when the value is ready, else once it is. */
export function andThen<T, U>(value: MaybePromise<T>, next: (ready: T) => MaybePromise<U>): MaybePromise<U> {
  return isPromise(value) ? value.then(next) : next(value);
}
