/**
 * @module What 4D code reads and writes besides the data, told to core (its
 * sessions/session-reads.ts), so that a `restrict` answer is kept only while what its code read
 * holds (docs/security.md, "An answer never outlives what it read"):
 * - shared state, whose changes are told: `Storage` (commands/objects.ts), a shared or session
 *   singleton, an interprocess variable. 4D writes a shared object only inside `Use … End use` or
 *   a `shared Function` (on `This`): those are the writes told, as a write that spans the block
 *   (`useBegin`/`useEnd`, and shared-functions.ts, through use-lock.ts, which also locks the
 *   object's group). The block of a call in slices may stop inside: core serves no kept answer
 *   that read shared state until it ends (even between two of its steps), and its end drops them,
 *   so another request never reads an answer the half-done block made stale. A write outside
 *   them, which 4D refuses and the runtime lets through (compat.md), is not told.
 * - the session's own state: a session singleton (its changes told as shared state's), and
 *   `Session.storage`, which core notes and whose writes core tells.
 * - volatile state, changed untold: the clock (runtime.ts `now`), `Random`, a process variable or
 *   a process singleton (the request's own, which any of its code changes: their changes are told
 *   all the same, for the moment a volatile answer serves), an interprocess object that is not
 *   shared (changed in place).
 */
import { noteSessionRead, noteSharedRead, noteVolatileRead } from '@entistore/core'
import { raise } from '../errors/fourd-error.js'
import { isShared } from '../values/shared.js'
import { enterUse, leaveUse, type Held } from './use-lock.js'

/** What enters a `Use`: a running context, whose budget counts the tries of one that waits. */
interface Waiting {
  tick(): void
}

/**
 * What compiled code calls on `rt` (runtime.ts puts them on its prototype): `Use`'s bounds, each
 * a write of shared state and a lock of the object's group (use-lock.ts); the compiled block ends
 * it in a `finally`.
 */
export const useOps = {
  /** `Use (target)` in a plain function, which cannot wait: 9441 when it would. */
  useBegin(this: Waiting, target: unknown): Held {
    return enterUse(this, target, false) ?? raise('SharedInUse')
  },
  /**
   * `Use (target)` in a generator, given what the block entered last (`previous`): undefined
   * when it must wait (`useWait`).
   */
  useTry(this: Waiting, target: unknown, previous: Held | undefined): Held | undefined {
    return enterUse(this, target, true, previous)
  },
  /**
   * Waits, in steps, for the lock of `target`'s group: each try a pass of the budget, which reads
   * the clock, so a holder that never lets go ends the waiting call with 9410.
   */
  *useWait(
    this: Waiting,
    target: unknown,
    previous: Held | undefined,
  ): Generator<void, Held, void> {
    for (;;) {
      this.tick()
      yield
      const held = enterUse(this, target, true, previous)
      if (held !== undefined) return held
    }
  },
  /** `End use`. */
  useEnd(this: Waiting, held: Held): void {
    leaveUse(this, held)
  },
}

/** A read of the request's own state: a process variable, a process singleton. */
export function processRead(): void {
  noteVolatileRead()
  noteSharedRead()
}

/** A read of an interprocess variable's value `v`. */
export function interprocessRead(v: unknown): void {
  noteSharedRead()
  if (typeof v === 'object' && v !== null && !isShared(v)) noteVolatileRead()
}

/** A read of a singleton (`cs.X.me`, `cs.X.new()`) of a class declared as `kind` says. */
export function singletonRead(kind: {
  readonly shared: boolean
  readonly sessionSingleton: boolean
}): void {
  // A session singleton is the session's own, and shared: its shared functions tell its changes.
  if (kind.sessionSingleton) noteSessionRead()
  if (kind.shared || kind.sessionSingleton) noteSharedRead()
  else processRead()
}
