/**
 * @module Building changes: turning attribute values as written into new entity records, with every
 * check done before anything is applied. A batch of changes is validated as a whole (phase 1, may
 * throw) and then applied by the datastore's commit (phase 2, cannot fail): nothing is half-written.
 */
import { datastoreError, fail } from '../errors/datastore-error.js'
import { generatedBy, type DataClassDef, type StorageAttributeDef } from '../schema/definitions.js'
import {
  CoercionError,
  blankValue,
  coerceForAttribute,
  describeValue,
  type StoredValue,
} from '../values/coerce.js'
import type { BaseRows } from './base-rows.js'
import type { EntityRecord, KeyValue } from './entity-record.js'
import { HashIndex } from '../indexes/hash-index.js'
import { indexKey } from '../values/lazy-fold.js'
import type { Table } from './table.js'
import { ClaimedKeys } from './claimed-keys.js'
import { GLOBAL_STAMP } from '../schema/change-tracking.js'

export type Change =
  | { readonly op: 'insert'; readonly table: Table; readonly record: EntityRecord }
  | {
      readonly op: 'update'
      readonly table: Table
      readonly before: EntityRecord
      readonly after: EntityRecord
    }
  | { readonly op: 'delete'; readonly table: Table; readonly before: EntityRecord }

/** What a batch has claimed so far, per table: row ids, keys and sequence values not yet committed. */
export class BatchState {
  // Each made on first use: a single update (a batch of its own) claims none of them, and three
  // empty Maps were a fifth of the bytes it allocated.
  #rowIds: Map<Table, number> | undefined
  #keys: Map<Table, ClaimedKeys> | undefined
  // Per table, per attribute: keyed by objects, not by built strings (this runs for every row).
  #sequences: Map<Table, Map<string, number>> | undefined
  // While `attempt` runs: how to undo each claim made so far (null outside of one: a data load
  // claims a million rows and needs no undo, since a refused row rejects the whole load).
  #undo: (() => void)[] | null = null
  // Takes row ids and sequence values from the tables themselves, for a batch that stays open
  // across awaits (see the constructor).
  readonly #claimsInTables: boolean

  /**
   * `claimsInTables`: each row id and autosequence value this batch takes is taken from its table
   * at once (`Table.reserveRowId`, `noteSequence`), and never given back, as 4D's sequence numbers
   * are not: a batch that stays open while other writes commit (a transaction across awaits) then
   * never meets their row ids or keys when it commits. @default false
   */
  constructor(claimsInTables = false) {
    this.#claimsInTables = claimsInTables
  }

  /**
   * Runs `fn`; if it throws, every claim it made (row id, key, sequence values, unique values) is
   * given back before the error goes on. A transaction tries each write this way, so that a write
   * refused and caught inside it consumes nothing.
   */
  attempt<T>(fn: () => T): T {
    const outer = this.#undo
    const undo: (() => void)[] = []
    this.#undo = undo
    try {
      return fn()
    } catch (e) {
      for (let i = undo.length - 1; i >= 0; i--) undo[i]!()
      throw e
    } finally {
      this.#undo = outer
      if (outer) outer.push(...undo)
    }
  }

  // Records how to put `map`'s entry for `key` back as it is now.
  #keep<K, V>(map: Map<K, V>, key: K): void {
    if (!this.#undo) return
    const had = map.has(key)
    const before = map.get(key)
    this.#undo.push(() => (had ? map.set(key, before!) : map.delete(key)))
  }

  /** The row id `nextRowId` would give now, without taking it. */
  peekRowId(table: Table): number {
    return this.#rowIds?.get(table) ?? table.nextRowId
  }

  nextRowId(table: Table): number {
    if (this.#claimsInTables) return table.reserveRowId()
    const rowIds = (this.#rowIds ??= new Map())
    const next = rowIds.get(table) ?? table.nextRowId
    this.#keep(rowIds, table)
    rowIds.set(table, next + 1)
    return next
  }

  /**
   * Takes `n` row ids in a row and returns the first: a data load's batch, whose rows take the
   * ids that follow one another (one map update a batch, where nextRowId made one a row).
   */
  takeRowIds(table: Table, n: number): number {
    if (this.#claimsInTables)
      throw new TypeError("takeRowIds: the row ids of this batch are the tables' own")
    const rowIds = (this.#rowIds ??= new Map())
    const first = rowIds.get(table) ?? table.nextRowId
    this.#keep(rowIds, table)
    rowIds.set(table, first + n)
    return first
  }

  /**
   * Claims `key` for a new row of `table`; false, claiming nothing, when a row of the table or an
   * earlier claim of the batch holds it. One lookup of the batch's claims, and none of the table's
   * keys while it has none (a load into an empty table asked both maps for every row).
   */
  claimKey(table: Table, key: KeyValue): boolean {
    if (table.size > 0 && table.rowIdOf(key) !== undefined) return false
    const byTable = (this.#keys ??= new Map())
    let keys = byTable.get(table)
    if (!keys) byTable.set(table, (keys = new ClaimedKeys()))
    else if (keys.has(key)) return false
    keys.add(key)
    this.#undo?.push(() => keys.delete(key))
    return true
  }

  /** Gives back `key`, claimed by an insert that was dropped (a nested transaction cancelled). */
  releaseKey(table: Table, key: KeyValue): void {
    this.#keys?.get(table)?.delete(key)
  }

  /** True if `key` was inserted earlier in this batch (for references between new rows). */
  hasNewKey(table: Table, key: KeyValue): boolean {
    return this.#keys?.get(table)?.has(key) ?? false
  }

  nextSequence(table: Table, attr: string): number {
    const seqs = perTable((this.#sequences ??= new Map<Table, Map<string, number>>()), table)
    const next = Math.max(seqs.get(attr) ?? 0, table.peekSequence(attr) - 1) + 1
    this.#keep(seqs, attr)
    seqs.set(attr, next)
    if (this.#claimsInTables) table.noteSequence(attr, next)
    return next
  }

  noteSequence(table: Table, attr: string, value: number): void {
    const seqs = perTable((this.#sequences ??= new Map<Table, Map<string, number>>()), table)
    this.#keep(seqs, attr)
    seqs.set(attr, Math.max(seqs.get(attr) ?? 0, value, table.peekSequence(attr) - 1))
    if (this.#claimsInTables) table.noteSequence(attr, value)
  }
}

function perTable<V>(map: Map<Table, Map<string, V>>, table: Table): Map<string, V> {
  let inner = map.get(table)
  if (!inner) map.set(table, (inner = new Map()))
  return inner
}

/** Where a value came from, for error messages: `Employee[11].salary` or `Employee(5).salary`. */
export type Locate = (attribute?: string) => string

/**
 * Coerces one value for `attr`, turning a refusal into InvalidAttributeValue (1570) located by
 * `where(label)` (the attribute's name unless the value was given under another, a relation's).
 * `coerce` is the conversion: a data file's reads a picture's version too (file-binary.ts).
 */
export function coerceAt(
  dc: DataClassDef,
  attr: StorageAttributeDef,
  raw: unknown,
  where: Locate,
  label: string = attr.name,
  coerce: typeof coerceForAttribute = coerceForAttribute,
): StoredValue {
  try {
    return coerce(attr, raw)
  } catch (e) {
    if (!(e instanceof CoercionError)) throw e
    throw datastoreError(
      'InvalidAttributeValue',
      [describeValue(raw), attr.name, attr.type, dc.name, e.message],
      { details: { location: where(label), attribute: attr.name, dataClass: dc.name } },
    )
  }
}

export interface NewRecordInput {
  /**
   * Coerced values by storage position (`table.def.storage` order); undefined or null where none
   * was given. newRecord fills the generated ones in place: the array is the caller's scratch.
   */
  readonly values: (StoredValue | undefined)[]
  readonly stamp?: number
  readonly timestamp: number
}

/**
 * A new record for `table`: fills the key (autosequence or generated uuid) and other autosequence
 * attributes, checks not-null and key uniqueness against the table and the batch, claims the key.
 * Unique attributes other than the key are the caller's to check (a load against the table and the
 * batch, a transaction against its own view: see UniqueClaims and txn/).
 */
export function newRecord(
  table: Table,
  input: NewRecordInput,
  batch: BatchState,
  newUuid: () => string,
  where: Locate,
): EntityRecord {
  const key = fillNewRow(table, input.values, batch, newUuid, where)
  // Built in storage order, every attribute present: records of a dataclass share one shape.
  const values = table.makeValues(input.values as StoredValue[])
  return table.newVersion(batch.nextRowId(table), key, input.stamp ?? 1, input.timestamp, values)
}

/**
 * What `newRecord` checks and fills of a new row's values by storage position (`given`, changed in
 * place: afterwards every position holds a value or null): generated values, not-null, the key's
 * uniqueness, which it claims. Returns the key. The row id is the caller's to take
 * (`batch.nextRowId`), after its own checks. A data load calls this directly and writes the values
 * into its columns, with no record made (see ColumnInsert).
 */
export function fillNewRow(
  table: Table,
  given: (StoredValue | undefined)[],
  batch: BatchState,
  newUuid: () => string,
  where: Locate,
): KeyValue {
  const dc = table.def
  const storage = dc.storage
  for (let i = 0; i < storage.length; i++) {
    const attr = storage[i]!
    let v = given[i]
    if (v === undefined || v === null) {
      const generated = generatedBy(dc, attr)
      if (generated === 'sequence') v = batch.nextSequence(table, attr.name)
      else if (generated === 'uuid') v = normalizeNewUuid(newUuid())
      else if (attr.name === GLOBAL_STAMP) {
        // A row of a tracked dataclass loaded without a stamp: changed before any sync (4D gives
        // the rows of a table it starts tracking 0 too), so `__GlobalStamp >= 0` lists them all.
        v = 0
      } else if (attr.neverNull && (v = blankValue(attr.type)) !== null) {
        // 4D's "Map NULL values to blank values": a value not given is the type's blank.
      } else if (attr.notNull && attr !== dc.key) {
        fail(
          'InvalidAttributeValue',
          ['null', attr.name, attr.type, dc.name, 'the attribute does not accept null'],
          { details: { location: where(attr.name), attribute: attr.name, dataClass: dc.name } },
        )
      } else v = null
    } else if (attr.autosequence && typeof v === 'number') {
      batch.noteSequence(table, attr.name, v)
    }
    given[i] = v
  }
  const key = given[table.keyPosition]
  if (key === null || key === undefined) {
    return fail(
      'InvalidKey',
      ['null', dc.name, `the primary key "${dc.key.name}" is missing and is not autosequence`],
      { details: { location: where(dc.key.name) } },
    )
  }
  if (!batch.claimKey(table, key as KeyValue)) {
    return fail('DuplicateKey', [String(key), dc.name], {
      details: { location: where(dc.key.name) },
    })
  }
  return key as KeyValue
}

/**
 * The values of unique attributes (but the key) that a data load has claimed in one table: per
 * attribute, a hash index (hash-index.ts) over the load's own rows, whose keys it reads back from
 * the load's columns. A claim then makes no Set entry and, for an ASCII text, no folded copy: a Set
 * of 200,000 folded codes was a third of a load of short rows.
 */
export class UniqueClaims {
  // By storage position; undefined where the attribute is not unique, or is the key.
  readonly #claimed: (HashIndex | undefined)[]

  /** `read` gives the value the load stored for a row at a storage position. */
  constructor(table: Table, read: (rowId: number, position: number) => StoredValue) {
    this.#claimed = table.def.storage.map((attr, position) => {
      if (!attr.unique || attr === table.def.key) return undefined
      const folds = attr.type === 'string'
      return new HashIndex(attr.name, folds, (rowId) => indexKey(read(rowId, position), folds))
    })
  }

  /**
   * Makes room for `n` claims of each unique attribute while `more()` says so; true once made
   * (HashIndex.prepare: a claim past the room grows its index in one piece inside `add`).
   */
  prepare(n: number, more: () => boolean): boolean {
    for (const claims of this.#claimed) if (claims && !claims.prepare(n, more)) return false
    return true
  }

  /**
   * Refuses values of unique attributes (given by storage position) already held by an entity of
   * the table or claimed earlier in the load, then claims them for row `rowId`. Nulls never
   * conflict.
   */
  check(
    table: Table,
    values: readonly (StoredValue | undefined)[],
    rowId: number,
    where: Locate,
  ): void {
    const claimed = this.#claimed
    // The rows stored before the load: none for a load into an empty table (asking the table's
    // index for each row of a fresh load was a lookup that found nothing).
    const stored = table.size > 0
    for (let i = 0; i < claimed.length; i++) {
      const claims = claimed[i]
      const v = values[i]
      if (claims === undefined || v === null || v === undefined) continue
      const key = indexKey(v, claims.folds)
      if (
        (stored && heldByAnother(table.indexes.hashOf(claims.attribute)?.get(key), rowId)) ||
        !claims.addNew(key, rowId)
      ) {
        fail('UniqueViolation', [describeValue(v), claims.attribute, table.def.name], {
          details: { location: where(claims.attribute) },
        })
      }
    }
  }
}

/**
 * An insert a data load wrote straight into its columns (base-rows.ts), with no record made for
 * it: a record and its values object per row were most of a load's garbage. The commit stores the
 * row from the columns (`Table.insertIn`); `record` is made only if a commit listener reads it (a
 * cluster's log), then kept.
 */
export class ColumnInsert {
  readonly table: Table
  readonly base: BaseRows
  readonly rowId: number
  #record: EntityRecord | undefined

  constructor(table: Table, base: BaseRows, rowId: number) {
    this.table = table
    this.base = base
    this.rowId = rowId
  }

  get op(): 'insert' {
    return 'insert'
  }

  get record(): EntityRecord {
    return (this.#record ??= this.table.recordIn(this.base, this.rowId))
  }
}

/** Whether `holders` (row ids of a hash index's key) name a row other than `rowId`. */
function heldByAnother(holders: ArrayLike<number> | undefined, rowId: number): boolean {
  if (holders === undefined) return false
  for (let i = 0; i < holders.length; i++) if (holders[i] !== rowId) return true
  return false
}

function normalizeNewUuid(id: string): string {
  return id.replace(/-/g, '').toUpperCase()
}
