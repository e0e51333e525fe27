/**
 * @module A table as one open transaction sees it: its committed rows with the transaction's staged
 * versions over them (an update's values, a new entity on the row id it took, a drop as a deleted
 * row). What the query engine, the orderings, `all()`, a relation to many and a selection's
 * aggregates read instead of the table while the calling process has staged writes in it, so that
 * they find what 4D's process finds inside its transaction: its own creates, saves and drops.
 *
 * It answers the members the readers of rows ask (`has`, `record`, `reader`, the columns, the key
 * order…) and hides the table's indexes, which hold the committed values only: the planner sees
 * none, and a query it cannot answer otherwise scans the view. Most filters run on the committed
 * table instead, its indexes answering, and then test the staged rows alone (query/staged-rows.ts,
 * through `stagedOf`'s tester); a relation to many reads its foreign key's
 * bucket and the staged rows (orda/objects/data-class.ts). Every other member is the table's own. Made once per table, per state of the
 * transaction's writes and per version of the store (Transaction.view), from a copy of what was
 * staged then: an ordering made from it reads the same versions later.
 *
 * Nothing here runs for a process without staged writes: the readers ask
 * `Transaction.view` only when a transaction is open (processes.ts, `openTransactions`).
 */
import type { EntityRecord, KeyValue } from '../store/entity-record.js'
import type { Table } from '../store/table.js'
import { compareKeys } from '../store/key-order.js'
import type { ColumnReader } from '../store/table-columns.js'
import type { FoldedTexts } from '../store/folded-column.js'
import { VectorCursor } from '../store/vector-cursor.js'
import type { RowIds } from '../sets/row-ids.js'
import type { KeyComparer } from '../indexes/hash-key.js'
import type { IndexSet } from '../indexes/index-set.js'
import { fold } from '../values/fold.js'

/** One staged entity: its committed version (if any) and its staged one (null: dropped). */
export interface StagedVersion {
  readonly base: EntityRecord | undefined
  readonly current: EntityRecord | null
}

/**
 * `table` with `staged` (entity key → its versions) over it; `countChange` is how many entities
 * the transaction adds, net (Transaction.countChange).
 */
export function stagedTable(
  table: Table,
  staged: ReadonlyMap<KeyValue, StagedVersion>,
  countChange: number,
): Table {
  // Row id → staged version (null: dropped), and the same by key; copied now (see the module note).
  const rows = new Map<number, EntityRecord | null>()
  const keys = new Map<KeyValue, EntityRecord | null>()
  const created: EntityRecord[] = []
  let end = table.scanLength
  for (const [key, s] of staged) {
    // Null: an entity created and dropped in the transaction, which never was in the table.
    const rowId = (s.current ?? s.base)?.rowId
    keys.set(key, s.current)
    // A key it created, committed since by another process (its validation will fail): the
    // transaction reads its own entity under that key (or none, dropped), as a read by key does.
    const committed = s.base === undefined ? table.rowIdOf(key) : undefined
    if (committed !== undefined && committed !== rowId) rows.set(committed, null)
    if (rowId === undefined) continue
    rows.set(rowId, s.current)
    if (s.current !== null) {
      end = Math.max(end, rowId + 1)
      if (s.base === undefined) created.push(s.current)
    }
  }
  const own = (rowId: number): EntityRecord | null | undefined =>
    rows.has(rowId) ? rows.get(rowId)! : undefined
  const readers = new Map<string, ColumnReader>()
  const columns = new Map<string, unknown>()
  let ordered: RowIds | undefined

  const overrides: Partial<Record<keyof Table | typeof STAGING, unknown>> = {
    has: (rowId: number): boolean =>
      rows.has(rowId) ? rows.get(rowId) !== null : table.has(rowId),
    record: (rowId: number) => {
      const s = own(rowId)
      return s === undefined ? table.record(rowId) : (s ?? undefined)
    },
    keyOf: (rowId: number) => {
      const s = own(rowId)
      return s === undefined ? table.keyOf(rowId) : s?.key
    },
    stampOf: (rowId: number) => {
      const s = own(rowId)
      return s === undefined ? table.stampOf(rowId) : s?.stamp
    },
    timestampOf: (rowId: number) => {
      const s = own(rowId)
      return s === undefined ? table.timestampOf(rowId) : s?.timestamp
    },
    reader: (name: string): ColumnReader => {
      let read = readers.get(name)
      if (read === undefined) {
        const base = table.reader(name)
        read = (rowId) => {
          const s = own(rowId)
          return s === undefined ? base(rowId) : s?.values[name]
        }
        readers.set(name, read)
      }
      return read
    },
    vectorCursor: (name: string) => {
      const position = table.positionOf(name)
      if (position === undefined)
        throw new TypeError(`vectorCursor: ${table.def.name}.${name} is not a storage attribute`)
      return new VectorCursor((rowId) => view.record(rowId), position, name)
    },
    // A staged row is a record: the caller reads its value (undefined, as for a row written since).
    comparer: (name: string): KeyComparer => {
      const base = table.comparer(name)
      return (rowId, key) => (rows.has(rowId) ? undefined : base(rowId, key))
    },
    rowIdOf: (key: KeyValue) => (keys.has(key) ? keys.get(key)?.rowId : table.rowIdOf(key)),
    recordByKey: (key: KeyValue) =>
      keys.has(key) ? (keys.get(key) ?? undefined) : table.recordByKey(key),
    byKey: { get: (key: KeyValue) => view.rowIdOf(key) },
    size: table.size + countChange,
    // Some rows read as deleted here that the table has: whoever skips the liveness test when
    // nothing is deleted must test.
    deletions: table.deletions + rows.size,
    scanLength: end,
    rowCapacity: end,
    // Every row's value, for scans: the committed column copied, the staged rows' values over it.
    numericColumn: (name: string): Float64Array =>
      cached(`n:${name}`, () => {
        const out = new Float64Array(Math.max(table.numericColumn(name).length, end)).fill(NaN)
        out.set(table.numericColumn(name))
        return patched(out, name, numeric)
      }),
    foldedColumn: (name: string): FoldedTexts =>
      cached(`f:${name}`, () => stagedTexts(name, table.foldedColumn(name), end)),
    keyOrderIsRowOrder: false,
    orderedRowIds: (): RowIds => (ordered ??= keyOrder(table, rows, created)),
    isOrderedRowIds: () => false,
    typedOrder: () => undefined,
    indexes: committedOnly(table.indexes),
  }
  const view = proxyOf(table, overrides)
  // The same, but its columns hold the staged rows alone (a sparse array: no copy of the table's):
  // what tests the staged rows one by one (`stagedOf`).
  const tester = proxyOf(table, {
    ...overrides,
    numericColumn: (name: string) =>
      cached(`tn:${name}`, () => patched<number[]>([], name, numeric) as unknown as Float64Array),
    foldedColumn: (name: string) => cached(`tf:${name}`, () => stagedTexts(name, undefined, end)),
  })
  overrides[STAGING] = { committed: table, rows, tester } satisfies Staging
  return view

  function cached<T>(name: string, make: () => T): T {
    let column = columns.get(name) as T | undefined
    if (column === undefined) columns.set(name, (column = make()))
    return column
  }

  // The folded texts of the staged rows over those of `base` (none: the staged rows alone), where
  // a copy of the table's column cost a copy a row.
  function stagedTexts(name: string, base: FoldedTexts | undefined, length: number): FoldedTexts {
    const own = new Map<number, string | null>()
    for (const [rowId, s] of rows) own.set(rowId, folded(s?.values[name]))
    return {
      length: Math.max(length, base?.length ?? 0),
      at: (rowId) => {
        const v = own.get(rowId)
        return v !== undefined ? v : own.has(rowId) || base === undefined ? null : base.at(rowId)
      },
    }
  }

  function patched<C extends { [rowId: number]: unknown }>(
    out: C,
    name: string,
    value: (v: unknown) => C[number],
  ): C {
    for (const [rowId, s] of rows) out[rowId] = value(s?.values[name])
    return out
  }
}

const numeric = (v: unknown): number => (typeof v === 'number' ? v : NaN)
const folded = (v: unknown): string | null => (typeof v === 'string' ? fold(v) : null)

/** What a view made by `stagedTable` is made of (`stagedOf`). */
export interface Staging {
  /** The table itself, with its indexes, as every other process reads it. */
  readonly committed: Table
  /** The rows the view reads otherwise than the table: row id → staged version, null: gone. */
  readonly rows: ReadonlyMap<number, EntityRecord | null>
  /** The view, for tests of the staged rows alone (its columns hold only theirs). */
  readonly tester: Table
}

// The member of a view that says what it is made of: a table has none, and asking it costs every
// query outside a transaction one missing property (a WeakMap lookup cost more).
const STAGING = Symbol('staging')

/** What `table` is made of when it is a view of `stagedTable`, else undefined. */
export const stagedOf = (table: Table): Staging | undefined =>
  (table as { [STAGING]?: Staging })[STAGING]

/**
 * The live row ids of the view in key order: the table's, less those staged as dropped, merged
 * with the created ones (sorted by key).
 */
function keyOrder(
  table: Table,
  rows: ReadonlyMap<number, EntityRecord | null>,
  created: EntityRecord[],
): number[] {
  const committed = table.orderedRowIds()
  created.sort((a, b) => compareKeys(a.key, b.key))
  const out: number[] = []
  let c = 0
  for (let i = 0; i < committed.length; i++) {
    const rowId = committed[i]!
    if (rows.get(rowId) === null) continue
    const key = table.keyOf(rowId)!
    while (c < created.length && compareKeys(created[c]!.key, key) < 0)
      out.push(created[c++]!.rowId)
    out.push(rowId)
  }
  while (c < created.length) out.push(created[c++]!.rowId)
  return out
}

// The table's indexes hold committed values only: none is offered, so that a query scans.
function committedOnly(indexes: IndexSet): IndexSet {
  return proxyOf(indexes, { of: () => undefined, hashOf: () => undefined })
}

// `target` with `overrides` in place of its own members; its methods run on `target` itself (they
// read its private fields).
function proxyOf<T extends object>(target: T, overrides: Partial<Record<keyof T, unknown>>): T {
  const bound = new Map<PropertyKey, unknown>()
  return new Proxy(target, {
    get(t, prop) {
      if (Object.hasOwn(overrides, prop)) return overrides[prop as keyof T]
      const v: unknown = Reflect.get(t, prop)
      if (typeof v !== 'function') return v
      let fn = bound.get(prop)
      if (fn === undefined) bound.set(prop, (fn = (v as (...a: unknown[]) => unknown).bind(t)))
      return fn
    },
  })
}
