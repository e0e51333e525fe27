/**
 * @module A consistent view of a store at one moment, for writers that read every row over many
 * turns of the event loop (a snapshot file, `--save`, a clone) while writes go on.
 *
 * It holds one view per table (table-view.ts, which says how a view costs O(1) to open and
 * memory only in proportion to the writes made while it is open), the global stamp and the
 * sequences. The table's half is a file of its own, below both the table that opens one and the
 * store: so the table need not import the store through this file.
 */
import type { SchemaDef } from '../schema/definitions.js'
import type { Store } from './store.js'
import type { TableView } from './table-view.js'

export interface StoreViewOptions {
  /**
   * @internal Rows up to which a table whose key order needs a sort is sorted at the opening
   * (tests set 0 to read such tables in row-id order). @default SORT_AT_OPEN
   */
  readonly sortUpTo?: number
}

/** A store as it was when the view was opened: its tables, global stamp and sequences. */
export class StoreView {
  readonly schema: SchemaDef
  readonly globalStamp: number
  readonly #tables: ReadonlyMap<string, TableView>

  constructor(store: Store, options: StoreViewOptions = {}) {
    this.schema = store.schema
    this.globalStamp = store.globalStamp
    this.#tables = new Map(
      store.schema.dataClasses.map((dc) => [
        dc.name,
        store.table(dc.name).openView(options.sortUpTo),
      ]),
    )
  }

  /** The view of dataclass `name`'s table. */
  table(name: string): TableView {
    const view = this.#tables.get(name)
    if (!view) throw new TypeError(`StoreView: no dataclass ${name}`)
    return view
  }

  /** Every table's view, in model order. */
  get tables(): TableView[] {
    return [...this.#tables.values()]
  }

  /** Ends the bookkeeping of every table (a writer may release a table as soon as it is done). */
  release(): void {
    for (const view of this.#tables.values()) view.release()
  }
}

/** A store, or what holds one (a Datastore). */
export type StoreSource = Store | { readonly store: Store }

export const storeOf = (source: StoreSource): Store => ('store' in source ? source.store : source)

/**
 * A consistent view of `source` as it is now (see the module): O(tables). Release it once read,
 * or every write to the store keeps the content it replaces.
 */
export function openStoreView(source: StoreSource, options?: StoreViewOptions): StoreView {
  return new StoreView(storeOf(source), options)
}
