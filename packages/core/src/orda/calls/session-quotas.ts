/**
 * @module 4D 21 R4's `Session.quotas` (a `4D.QuotaManager`): the entity-set quotas a function sets
 * for the session of its call, `currentCall().quotas`, under 4D's names. `nbEntitySets` (0: no
 * limit) bounds the sets the session keeps at once, past which a new one is refused with 429;
 * `defaultEntitySetTimeout` and `maxEntitySetTimeout` time the sets it makes from then on;
 * `currentValues` counts what it holds.
 *
 * The values live in the session's data (a plain object under one key), not in the set cache: they
 * follow the session when a login renews its id, go when it closes, and a shared session store
 * carries them to the other processes with the rest of its data. The entity-set cache reads them at
 * each set it keeps (sets/session-quota.ts) and applies them inside its configured bounds
 * (`maxSetsPerSession`, `maxTimeout`, …), which stay the outer limit.
 */
import { fail } from '../../errors/datastore-error.js'
import type { Session } from '../../sessions/session-api.js'
import { lifetimeOf, type Lifetimes, type SessionQuota } from '../../sets/session-quota.js'

/** The key of the quotas in `session.data`: a plain string, so that a shared session store keeps it. */
export const SESSION_QUOTAS_KEY = 'entistore.quotas'

/** The writable quotas, by 4D's names. */
export type QuotaName = 'nbEntitySets' | 'defaultEntitySetTimeout' | 'maxEntitySetTimeout'

/** What a session holds now (4D's `currentValues`): a count left out when it is 0, as 4D's is. */
export interface QuotaValues {
  /** Entity sets the session keeps now; undefined: none. */
  readonly nbEntitySets?: number
}

/**
 * 4D's `Session.quotas`. Each writable value takes a whole number above 0 (anything else throws
 * InvalidQuota, 9062), or undefined, which resets it to its default.
 */
export interface QuotaManager {
  /** Most entity sets the session keeps at once; 0 (the default): no limit of its own. */
  get nbEntitySets(): number
  set nbEntitySets(value: number | undefined)
  /**
   * Lifetime in seconds of the sets made from now on without `$timeout`: 7200 by default (the
   * datastore's `defaultTimeout`), read as it applies (at most `maxEntitySetTimeout`).
   */
  get defaultEntitySetTimeout(): number
  set defaultEntitySetTimeout(value: number | undefined)
  /**
   * Longest lifetime in seconds of the sets made from now on: a longer `$timeout` is brought down
   * to it. By default, and at most, the datastore's `maxTimeout`.
   */
  get maxEntitySetTimeout(): number
  set maxEntitySetTimeout(value: number | undefined)
  /** What the session holds now; read-only, a new object at each read. */
  readonly currentValues: QuotaValues
}

/** The quota `session` has set itself, if any. */
export function sessionQuota(session: Session): SessionQuota | undefined {
  return session.data.get(SESSION_QUOTAS_KEY) as SessionQuota | undefined
}

/** What the quotas read of the entity-set cache: its lifetimes, and a session's count of sets. */
export interface QuotaSource {
  /** The cache's default and longest lifetimes, in milliseconds. */
  readonly lifetimes: Lifetimes
  /** Sets the session of id `sessionId` keeps now (expired ones not counted). */
  setsOf(sessionId: string): number
}

/**
 * The quotas of the session `sessionOf()` gives (the call's, which may change during it) as 4D's
 * QuotaManager. Without a session (a call from TypeScript) it reads the defaults and refuses every
 * write, as `setPrivileges` does.
 */
export function quotaManager(
  source: QuotaSource,
  sessionOf: () => Session | undefined,
): QuotaManager {
  const own = (): SessionQuota | undefined => {
    const session = sessionOf()
    return session && sessionQuota(session)
  }
  const write = (name: QuotaName, value: number | undefined): void => {
    const session = sessionOf()
    if (!session)
      throw new Error(`quotas.${name}: this call has no session (it was not made over REST)`)
    // 4D's values are Integers, and it refuses one <= 0; NaN, fractions and text are refused too.
    if (value !== undefined && !(Number.isSafeInteger(value) && value > 0))
      fail('InvalidQuota', [name, value])
    const next: Record<string, number> = { ...(own() as Record<string, number> | undefined) }
    if (value === undefined) delete next[name]
    else next[name] = value
    if (Object.keys(next).length === 0) session.data.delete(SESSION_QUOTAS_KEY)
    else session.data.set(SESSION_QUOTAS_KEY, next)
  }
  return {
    get nbEntitySets() {
      return own()?.nbEntitySets ?? 0
    },
    set nbEntitySets(value) {
      write('nbEntitySets', value)
    },
    // Read as they apply to the next set, through the cache's own rule (no second copy of it).
    get defaultEntitySetTimeout() {
      return lifetimeOf(undefined, own(), source.lifetimes) / 1000
    },
    set defaultEntitySetTimeout(value) {
      write('defaultEntitySetTimeout', value)
    },
    get maxEntitySetTimeout() {
      return lifetimeOf(Infinity, own(), source.lifetimes) / 1000
    },
    set maxEntitySetTimeout(value) {
      write('maxEntitySetTimeout', value)
    },
    get currentValues() {
      const session = sessionOf()
      const sets = session ? source.setsOf(session.id) : 0
      return sets === 0 ? {} : { nbEntitySets: sets }
    },
  }
}

/**
 * Gives `session` the entity-set quota `nbEntitySets` unless it has one of its own: the web
 * server's `nbEntitySetsPerSession` (4D 21 R5), the default of the sessions it meets. The value
 * is then the session's `quotas.nbEntitySets`, which its code may change or reset.
 */
export function defaultEntitySetQuota(session: Session, nbEntitySets: number): void {
  const own = sessionQuota(session)
  if (own?.nbEntitySets !== undefined) return
  session.data.set(SESSION_QUOTAS_KEY, { ...own, nbEntitySets })
}
