/**
 * @module What code read besides the data and who the session is: a session's own state, shared
 * state, or state that changes untold. A `restrict` event's answer is kept (orda/restrict/) only
 * as long as what it read stays as it was; this module is how a run tells what it read.
 *
 * An answer is shared by every session of one view (the same user, holding the same privileges):
 * 99 sessions of one reader then cost one answer, not 99. Code that runs a restrict is
 * deterministic given what it reads, so if it read the data, the user and the privileges and
 * nothing else, another session of the same view takes the same path and gets the same answer,
 * until the data change (the store's version, which the answers are keyed by). Anything else it
 * read is noted here during a tracked run (`readsOf`), one bit each:
 * - `SESSION_READ`, the session's own state (its id, its data besides the user, its storage, its
 *   tokens, its timeout, its owner): the answer is that session's alone, and holds while that
 *   session's state does. Each change of it is told (`sessionStateChanged`: every change of its
 *   data, session-entry.ts, and each write of its storage, session-storage.ts) and moves the
 *   session's own version, which the answer keeps: a role chosen after login drops that
 *   session's answers, and no other session's.
 * - `SHARED_READ`, state whose every change is told here: what a host gives its code (4D's
 *   `Storage`, shared objects and singletons, interprocess variables, which @entistore/4d
 *   tells), or state of a TypeScript restrict's own. A change is told at once
 *   (`sharedStateChanged`), or as a write that spans code (`beginSharedWrite` …
 *   `endSharedWrite`: 4D's `Use … End use`), during which no answer that read shared state is
 *   served, since each write inside is not told. The answer keeps the version of that state its
 *   run ended at, and serves no read after the version moves. One version for all of it: a change
 *   anywhere drops every answer that read any of it, and those only.
 * - `VOLATILE_READ`, state that changes untold: the clock, a random number, a file, a process's
 *   variables, a TypeScript object's fields. The answer is not kept past the code that asked.
 * The places that tell only who the session is (its user, `hasPrivilege`, `getPrivileges`,
 * `isGuest`) note nothing.
 *
 * Code of a `--functions` module is TypeScript: what it reads of the session given to it (or of
 * `currentSession()`) is noted, its last access as volatile; a singleton's state, an object its
 * functions change untold, is volatile. Any other state it reads (a module's variable, a cache,
 * the data of a session store of its own, written directly) is its own to declare, with
 * `noteSharedRead` and `sharedStateChanged`, or `noteVolatileRead` (all public).
 *
 * Runs nest (a restrict whose query reaches another restricted dataclass): a read marks every run
 * open, since each answer depends on what the inner one read. Runs are synchronous (a restrict
 * answers at once), so a stack is enough.
 */
import type { Session } from './session-api.js'
import { SESSION_USER_KEY } from './session-user.js'

/** The session's own state was read: the answer is that session's, while its state holds. */
export const SESSION_READ = 1
/** State whose changes `sharedStateChanged` tells was read: kept while its version holds. */
export const SHARED_READ = 2
/** State that changes untold was read: the answer is not kept past the code that asked. */
export const VOLATILE_READ = 4

/** What a run read besides the data: `SESSION_READ`, `SHARED_READ`, `VOLATILE_READ` or'ed. */
export type Reads = number

// What each open run read, innermost last.
const runs: { reads: Reads }[] = []
// The version of shared state, and the writes of it open.
let version = 0
let writing = 0
// The version of each session's own state (by the session object: a store keeps one a session).
const ownVersions = new WeakMap<object, number>()

/** Notes that the running code read what `reads` says (nothing outside a tracked run). */
export function noteReads(reads: Reads): void {
  for (let i = 0; i < runs.length; i++) runs[i]!.reads |= reads
}

/**
 * Notes that the running code read the session's own state (its storage, its data): a `restrict`
 * answer that read it is that session's, dropped when `sessionStateChanged` tells its state moved.
 */
export function noteSessionRead(): void {
  noteReads(SESSION_READ)
}

/**
 * Notes that the running code read shared state: state whose every change is told by
 * `sharedStateChanged()` (4D's `Storage` as @entistore/4d keeps it, or state of your own that
 * you tell of). A `restrict` answer that read it is dropped at the next change.
 */
export function noteSharedRead(): void {
  noteReads(SHARED_READ)
}

/**
 * Notes that the running code read state that changes untold (the clock, a file, a variable of
 * your own): a `restrict` answer that read it serves only the code that asked, in that moment
 * (restrict.ts), and is asked again for the next read.
 */
export function noteVolatileRead(): void {
  noteReads(VOLATILE_READ)
}

/** Tells that shared state changed: every answer that read shared state is dropped. */
export function sharedStateChanged(): void {
  version++
}

/**
 * Opens a write of shared state (4D's `Use … End use`, a shared function): until the matching
 * `endSharedWrite()`, no kept answer that read shared state is served (each write inside is not
 * told one by one), and the end drops them all. Writes nest.
 */
export function beginSharedWrite(): void {
  writing++
  version++
}

/** Closes the write `beginSharedWrite()` opened. */
export function endSharedWrite(): void {
  writing--
  version++
}

/** Whether shared state is as it was at `at` (a version), no write of it under way. */
export function sharedStateAt(at: number): boolean {
  return at === version && writing === 0
}

/** Tells that `session`'s own state changed (its data, its storage, its timeout). */
export function sessionStateChanged(session: object): void {
  ownVersions.set(session, (ownVersions.get(session) ?? 0) + 1)
}

/** The version of `session`'s own state now (0 for none: nothing of it to change). */
export function sessionStateVersion(session: object | undefined): number {
  return session === undefined ? 0 : (ownVersions.get(session) ?? 0)
}

/** Whether a tracked run is open (cheap: the places that note may skip their work otherwise). */
export function tracking(): boolean {
  return runs.length > 0
}

/**
 * Runs `fn` and tells what it (or anything it called) read besides the data, and the version of
 * shared state it ended at: what it read is as it left it (code that writes the state it reads
 * is answered as its run left it).
 */
export function readsOf<R>(fn: () => R): { value: R; reads: Reads; version: number } {
  const run = { reads: 0 }
  runs.push(run)
  try {
    const value = fn()
    return { value, reads: run.reads, version }
  } finally {
    runs.pop()
  }
}

const MAP_READS = new Set<PropertyKey>(['has', 'entries', 'keys', 'values', 'forEach', 'size'])

/**
 * `session` as code given it directly sees it (a restrict's `{ session }`): every read noted but
 * that of its user (`sessionUser(session)`), which tells who it is; its last access, which every
 * request moves untold, as volatile. Its methods and its data's run on the session itself.
 */
export function trackedSession(session: Session): Session {
  let data: Map<string, unknown> | undefined
  return new Proxy(session, {
    get(target, property) {
      if (property !== 'data') {
        if (property === 'lastAccess') noteVolatileRead()
        noteSessionRead()
        const value: unknown = Reflect.get(target, property, target)
        return typeof value === 'function'
          ? (value as (...a: unknown[]) => unknown).bind(target)
          : value
      }
      return (data ??= trackedData(target.data))
    },
  })
}

// A session's data where reading its user notes nothing and any other read notes one.
function trackedData(map: Map<string, unknown>): Map<string, unknown> {
  return new Proxy(map, {
    get(target, property) {
      if (property === 'get')
        return (key: string) => {
          if (key !== SESSION_USER_KEY) noteSessionRead()
          return target.get(key)
        }
      if (MAP_READS.has(property) || property === Symbol.iterator) noteSessionRead()
      const value: unknown = Reflect.get(target, property, target)
      return typeof value === 'function'
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value
    },
  })
}
