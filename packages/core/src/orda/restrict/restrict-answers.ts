/**
 * @module The answers of `restrict` events kept, one per dataclass, view and data version
 * (restrict.ts): what lets 99 sessions of one reader cost one answer a write, not 99.
 *
 * An answer depends on the data (the store's version: every commit, load, restore and
 * `setGlobalStamp` moves it), on who asks, and on what else its code read
 * (sessions/session-reads.ts). Who asks is the view (access/actor.ts `view`: the roles file, the
 * user and the privileges in force); an answer whose code read the session's own state is kept
 * under the session's id as well, and serves it alone. Nothing else is a key: a promoted call and a plain request of the
 * same session are two views, and so never share an answer. An answer that read the session's own
 * state (its storage, its data) or shared state (4D's `Storage`) keeps the version of that state
 * and serves no read once it moved; one that read state that changes untold (the clock) is not
 * kept here at all.
 *
 * Bounded by bytes (an answer is a bitmap, a bit a row: 12.5 KB at 100,000 rows), least recently
 * used dropped first: a dropped answer is asked again, never served to another view.
 */
import { LRUCache } from 'lru-cache'
import type { Session } from '../../sessions/session-api.js'
import {
  SESSION_READ,
  SHARED_READ,
  sessionStateVersion,
  sharedStateAt,
  type Reads,
} from '../../sessions/session-reads.js'
import type { RowBitmap } from '../../sets/row-bitmap.js'

/**
 * One answer: the rows it lets through (undefined: no restriction), at which data version, and
 * what else its code read.
 */
export interface RestrictAnswer {
  readonly version: number
  readonly rows: RowBitmap | undefined
  /** What the code read besides the data and who asks (session-reads.ts's bits). */
  readonly reads: Reads
  /** The version of shared state its run ended at (what `SHARED_READ` holds it to). */
  readonly shared: number
  /** The version of its session's own state then (what `SESSION_READ` holds it to). */
  readonly own: number
}

/**
 * Whether `answer` still holds at data `version` for `session`: the shared state and the
 * session's own state it read unchanged too.
 */
export const holds = (
  answer: RestrictAnswer,
  version: number,
  session: Session | undefined,
): boolean =>
  answer.version === version &&
  ((answer.reads & SHARED_READ) === 0 || sharedStateAt(answer.shared)) &&
  ((answer.reads & SESSION_READ) === 0 || answer.own === sessionStateVersion(session))

/** Bytes of answers kept per datastore: 8,192 views of 100,000 rows' answers, or 64 of 10M. */
export const RESTRICT_ANSWER_BYTES = 100 * 1024 * 1024

// What an entry costs besides its bitmap: the key, the answer, the cache's own slots.
const ENTRY_BYTES = 200

export class RestrictAnswers {
  readonly #cache = new LRUCache<string, RestrictAnswer>({
    maxSize: RESTRICT_ANSWER_BYTES,
    sizeCalculation: (answer, key) => ENTRY_BYTES + key.length * 2 + (answer.rows?.byteLength ?? 0),
  })

  /**
   * The answer of `dataClass`'s restrict for `view` (and `session`, of id `id`, if the answer read
   * it) at data `version`, if kept and still holding.
   */
  get(
    dataClass: string,
    view: string,
    id: string,
    session: Session | undefined,
    version: number,
  ): RestrictAnswer | undefined {
    const forView = this.#cache.get(viewKey(dataClass, view))
    if (forView !== undefined && holds(forView, version, session)) return forView
    const own = this.#cache.get(sessionKey(dataClass, view, id))
    return own !== undefined && holds(own, version, session) ? own : undefined
  }

  /**
   * Keeps `answer` for the view, or for the session alone if it read the session (one that read
   * state changing untold is not given: restrict.ts).
   */
  set(dataClass: string, view: string, session: string, answer: RestrictAnswer): void {
    this.#cache.set(
      (answer.reads & SESSION_READ) !== 0
        ? sessionKey(dataClass, view, session)
        : viewKey(dataClass, view),
      answer,
    )
  }

  /** How many answers are kept (for tests and the explorer's figures). */
  get size(): number {
    return this.#cache.size
  }
}

const viewKey = (dataClass: string, view: string): string => `${dataClass}\u0001${view}`
const sessionKey = (dataClass: string, view: string, session: string): string =>
  `${dataClass}\u0001${view}\u0001${session}`

const byDatastore = new WeakMap<object, RestrictAnswers>()

/** The answers kept for `ds`. */
export function restrictAnswers(ds: object): RestrictAnswers {
  let answers = byDatastore.get(ds)
  if (answers === undefined) byDatastore.set(ds, (answers = new RestrictAnswers()))
  return answers
}
