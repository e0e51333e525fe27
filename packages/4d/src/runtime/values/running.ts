/**
 * @module The slot that holds the running context while 4D code runs, and the stack depth an error
 * keeps meanwhile. It knows the context only as an object: runtime.ts sets it (`Runtime.run`) and
 * current.ts reads it as a Runtime, so that neither of those two imports the other.
 */

let current: object | undefined

/** The running context, or undefined when no 4D code runs. */
export function running(): object | undefined {
  return current
}

/**
 * Stack frames an error keeps while 4D code runs: enough for the compiled function that meets an
 * error to find its own line below the runtime's and the host's frames (error-flow.ts).
 */
const STACK_FRAMES = 64

/** Makes `rt` current for `fn`, then restores the previous one (and the stack's depth). */
export function withRuntime<T>(rt: object, fn: () => T): T {
  const previous = current
  const frames = Error.stackTraceLimit
  current = rt
  if (!(frames >= STACK_FRAMES)) Error.stackTraceLimit = STACK_FRAMES
  try {
    return fn()
  } finally {
    current = previous
    Error.stackTraceLimit = frames
  }
}
