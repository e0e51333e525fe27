/**
 * @module Which Actor acts now: the one a REST request (or `ds.actAs`) runs its code as, followed
 * through awaits with an async context (async-scope.ts), so that a function's code after an await
 * is still its caller's, and a request interleaved with it never sees it. Code outside any actor
 * (the TypeScript API called directly, start-up, tests) has full rights.
 */
import type { Actor } from './actor.js'
import { asyncScope } from './async-scope.js'

const acting = asyncScope<Actor>()

/** The Actor acting on `scope` (a Datastore) now, if any. */
export function currentActor(scope: object): Actor | undefined {
  const actor = acting.get()
  return actor !== undefined && actor.scope === scope ? actor : undefined
}

/** Runs `fn` as `actor` (and what it schedules: its awaits, timers, callbacks). */
export function runActor<R>(actor: Actor, fn: () => R): R {
  return acting.run(actor, fn)
}

/**
 * The Actor acting now, whatever it acts on: what code that runs later on another's behalf (a
 * reply written in slices after the request's turn) captures, to run as it with `runActor`.
 */
export function actingNow(): Actor | undefined {
  return acting.get()
}
