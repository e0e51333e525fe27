/**
 * @module The rows of a dataclass whose relatedEntity points at one key (`dc.rowIdsReferencing`,
 * what an entity's relatedEntities attribute reads): through the foreign key's hash index when it
 * has one, a scan otherwise; inside a transaction, the rows as it sees them. Takes the dataclass
 * by what it reads of it, which DataClass has: the class reads its relations through this file.
 */
import { fail } from '../../errors/datastore-error.js'
import type { AttributeDef, DataClassDef } from '../../schema/definitions.js'
import type { KeyValue } from '../../store/entity-record.js'
import { compareKeys, type Table } from '../../store/table.js'
import { stagedOf } from '../../txn/staged-table.js'
import { sortKey } from '../../values/compare.js'

/** A dataclass as its relations' rows are read: its table, as committed and as seen now. */
export interface RelatedClass {
  readonly def: DataClassDef
  readonly table: Table
  attribute(name: string): AttributeDef
  seenTable(): Table
}

/** Row ids (in key order) of the entities of `dc` whose relatedEntity `relation` points at `key`. */
export function rowIdsReferencing(dc: RelatedClass, relation: string, key: KeyValue): number[] {
  const attr = dc.attribute(relation)
  if (attr.kind !== 'relatedEntity') return fail('AttributeNotFound', [relation, dc.def.name])
  // Inside a transaction, the table as it sees it: its entities read with their staged values.
  const table = dc.seenTable()
  const read = table.reader(attr.foreignKey)
  // Through the foreign key's hash index when it has one (a related entity read in every row of
  // a reply scanned the whole table each time: 60 s of CPU for 20,000 rows of 100,000), in key
  // order as the scan gives them.
  const hash = dc.table.indexes.of(attr.foreignKey)?.hash
  if (hash) {
    const out: number[] = []
    const bucket = hash.get(sortKey(key, hash.folds))
    // A folding index may hold keys that differ in case: exact matches only.
    for (let i = 0; i < bucket.length; i++) if (read(bucket[i]!) === key) out.push(bucket[i]!)
    // The index holds committed values: the rows a transaction wrote pointing at `key` now.
    const staged = table === dc.table ? undefined : stagedOf(table)?.rows
    if (staged !== undefined) {
      const committed = dc.table.reader(attr.foreignKey)
      for (const rowId of staged.keys())
        if (read(rowId) === key && (hash.folds ? !out.includes(rowId) : committed(rowId) !== key))
          out.push(rowId)
    }
    return out.sort((a, b) => compareKeys(table.keyOf(a)!, table.keyOf(b)!) || a - b)
  }
  const out: number[] = []
  for (const rowId of table.orderedRowIds()) if (read(rowId) === key) out.push(rowId)
  return out
}
