/**
 * @module One table's half of a consistent view of a store (store-view.ts): the table opens it
 * (Table.openView) and tells it of its writes while it is open.
 *
 * A store's view costs O(tables) to open, not O(rows): a table's view keeps its current row slots (the
 * records in it are immutable, and a load's columns never change for the rows they hold: a write
 * replaces a slot), the table's key order (already shared copy-on-write with selections), and
 * copies of the global stamp and the sequences. While it is open, the table's mutators call
 * `preserve` before they write a slot of that array in place: the view keeps the slot's content
 * of the moment (copy-on-write per slot, once per slot), so a view costs memory in proportion to
 * the writes made while it is open, never to the rows. A restore gives the table a new array (the
 * old one is then the view's alone); a rewind truncates the array only past slots that were
 * already deleted (and so preserved).
 *
 * The key directory is not copied either: a key is found in the view through the table's
 * directory now, and, for a key deleted since (or moved by a restore), through the row id it had
 * when it left, which the table tells the view (`removed`). A row id found either way counts only
 * if the view's slot at it holds that key.
 *
 * Key order: most tables hold their rows in key order already (keys that grow as rows are added:
 * autosequence, exported ids); the view reads them in row-id order, which is the same. Another
 * table's key order array is shared with the view (the table copies it before its next change,
 * as for a selection). A table whose order needs a sort (keys inserted out of order) is sorted
 * at the view's opening when it holds at most SORT_AT_OPEN rows (a few milliseconds); a larger one
 * is read in row-id order instead, rather than sorting millions of keys on the event loop. A
 * snapshot and a data file load by key, so neither depends on the order of their rows.
 */
import type { DataClassDef } from '../schema/definitions.js'
import type { StoredValue } from '../values/coerce.js'
import { BaseRows } from './base-rows.js'
import type { KeyValue } from './entity-record.js'
import type { Slot, SlotArray } from './slot-array.js'
import type { ColumnReader } from './table-columns.js'

/** Rows of a table whose key order needs a sort, up to which a view sorts it when opened. */
export const SORT_AT_OPEN = 50_000

/** The key of the row in `slot` (row `rowId`), or undefined for an empty slot. */
export const slotKey = (slot: Slot, rowId: number): KeyValue | undefined =>
  slot instanceof BaseRows ? slot.key(rowId) : slot?.key

/** The stamp of the row in `slot`, or undefined for an empty slot. */
export const slotStamp = (slot: Slot, rowId: number): number | undefined =>
  slot instanceof BaseRows ? slot.stamp(rowId) : slot?.stamp

/** The timestamp of the row in `slot`, or undefined for an empty slot. */
export const slotTimestamp = (slot: Slot, rowId: number): number | undefined =>
  slot instanceof BaseRows ? slot.timestamp(rowId) : slot?.timestamp

/** The value at storage `position` (attribute `name`) of the row in `slot`. */
export const slotValue = (
  slot: Slot,
  rowId: number,
  position: number,
  name: string,
): StoredValue | undefined =>
  slot === undefined
    ? undefined
    : slot instanceof BaseRows
      ? slot.value(rowId, position)
      : slot.values[name]

/** What a table hands a view when it opens one (Table.openView). */
export interface TableViewParts {
  readonly def: DataClassDef
  readonly rows: SlotArray
  /**
   * Live row ids in key order, or undefined: read in row-id order (the key order too, or a large
   * table whose key order needs a sort).
   */
  readonly ordered: readonly number[] | undefined
  /** The live rows: as many as `rowIds` gives. */
  readonly size: number
  readonly sequences: ReadonlyMap<string, number>
  readonly autosequenced: readonly string[]
  readonly rowIdOf: (key: KeyValue) => number | undefined
  readonly positionOf: (name: string) => number | undefined
  /** Stops the table telling this view of its writes. */
  readonly close: () => void
}

/** One table as it was when its view was opened (see the module). */
export class TableView {
  readonly def: DataClassDef
  readonly autosequenced: readonly string[]
  /** The live rows at the opening: as many as `rowIds` gives. */
  readonly size: number
  readonly #parts: TableViewParts
  readonly #rows: SlotArray
  readonly #length: number
  // Slots written since the opening: their content then.
  readonly #saved = new Map<number, Slot>()
  // Keys that left their row id since the opening (deleted, or moved by a restore): that row id.
  readonly #removed = new Map<KeyValue, number>()
  readonly #readers = new Map<string, ColumnReader>()
  #open = true

  constructor(parts: TableViewParts) {
    this.#parts = parts
    this.def = parts.def
    this.autosequenced = parts.autosequenced
    this.size = parts.size
    this.#rows = parts.rows
    this.#length = parts.rows.length
  }

  /** @internal The table is about to write slot `rowId` of `rows` in place: keep its content. */
  preserve(rows: SlotArray, rowId: number): void {
    if (rows === this.#rows && rowId < this.#length && !this.#saved.has(rowId))
      this.#saved.set(rowId, rows.get(rowId))
  }

  /** @internal `key` is leaving row `rowId` of the table (a delete, a restore). */
  removed(key: KeyValue, rowId: number): void {
    if (!this.#removed.has(key) && this.keyOf(rowId) === key) this.#removed.set(key, rowId)
  }

  /** Whether the table still tells this view of its writes. */
  get open(): boolean {
    return this.#open
  }

  /** Stops the bookkeeping (the view must not be read afterwards). Idempotent. */
  release(): void {
    if (!this.#open) return
    this.#open = false
    this.#parts.close()
    this.#saved.clear()
    this.#removed.clear()
  }

  /** Slots written since the opening whose content the view keeps (for tests and measures). */
  get preserved(): number {
    return this.#saved.size
  }

  #slot(rowId: number): Slot {
    if (rowId >= this.#length) return undefined
    const saved = this.#saved.get(rowId)
    return saved !== undefined || this.#saved.has(rowId) ? saved : this.#rows.get(rowId)
  }

  /** Live row ids in key order (row-id order for a large table whose order needed a sort). */
  *rowIds(): IterableIterator<number> {
    const ordered = this.#parts.ordered
    if (ordered) yield* ordered
    else
      for (let i = 0; i < this.#length; i++)
        if (this.#saved.size === 0 ? this.#rows.has(i) : this.#slot(i) !== undefined) yield i
  }

  keyOf(rowId: number): KeyValue | undefined {
    return slotKey(this.#slot(rowId), rowId)
  }

  stampOf(rowId: number): number | undefined {
    return slotStamp(this.#slot(rowId), rowId)
  }

  timestampOf(rowId: number): number | undefined {
    return slotTimestamp(this.#slot(rowId), rowId)
  }

  /** The reader of storage attribute `name` by row id, as Table.reader, in the view. */
  reader(name: string): ColumnReader {
    let read = this.#readers.get(name)
    if (!read) {
      const position = this.#parts.positionOf(name)
      if (position === undefined)
        throw new TypeError(`reader: ${this.def.name}.${name} is not a storage attribute`)
      read = (rowId) => slotValue(this.#slot(rowId), rowId, position, name)
      this.#readers.set(name, read)
    }
    return read
  }

  /** The row id of `key` in the view, or undefined. */
  rowIdOf(key: KeyValue): number | undefined {
    const now = this.#parts.rowIdOf(key)
    if (now !== undefined && this.keyOf(now) === key) return now
    const before = this.#removed.get(key)
    return before !== undefined && this.keyOf(before) === key ? before : undefined
  }

  /** The value the next autosequence of `attribute` would have taken at the opening. */
  peekSequence(attribute: string): number {
    return (this.#parts.sequences.get(attribute) ?? 0) + 1
  }
}
