/**
 * @module The rows of one dataclass: records by row id, the primary-key map, key order and
 * sequences. Reads are open to all; the mutators are called only by the datastore's commit, the
 * single place where data changes (so that stamps, indexes and later journals stay in step).
 */
import { IndexSet } from '../indexes/index-set.js'
import type { DataClassDef } from '../schema/definitions.js'
import type { EntityRecord, KeyValue } from './entity-record.js'

export const compareKeys = (a: KeyValue, b: KeyValue): number => (a < b ? -1 : a > b ? 1 : 0)

export class Table {
  readonly def: DataClassDef
  readonly #rows: (EntityRecord | undefined)[] = []
  // Key → the current record itself, not its row id: a lookup by key (get, joins) is then one
  // memory read fewer, and a commit swaps the record here as it does in #rows.
  readonly #byKey = new Map<KeyValue, EntityRecord>()
  // Row ids in key order. Appends with growing keys (autosequence) keep it sorted for free;
  // anything else marks it dirty and the next read sorts once.
  #ordered: number[] = []
  #orderedDirty = false
  // True once `#ordered` was handed out (selections keep it as their snapshot): the next append
  // copies it first, so a selection made before an insert does not grow.
  #orderedShared = false
  readonly #sequences = new Map<string, number>()
  #deletions = 0
  /** The indexes, updated by every mutator below. */
  readonly indexes: IndexSet

  constructor(def: DataClassDef) {
    this.def = def
    this.indexes = new IndexSet(def)
  }

  /** How many entities were ever deleted (row ids are never reused, so 0 means every slot is live). */
  get deletions(): number {
    return this.#deletions
  }

  /** Number of live entities. */
  get size(): number {
    return this.#byKey.size
  }

  /** The next free row id (row ids are never reused). */
  get nextRowId(): number {
    return this.#rows.length
  }

  record(rowId: number): EntityRecord | undefined {
    return this.#rows[rowId]
  }

  rowIdOf(key: KeyValue): number | undefined {
    return this.#byKey.get(key)?.rowId
  }

  recordByKey(key: KeyValue): EntityRecord | undefined {
    return this.#byKey.get(key)
  }

  /** Live row ids in primary-key order. The array is shared: do not modify it. */
  orderedRowIds(): readonly number[] {
    if (this.#orderedDirty) {
      this.#ordered = [...this.#byKey.values()]
        .sort((a, b) => compareKeys(a.key, b.key))
        .map((r) => r.rowId)
      this.#orderedDirty = false
    }
    this.#orderedShared = true
    return this.#ordered
  }

  /** The value the next autosequence of `attribute` will take, without consuming it. */
  peekSequence(attribute: string): number {
    return (this.#sequences.get(attribute) ?? 0) + 1
  }

  /** Records that `value` was used by `attribute`, so sequences continue after it. */
  noteSequence(attribute: string, value: number): void {
    if (value > (this.#sequences.get(attribute) ?? 0)) this.#sequences.set(attribute, value)
  }

  /** @internal The records by row id (holes for deleted rows), for tight loops. Do not modify. */
  get slots(): readonly (EntityRecord | undefined)[] {
    return this.#rows
  }

  /** Every live record, in row-id order. */
  *records(): IterableIterator<EntityRecord> {
    for (const r of this.#rows) if (r) yield r
  }

  /** Upper bound of row ids (the length of the row array): for bitmaps over rows. */
  get rowCapacity(): number {
    return this.#rows.length
  }

  // ---- mutators: datastore commit only ----

  /** @internal */
  insert(given: EntityRecord): void {
    const record = ownRecord(given)
    this.#rows[record.rowId] = record
    this.#byKey.set(record.key, record)
    this.indexes.insert(record)
    if (this.#orderedDirty) return
    const last = this.#ordered[this.#ordered.length - 1]
    if (last === undefined || compareKeys(this.#rows[last]!.key, record.key) < 0) {
      if (this.#orderedShared) {
        this.#ordered = this.#ordered.slice()
        this.#orderedShared = false
      }
      this.#ordered.push(record.rowId)
    } else this.#orderedDirty = true
  }

  /** @internal The key of a record never changes (4D forbids editing a primary key). */
  replace(given: EntityRecord): void {
    const record = ownRecord(given)
    const before = this.#rows[record.rowId]!
    this.#rows[record.rowId] = record
    this.#byKey.set(record.key, record)
    this.indexes.update(before, record)
  }

  /** @internal */
  delete(rowId: number): void {
    const record = this.#rows[rowId]
    if (!record) return
    this.#rows[rowId] = undefined
    this.#deletions++
    this.#byKey.delete(record.key)
    this.indexes.delete(record)
    this.#orderedDirty = true
  }
}

/**
 * The record to store: `given` itself when its view slot is free and writable (records made by
 * newRecord), else a copy. A record spread from another version would carry that version's
 * view, and a frozen one could not cache its own.
 */
function ownRecord(given: EntityRecord): EntityRecord {
  if (given.view === undefined && !Object.isFrozen(given)) return given
  return { ...given, view: undefined }
}
