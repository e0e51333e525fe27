/**
 * @module The running context of the 4D code now running. Compiled code receives it as `rt`;
 * what the runtime reaches without an argument (a computed property read through object
 * notation, `cs.X.me`) finds it here. 4D code runs synchronously, so one is current at a time:
 * `Runtime.run` sets it (running.ts) and restores the previous one on return and on throw.
 */
import type { Runtime } from './runtime.js'
import { running } from '../values/running.js'

/** The running context; an error of the host when no 4D code runs (a caller forgot `rt.run`). */
export function currentRuntime(): Runtime {
  const current = running()
  if (current === undefined)
    throw new Error('no 4D code is running: call it through Runtime.run (a computed property)')
  // Only the Runtime sets the slot, with itself (runtime.ts): the slot's file does not name it.
  return current as Runtime
}
