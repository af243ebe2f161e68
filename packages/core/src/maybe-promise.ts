/** A value now, or a promise of it: what a read answers, synchronously when a cache holds it. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * `next(value)`: at once when `value` is not a promise, so that a read answered from a cache stays synchronous to the
 * end (graphql-js then completes a field without a promise or a microtask); once it settles otherwise.
 */
export function whenReady<T, R>(value: MaybePromise<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
