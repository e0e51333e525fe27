/**
 * @module Whether code read a session's own state, or only who the session is.
 *
 * A `restrict` event's answer is shared by every session of one view (the same user, holding the
 * same privileges): 99 sessions of one reader then cost one answer, not 99. That is sound only
 * when the answer depends on nothing else of the session. Code that runs a restrict is
 * deterministic given what it reads, so if it read the user and the privileges and nothing of the
 * session itself, another session of the same view takes the same path and gets the same answer.
 *
 * So the places that hand out a session's own state (its id, its data besides the user, its
 * storage, its session singletons, its tokens, its timeout, its owner) note the read here, and a
 * run that noted one keeps its answer for that session alone. The places that tell only who the
 * session is (its user, `hasPrivilege`, `getPrivileges`, `isGuest`) note nothing.
 *
 * Runs nest (a restrict whose query reaches another restricted dataclass): a read marks every
 * run open, since each answer depends on what the inner one read. Runs are synchronous (a
 * restrict answers at once), so a stack is enough.
 */
import type { Session } from './session-api.js'
import { SESSION_USER_KEY } from './session-user.js'

// One flag per open run, innermost last.
const runs: { bySession: boolean }[] = []

/** Notes that the running code read a session's own state (nothing outside a tracked run). */
export function noteSessionRead(): void {
  for (let i = 0; i < runs.length; i++) runs[i]!.bySession = true
}

/** Whether a tracked run is open (cheap: the places that note may skip their work otherwise). */
export function tracking(): boolean {
  return runs.length > 0
}

/** Runs `fn` and tells whether it (or anything it called) read a session's own state. */
export function readsOfSession<R>(fn: () => R): { value: R; bySession: boolean } {
  const run = { bySession: false }
  runs.push(run)
  try {
    const value = fn()
    return { value, bySession: run.bySession }
  } finally {
    runs.pop()
  }
}

const MAP_READS = new Set<PropertyKey>(['has', 'entries', 'keys', 'values', 'forEach', 'size'])

/**
 * `session` as code given it directly sees it (a restrict's `{ session }`): every read noted but
 * that of its user (`sessionUser(session)`), which tells who it is. Its methods and its data's run
 * on the session itself.
 */
export function trackedSession(session: Session): Session {
  let data: Map<string, unknown> | undefined
  return new Proxy(session, {
    get(target, property) {
      if (property !== 'data') {
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
