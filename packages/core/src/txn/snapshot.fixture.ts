/**
 * @module For tests: a deep copy of everything a store holds, to compare before and after (not
 * built into the package). Two snapshots are equal (`toEqual`) only if the rows, their versions, the
 * row-id and key bookkeeping, the sequences, every index's content in its own order, every numeric
 * and folded column and the global stamp are the same.
 *
 * Reading a column makes it if it did not exist (`Table.numericColumn`): take the first snapshot
 * before the writes under test, so that both see the same columns.
 */
import type { SortKey } from '../values/compare.js'
import type { KeyValue } from '../store/entity-record.js'
import type { Store } from '../store/store.js'
import type { Table } from '../store/table.js'
import { NUMERIC_COLUMN_TYPES } from '../store/table-columns.js'

export interface RowSnapshot {
  readonly rowId: number
  readonly key: KeyValue
  readonly stamp: number
  readonly timestamp: number
  readonly values: Readonly<Record<string, unknown>>
}

export interface IndexSnapshot {
  /** The hash index's buckets in its own iteration order, each bucket's row ids as stored. */
  readonly hash: readonly (readonly [SortKey, readonly number[]])[] | undefined
  readonly sorted:
    { readonly keys: readonly SortKey[]; readonly rows: readonly number[] } | undefined
}

export interface TableSnapshot {
  /** Every slot up to `nextRowId`, null for a deleted one. */
  readonly slots: readonly (RowSnapshot | null)[]
  readonly size: number
  readonly nextRowId: number
  readonly deletions: number
  readonly sequences: Readonly<Record<string, number>>
  readonly orderedRowIds: readonly number[]
  /** The row id the key directory gives for each key of `probeKeys` (undefined for none). */
  readonly keyDirectory: readonly (number | undefined)[]
  readonly indexVersion: number
  readonly indexes: Readonly<Record<string, IndexSnapshot>>
  /** Numeric columns as stored, NaN written "NaN" (null and deleted rows), capacity included. */
  readonly numeric: Readonly<Record<string, readonly (number | 'NaN')[]>>
  readonly folded: Readonly<Record<string, readonly (string | null)[]>>
}

export interface StoreSnapshot {
  readonly globalStamp: number
  readonly tables: Readonly<Record<string, TableSnapshot>>
}

/**
 * Everything `store` holds. `probeKeys` (per dataclass) are looked up in the key directory, which
 * cannot be listed: pass the keys the writes under test touch or create, so that a key left behind
 * by a refused create is seen.
 */
export function snapshotStore(
  store: Store,
  probeKeys: Readonly<Record<string, readonly KeyValue[]>> = {},
): StoreSnapshot {
  const tables: Record<string, TableSnapshot> = {}
  for (const def of store.schema.dataClasses) {
    tables[def.name] = snapshotTable(store.table(def.name), probeKeys[def.name] ?? [])
  }
  return { globalStamp: store.globalStamp, tables }
}

function snapshotTable(table: Table, probeKeys: readonly KeyValue[]): TableSnapshot {
  const slots: (RowSnapshot | null)[] = []
  for (let rowId = 0; rowId < table.nextRowId; rowId++) {
    const r = table.record(rowId)
    slots.push(
      r
        ? {
            rowId: r.rowId,
            key: r.key,
            stamp: r.stamp,
            timestamp: r.timestamp,
            values: { ...r.values },
          }
        : null,
    )
  }
  const probe = [...[...table.records()].map((r) => r.key), ...probeKeys]
  const indexes: Record<string, IndexSnapshot> = {}
  for (const ix of table.indexes.all()) {
    const sorted = ix.sorted?.content()
    indexes[ix.attribute.name] = {
      hash: ix.hash ? [...ix.hash.entries()] : undefined,
      sorted: sorted ? { keys: [...sorted[0]], rows: Array.from(sorted[1]) } : undefined,
    }
  }
  const numeric: Record<string, (number | 'NaN')[]> = {}
  const folded: Record<string, (string | null)[]> = {}
  for (const attr of table.def.storage) {
    if (NUMERIC_COLUMN_TYPES.has(attr.type)) {
      numeric[attr.name] = Array.from(table.numericColumn(attr.name), (v) => (v === v ? v : 'NaN'))
    } else if (attr.type === 'string') {
      const column = table.foldedColumn(attr.name)
      folded[attr.name] = Array.from({ length: column.length }, (_, i) => column.at(i))
    }
  }
  return {
    slots,
    size: table.size,
    nextRowId: table.nextRowId,
    deletions: table.deletions,
    sequences: Object.fromEntries(table.autosequenced.map((a) => [a, table.peekSequence(a)])),
    orderedRowIds: [...table.orderedRowIds()],
    keyDirectory: probe.map((k) => table.rowIdOf(k)),
    indexVersion: table.indexes.version,
    indexes,
    numeric,
    folded,
  }
}
