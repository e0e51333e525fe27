/**
 * @module What 4D code reads and writes besides the data, told to core (its
 * sessions/session-reads.ts), so that a `restrict` answer is kept only while what its code read
 * holds (docs/security.md, "An answer never outlives what it read"):
 * - shared state, whose changes are told: `Storage` (commands/objects.ts), a shared or session
 *   singleton, an interprocess variable. 4D writes a shared object only inside `Use … End use` or
 *   a `shared Function` (on `This`): those are the writes told (`useBegin`/`useEnd`, and
 *   shared-functions.ts). A write outside them, which 4D refuses and the runtime lets through
 *   (compat.md), is not told.
 * - the session's own state: a session singleton (its changes told as shared state's), and
 *   `Session.storage`, which core notes and whose writes core tells.
 * - volatile state, changed untold: the clock (runtime.ts `now`), `Random`, a process variable or
 *   a process singleton (the request's own, which any of its code changes: their changes are told
 *   all the same, for the moment a volatile answer serves), an interprocess object that is not
 *   shared (changed in place).
 */
import {
  beginSharedWrite,
  endSharedWrite,
  noteSessionRead,
  noteSharedRead,
  noteVolatileRead,
} from '@entistore/core'
import { isShared } from '../values/shared.js'

/** What compiled code calls on `rt` (runtime.ts puts them on its prototype): `Use`'s bounds. */
export const useOps = {
  /** `Use (target)`: a write of shared state begins; the compiled block ends it in a `finally`. */
  useBegin(): void {
    beginSharedWrite()
  },
  useEnd(): void {
    endSharedWrite()
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
