/**
 * @module The page a reply writes: the entities of `$skip`/`$top` as they were when the request
 * was answered, however long its client takes to read it.
 *
 * Why not the entities themselves: a reply held them all from the start (`members()`), and a row
 * read is an `Entity` and a values object made for it (rows are kept in columns), about 190 bytes
 * for the company demo's Employee. Ten clients that asked for 100,000 rows and did not read held
 * 190 MB of them (a server at 160 MB RSS went to 350 MB, `entistore serve`), while the reply had
 * written two megabytes of each.
 *
 * A page holds the row ids alone (4 bytes a row), and reads each entity when its item is written.
 * What was written meanwhile is not shown: while pages are open, a commit listener keeps, for each
 * of their rows that a commit updates or deletes, the version it replaced (`before`, an entity
 * version is a frozen object), and the page reads that one. A reply of a page that nothing writes
 * to holds no entity; one whose rows are all rewritten while it is read holds what it held before.
 */
import { Entity, type Change, type Datastore, type EntitySelection } from '@entistore/core'

/** The live pages of each datastore, and its commit listener while there are any. */
interface Watch {
  readonly pages: Set<WeakRef<Page>>
  stop: (() => void) | undefined
}

const watches = new WeakMap<Datastore, Watch>()

export class Page {
  readonly length: number
  readonly #selection: EntitySelection
  readonly #rows: ArrayLike<number>
  readonly #ref: WeakRef<Page>
  #watch: Watch | undefined
  // Row ids of the page as bits, made when a commit first touches its table: which of a commit's
  // rows are the page's.
  #members: Uint8Array | undefined
  // The version each row had when the page was made, for the rows written since.
  #kept: Map<number, Entity | null> | undefined

  /** The window of `selection` from `skip`, at most `top` entities: read now, as row ids. */
  constructor(selection: EntitySelection, skip: number, top: number) {
    const part = selection.window(skip, top)
    this.#selection = part
    this.#rows = part.rowIds
    this.length = this.#rows.length
    this.#ref = new WeakRef(this)
    if (this.length > 0) this.#watch = watch(part.dataClass.datastore, this.#ref)
  }

  /** The entity at `index` as it was when the page was made, or null if it was deleted then. */
  at(index: number): Entity | null {
    const rowId = this.#rows[index]!
    const kept = this.#kept?.get(rowId)
    return kept !== undefined ? kept : this.#selection.dataClass.entityAt(rowId)
  }

  /**
   * The row id at `index` when the page reads the row as it is now (nothing written to it since
   * the page was made), undefined when it reads the version it kept.
   */
  current(index: number): number | undefined {
    const rowId = this.#rows[index]!
    return this.#kept?.has(rowId) === true ? undefined : rowId
  }

  /**
   * Stops following commits: the reply is written, or will not be. A page never released (its
   * client went away) stops when it is collected.
   */
  release(): void {
    const watch = this.#watch
    if (watch === undefined) return
    this.#watch = undefined
    this.#kept = undefined
    watch.pages.delete(this.#ref)
    if (watch.pages.size === 0) unwatch(watch)
  }

  /** Keeps what the page's rows were before `changes`. */
  keep(changes: readonly Change[]): void {
    const table = this.#selection.dataClass.table
    for (const change of changes) {
      if (change.op === 'insert' || change.table !== table) continue
      const rowId = change.before.rowId
      if (!this.#holds(rowId) || this.#kept?.has(rowId)) continue
      const before = change.before
      ;(this.#kept ??= new Map()).set(rowId, before instanceof Entity ? before : null)
    }
  }

  #holds(rowId: number): boolean {
    let bits = this.#members
    if (bits === undefined) {
      const rows = this.#rows
      let max = 0
      for (let i = 0; i < rows.length; i++) if (rows[i]! > max) max = rows[i]!
      bits = this.#members = new Uint8Array((max >> 3) + 1)
      for (let i = 0; i < rows.length; i++) bits[rows[i]! >> 3]! |= 1 << (rows[i]! & 7)
    }
    return rowId >> 3 < bits.length && (bits[rowId >> 3]! & (1 << (rowId & 7))) !== 0
  }
}

/** Pages beyond which a new one first drops those collected (on a datastore nothing writes to). */
const SWEEP_AT = 64

function watch(ds: Datastore, ref: WeakRef<Page>): Watch {
  let w = watches.get(ds)
  if (w === undefined) watches.set(ds, (w = { pages: new Set(), stop: undefined }))
  if (w.pages.size >= SWEEP_AT)
    for (const page of w.pages) if (page.deref() === undefined) w.pages.delete(page)
  w.pages.add(ref)
  if (w.stop === undefined) {
    const pages = w
    w.stop = ds.onCommit((changes) => told(pages, changes), { loadRows: false })
  }
  return w
}

function told(w: Watch, changes: readonly Change[]): void {
  for (const ref of w.pages) {
    const page = ref.deref()
    if (page === undefined) w.pages.delete(ref)
    else page.keep(changes)
  }
  if (w.pages.size === 0) unwatch(w)
}

function unwatch(w: Watch): void {
  w.stop?.()
  w.stop = undefined
}
