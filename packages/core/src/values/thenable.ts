/**
 * @module Whether a value is a promise or any thenable: what an async function returns, and what a
 * synchronous caller refuses (a transaction's function). Below the functions and the writes that
 * ask it, so that neither imports the other for it.
 */

/** Whether `v` is a Promise or any then-able: what an async function returns. */
export const isThenable = (v: unknown): v is PromiseLike<unknown> =>
  (typeof v === 'object' || typeof v === 'function') &&
  v !== null &&
  typeof (v as { then?: unknown }).then === 'function'
