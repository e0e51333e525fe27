/**
 * @module Which Actor acts now: the one a REST request (or `ds.actAs`) runs its code as, followed
 * through awaits with an async context (async-scope.ts), so that a function's code after an await
 * is still its caller's, and a request interleaved with it never sees it. Code outside any actor
 * (the TypeScript API called directly, start-up, tests) has full rights.
 *
 * Each `runActor` opens a frame whose Actor the code inside may replace for the rest of that frame
 * (`actingFrame`): 4D's `Session.promote()` adds a privilege to "the current process" during the
 * calling function only, so a function's call runs in a frame of its own and a promotion made in it
 * ends with it, its awaits included, without touching its caller's frame.
 */
import type { Actor } from './actor.js'
import { asyncScope } from './async-scope.js'

/** Where the acting Actor is kept for the code of one `runActor`. */
export interface ActingFrame {
  /** The Actor acting in this frame now: its code may replace it for the rest of the frame. */
  actor: Actor
}

const acting = asyncScope<ActingFrame>()

/** The Actor acting on `scope` (a Datastore) now, if any. */
export function currentActor(scope: object): Actor | undefined {
  const actor = acting.get()?.actor
  return actor !== undefined && actor.scope === scope ? actor : undefined
}

/** Runs `fn` as `actor` (and what it schedules: its awaits, timers, callbacks), in a frame of its own. */
export function runActor<R>(actor: Actor, fn: () => R): R {
  return acting.run({ actor }, fn)
}

/**
 * The Actor acting now, whatever it acts on: what code that runs later on another's behalf (a
 * reply written in slices after the request's turn) captures, to run as it with `runActor`.
 */
export function actingNow(): Actor | undefined {
  return acting.get()?.actor
}

/** Runs `fn` (and what it schedules) as no Actor: with full rights, as code outside a request. */
export function outsideActors<R>(fn: () => R): R {
  return acting.exit(fn)
}

/** The innermost frame of the code running now, if any: its Actor may be replaced (see the module note). */
export function actingFrame(): ActingFrame | undefined {
  return acting.get()
}
