/**
 * @module The data file written from a store: the inverse of load-data.ts, so that what a server
 * holds can be saved and served again (the CLI's `--save`, a fixture captured from a test).
 *
 * Each dataclass becomes an array of rows in primary-key order. A row holds `__STAMP` and
 * `__TIMESTAMP`, so that loading it back reproduces the stamps, then the stored values by storage
 * attribute name, the key included. Relations are written through their foreign key: the explicit
 * attribute (`employerID`), or the hidden slot of an implicit one under the relation's own name,
 * which the loader reads as the related key. Pictures and BLOBs are `{"$base64", "type"}`, with
 * `version` when it is not 1 (file-binary.ts). Values that are null are left out (the loader reads a
 * missing value as null). Dataclasses that are not exposed are written too: this is the store's
 * content, not what a REST client may see.
 *
 * What a data file cannot say is not kept: the global stamp, the next value of an autosequence
 * past deleted rows.
 */
import type { DataClassDef, StorageAttributeDef } from '../schema/definitions.js'
import { isBinaryValue } from '../values/binary.js'
import type { StoredValue } from '../values/coerce.js'
import type { KeyValue } from './entity-record.js'
import { fileBinary } from './file-binary.js'
import type { DataFile } from './load-data.js'
import type { Store } from './store.js'

/** A foreign key that names an entity no longer there (deletes do not cascade). */
export interface DanglingReference {
  /** Where: `Employee(12).employerID`. */
  readonly location: string
  /** The dataclass the key should be found in. */
  readonly target: string
  readonly key: KeyValue
}

export interface DumpDataOptions {
  /**
   * Called for each foreign key whose related entity was deleted. The loader refuses such a key, so
   * it is written as null (the relation reads as null already): the file loads back.
   */
  readonly onDangling?: (reference: DanglingReference) => void
}

/** A row as written: `__STAMP`, `__TIMESTAMP`, then values by attribute name. */
type Row = Record<string, unknown>

/** The data file of everything `store` holds (a Datastore passes its `store`). */
export function dumpData(
  source: Store | { readonly store: Store },
  options: DumpDataOptions = {},
): DataFile {
  const store = 'store' in source ? source.store : source
  const out: Record<string, Row[]> = {}
  for (const dc of store.schema.dataClasses) out[dc.name] = dumpTable(store, dc, options)
  return out
}

/** For each storage attribute holding a relation's key: the relation's target dataclass. */
function referenceTargets(dc: DataClassDef): ReadonlyMap<StorageAttributeDef, string> {
  const targets = new Map<StorageAttributeDef, string>()
  for (const a of dc.attributes)
    if (a.kind === 'relatedEntity') targets.set(a.foreignKeyAttribute, a.target)
  return targets
}

function dumpTable(store: Store, dc: DataClassDef, options: DumpDataOptions): Row[] {
  const table = store.table(dc.name)
  const targets = referenceTargets(dc)
  const storage = dc.storage
  // Read through the column readers: dumping makes no record for a row kept in columns.
  const readers = storage.map((attr) => table.reader(attr.name))
  const rows: Row[] = []
  for (const rowId of table.orderedRowIds()) {
    const row: Row = {
      __STAMP: table.stampOf(rowId),
      __TIMESTAMP: new Date(table.timestampOf(rowId)!).toISOString(),
    }
    for (let p = 0; p < storage.length; p++) {
      const attr = storage[p]!
      const value = readers[p]!(rowId) ?? null
      if (value === null) continue
      const target = targets.get(attr)
      if (target !== undefined && store.table(target).rowIdOf(value as KeyValue) === undefined) {
        options.onDangling?.({
          location: `${dc.name}(${JSON.stringify(table.keyOf(rowId))}).${attr.name}`,
          target,
          key: value as KeyValue,
        })
        continue
      }
      row[attr.name] = fileValue(value)
    }
    rows.push(row)
  }
  return rows
}

/** A stored value in the form the loader reads: only pictures and BLOBs differ. */
function fileValue(value: StoredValue): unknown {
  return isBinaryValue(value) ? fileBinary(value) : value
}
