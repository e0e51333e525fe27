/**
 * @module The running context of the 4D code now running. Compiled code receives it as `rt`;
 * what the runtime reaches without an argument (a computed property read through object
 * notation, `cs.X.me`) finds it here. 4D code runs synchronously, so one is current at a time:
 * `Runtime.run` sets it and restores the previous one on return and on throw.
 */
import type { Runtime } from './runtime.js'

let current: Runtime | undefined

/** The running context; an error of the host when no 4D code runs (a caller forgot `rt.run`). */
export function currentRuntime(): Runtime {
  if (current === undefined)
    throw new Error('no 4D code is running: call it through Runtime.run (a computed property)')
  return current
}

/**
 * Stack frames an error keeps while 4D code runs: enough for the compiled function that meets an
 * error to find its own line below the runtime's and the host's frames (error-flow.ts).
 */
const STACK_FRAMES = 64

/** Makes `rt` current for `fn`, then restores the previous one (and the stack's depth). */
export function withRuntime<T>(rt: Runtime, fn: () => T): T {
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
