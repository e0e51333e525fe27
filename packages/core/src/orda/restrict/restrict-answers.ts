/**
 * @module The answers of `restrict` events kept, one per dataclass, view and data version
 * (restrict.ts): what lets 99 sessions of one reader cost one answer a write, not 99.
 *
 * An answer depends on the data (the store's version: every commit, load, restore and
 * `setGlobalStamp` moves it) and on who asks. Who asks is the view (access/actor.ts `view`: the
 * roles file, the user and the privileges in force); an answer whose code read the session's own
 * state (sessions/session-reads.ts) is kept under the session's id as well, and serves it alone.
 * Nothing else is a key: a promoted call and a plain request of the same session are two views,
 * and so never share an answer.
 *
 * Bounded by bytes (an answer is a bitmap, a bit a row: 12.5 KB at 100,000 rows), least recently
 * used dropped first: a dropped answer is asked again, never served to another view.
 */
import { LRUCache } from 'lru-cache'
import type { RowBitmap } from '../../sets/row-bitmap.js'

/** One answer: the rows it lets through (undefined: no restriction), at which data version. */
export interface RestrictAnswer {
  readonly version: number
  readonly rows: RowBitmap | undefined
  /** Whether the code read the session's own state: the answer is that session's alone. */
  readonly bySession: boolean
}

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
   * The answer of `dataClass`'s restrict for `view` (and `session`, if the answer read it) at data
   * `version`, if kept.
   */
  get(
    dataClass: string,
    view: string,
    session: string,
    version: number,
  ): RestrictAnswer | undefined {
    const shared = this.#cache.get(viewKey(dataClass, view))
    if (shared !== undefined && shared.version === version) return shared
    const own = this.#cache.get(sessionKey(dataClass, view, session))
    return own !== undefined && own.version === version ? own : undefined
  }

  /** Keeps `answer` for the view, or for the session alone if it read the session. */
  set(dataClass: string, view: string, session: string, answer: RestrictAnswer): void {
    this.#cache.set(
      answer.bySession ? sessionKey(dataClass, view, session) : viewKey(dataClass, view),
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
