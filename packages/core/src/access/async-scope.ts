/**
 * @module A value that follows the code it was set for through awaits, timers and callbacks, and
 * never into code that runs interleaved with it: the runtime's AsyncLocalStorage (Node, Deno,
 * Bun: found through `process.getBuiltinModule`, so that the core imports nothing of Node's and
 * still loads anywhere).
 *
 * Without AsyncLocalStorage (a browser), the value is known only while `run`'s function runs
 * synchronously: after its first await, `get()` answers undefined, never another caller's value.
 */

/** One kind of value carried through asynchronous code. */
export interface AsyncScope<T> {
  /** Runs `fn` with `value` as what `get()` answers inside it (and in what it schedules). */
  run<R>(value: T, fn: () => R): R
  /** The value of the innermost `run` around the code running now, if any. */
  get(): T | undefined
  /** Runs `fn` outside every `run` (and what it schedules): `get()` answers undefined there. */
  exit<R>(fn: () => R): R
}

interface Storage<T> {
  run<R>(value: T, fn: () => R): R
  exit<R>(fn: () => R): R
  getStore(): T | undefined
}

type StorageClass = (new <T>() => Storage<T>) & {
  /** A function that runs its argument in the async context current when it was made. */
  snapshot?: () => <R>(fn: () => R) => R
}

// Node, Deno and Bun give `process.getBuiltinModule`; elsewhere (a browser) there is none.
const AsyncLocalStorage = (
  globalThis as {
    process?: {
      getBuiltinModule?: (id: string) => { AsyncLocalStorage?: StorageClass } | undefined
    }
  }
).process?.getBuiltinModule?.('node:async_hooks')?.AsyncLocalStorage

/** A new scope: each has its own value (a function call's, the acting session's). */
export function asyncScope<T>(): AsyncScope<T> {
  if (AsyncLocalStorage) {
    const storage = new AsyncLocalStorage<T>()
    return {
      run: (value, fn) => storage.run(value, fn),
      get: () => storage.getStore(),
      exit: (fn) => storage.exit(fn),
    }
  }
  // The value of the `run` whose synchronous part is running.
  let current: T | undefined
  return {
    run(value, fn) {
      const before = current
      current = value
      try {
        return fn()
      } finally {
        current = before
      }
    },
    get: () => current,
    exit(fn) {
      const before = current
      current = undefined
      try {
        return fn()
      } finally {
        current = before
      }
    },
  }
}

/**
 * Runs a function later in the async context current now (every scope's value as it is here),
 * whoever calls it: what a queue shared by many callers needs, since the turn that runs a job is
 * scheduled by whichever caller came first. Without AsyncLocalStorage, the function as it is.
 */
export function contextNow(): <R>(fn: () => R) => R {
  return AsyncLocalStorage?.snapshot?.() ?? ((fn) => fn())
}
