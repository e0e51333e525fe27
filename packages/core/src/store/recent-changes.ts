/**
 * @module The rows the last writes changed, by table and data version: what brings an answer kept
 * at an older version up to date by testing those rows alone (a `restrict` query's rows, kept
 * between writes: orda/restrict/restrict-queries.ts), instead of running it over the whole table again.
 *
 * Bounded: the last `maxRows` changed rows. Past them, or across a load, a restore or a replay
 * (whose rows are not all told row by row), it answers "unknown" and the caller runs its work
 * again.
 */
import type { Change } from './changes.js'
import type { CommitInfo, Store } from './store.js'
import type { Table } from './table.js'

/** Changed rows remembered at most. */
export const RECENT_CHANGED_ROWS = 65_536

export class RecentChanges {
  readonly #store: Store
  readonly #maxRows: number
  // One entry a changed row, oldest first from #head: its table, row id and the version its
  // commit made.
  #tables: Table[] = []
  #rows: number[] = []
  #versions: number[] = []
  #head = 0
  // Changes since this version are all here (a version before it: unknown).
  #floor: number

  constructor(store: Store, maxRows = RECENT_CHANGED_ROWS) {
    this.#store = store
    this.#maxRows = maxRows
    this.#floor = store.version
    store.onCommit((changes, info) => this.#note(changes, info), { loadRows: false })
  }

  /**
   * The row ids of `table` inserted, updated or deleted after data version `since` (a row may come
   * several times), or undefined when not all of them are known.
   */
  since(table: Table, since: number): number[] | undefined {
    if (since < this.#floor) return undefined
    const out: number[] = []
    const versions = this.#versions
    for (let i = versions.length - 1; i >= this.#head && versions[i]! > since; i--)
      if (this.#tables[i] === table) out.push(this.#rows[i]!)
    return out
  }

  #note(changes: readonly Change[], info: CommitInfo): void {
    const version = this.#store.version
    if (info.kind !== 'write') {
      // Not told row by row: nothing before it can be brought forward.
      this.#clear(version)
      return
    }
    for (const c of changes) {
      this.#tables.push(c.table)
      this.#rows.push(c.op === 'insert' ? c.record.rowId : c.before.rowId)
      this.#versions.push(version)
    }
    const kept = this.#versions.length - this.#head
    if (kept > this.#maxRows) {
      const drop = kept - this.#maxRows
      // The versions of the rows dropped are no longer all known.
      this.#floor = this.#versions[this.#head + drop - 1]!
      this.#head += drop
      if (this.#head > this.#maxRows) this.#compact()
    }
  }

  #clear(version: number): void {
    this.#tables = []
    this.#rows = []
    this.#versions = []
    this.#head = 0
    this.#floor = version
  }

  // Drops the entries before #head from the arrays (amortized: once #head passes maxRows).
  #compact(): void {
    this.#tables = this.#tables.slice(this.#head)
    this.#rows = this.#rows.slice(this.#head)
    this.#versions = this.#versions.slice(this.#head)
    this.#head = 0
  }
}
