/**
 * @module Code that runs later on its own, as 4D runs a worker's job: in a process of its own
 * (its transactions and its lock are its own), outside the call and the Actor of the code that
 * scheduled it, whose async context its timer would otherwise carry. What it does as someone is
 * said by its runner (`runActor` inside, for a job that acts as the one who queued it).
 */
import { outsideActors } from '../../access/acting.js'
import { runAsProcess } from '../processes.js'
import { outsideCalls } from './call-context.js'

/** Runs `fn` as a process of its own, outside any call and any Actor. */
export function detached<R>(fn: () => R): R {
  return outsideCalls(() => outsideActors(() => runAsProcess(fn)))
}
