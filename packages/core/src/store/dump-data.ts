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
 *
 * The rows are made lazily from a view (store-view.ts), `dumpRows`: a writer takes a slice at a
 * time and lets requests run between two, and still writes the store as it was at one moment.
 */
import type { DataClassDef, StorageAttributeDef } from '../schema/definitions.js'
import { isBinaryValue } from '../values/binary.js'
import type { StoredValue } from '../values/coerce.js'
import type { KeyValue } from './entity-record.js'
import { fileBinary } from './file-binary.js'
import type { DataFile } from './load-data.js'
import { openStoreView, StoreView, type StoreSource } from './store-view.js'

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
export type DataRow = Record<string, unknown>

/** The data file of everything `source` holds now (a store, a Datastore, or a view). */
export function dumpData(source: StoreSource | StoreView, options: DumpDataOptions = {}): DataFile {
  const view = source instanceof StoreView ? source : openStoreView(source)
  try {
    const out: Record<string, DataRow[]> = {}
    for (const dc of view.schema.dataClasses) out[dc.name] = [...dumpRows(view, dc.name, options)]
    return out
  } finally {
    if (view !== source) view.release()
  }
}

/** For each storage attribute holding a relation's key: the relation's target dataclass. */
function referenceTargets(dc: DataClassDef): ReadonlyMap<StorageAttributeDef, string> {
  const targets = new Map<StorageAttributeDef, string>()
  for (const a of dc.attributes)
    if (a.kind === 'relatedEntity') targets.set(a.foreignKeyAttribute, a.target)
  return targets
}

/**
 * The rows of dataclass `name` in `view`, as dumpData writes them, one at a time: the caller may
 * take as long as it likes between two (the view keeps the moment it was opened at). The view's
 * table stays open (a later table's foreign keys are checked against it).
 */
export function* dumpRows(
  view: StoreView,
  name: string,
  options: DumpDataOptions = {},
): Generator<DataRow, void, undefined> {
  const table = view.table(name)
  const dc = table.def
  const targets = referenceTargets(dc)
  const storage = dc.storage
  // Read through the column readers: dumping makes no record for a row kept in columns.
  const readers = storage.map((attr) => table.reader(attr.name))
  for (const rowId of table.rowIds()) {
    const row: DataRow = {
      __STAMP: table.stampOf(rowId),
      __TIMESTAMP: new Date(table.timestampOf(rowId)!).toISOString(),
    }
    for (let p = 0; p < storage.length; p++) {
      const attr = storage[p]!
      const value = readers[p]!(rowId) ?? null
      if (value === null) continue
      const target = targets.get(attr)
      if (target !== undefined && view.table(target).rowIdOf(value as KeyValue) === undefined) {
        options.onDangling?.({
          location: `${dc.name}(${JSON.stringify(table.keyOf(rowId))}).${attr.name}`,
          target,
          key: value as KeyValue,
        })
        continue
      }
      row[attr.name] = fileValue(value)
    }
    yield row
  }
}

/** A stored value in the form the loader reads: only pictures and BLOBs differ. */
function fileValue(value: StoredValue): unknown {
  return isBinaryValue(value) ? fileBinary(value) : value
}
