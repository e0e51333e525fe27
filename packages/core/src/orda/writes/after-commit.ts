/**
 * @module When a write's after-events run (`afterSave`, `afterDrop`: entity-events.ts): once the
 * write has committed, at once when no transaction is open, else when the process's transaction
 * commits (never, if it is cancelled). A caller that runs in slices runs a write with
 * `writeInSteps`: the after-events of what commits inside it wait for the write to return, then
 * run in steps (an event compiled from 4D stops where its code does), still after the commit and
 * once each: an after-event that loops holds no other client.
 */
import type { Work } from '../../query/slices.js'
import type { AfterEvents } from './entity-events.js'
import type { WriteDatastore } from './written-class.js'

// The after-events met while a `writeInSteps` write runs, which it runs in steps once the write
// returns; undefined: each runs as its write commits.
let held: AfterEvents[] | undefined

/** Runs `after` once the write just made has committed (see the module's comment). */
export function afterCommit(ds: WriteDatastore, after: AfterEvents): void {
  if (!ds.processes.anyTransaction) return committed(after)
  ds.processes.current().afterCommit(() => committed(after))
}

function committed(after: AfterEvents): void {
  if (held === undefined) after.run()
  else held.push(after)
}

/**
 * `write()` (a write `saveSteps` or `dropSteps` gives, or a transport's around it), then the
 * after-events of what it committed, in steps, as work: they run after the commit as they would,
 * and before this work ends. A write that throws after a commit (a reply that fails) still has
 * that commit's after-events run, then its error thrown.
 */
export function* writeInSteps<T>(write: () => T): Work<T> {
  const outer = held
  const mine: AfterEvents[] = []
  held = mine
  let result: { value: T } | { error: unknown }
  try {
    result = { value: write() }
  } catch (error) {
    result = { error }
  } finally {
    held = outer
  }
  for (const after of mine) yield* after.steps()
  if ('error' in result) throw result.error
  return result.value
}
