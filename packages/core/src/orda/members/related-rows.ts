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
    const committedView = table === dc.table
    // Outside a transaction, an index that does not fold holds under a number or a text exactly
    // the rows holding that value (sortKey is the value itself): none needs reading. A folding
    // index may hold keys that differ in case, and a transaction's rows are read as it sees them
    // (other values sort to null): exact matches only.
    if (committedView && !hash.folds && (typeof key === 'number' || typeof key === 'string'))
      for (let i = 0; i < bucket.length; i++) out.push(bucket[i]!)
    else for (let i = 0; i < bucket.length; i++) if (read(bucket[i]!) === key) out.push(bucket[i]!)
    // The index holds committed values: the rows a transaction wrote pointing at `key` now.
    const staged = committedView ? undefined : stagedOf(table)?.rows
    if (staged !== undefined) {
      const committed = dc.table.reader(attr.foreignKey)
      for (const rowId of staged.keys())
        if (read(rowId) === key && (hash.folds ? !out.includes(rowId) : committed(rowId) !== key))
          out.push(rowId)
    }
    // While keys came in growing order (autosequences, ids loaded in order) the key order is the
    // row ids' own, and a group is most often in it already. A page of 100 Persons each reading
    // its group's 1,000 people compared keys 10,000 times a group: with the reading of each row,
    // 40% of such a reply's time.
    if (committedView && table.keyOrderIsRowOrder)
      return ascending(out) ? out : out.sort((a, b) => a - b)
    return out.sort((a, b) => compareKeys(table.keyOf(a)!, table.keyOf(b)!) || a - b)
  }
  const out: number[] = []
  for (const rowId of table.orderedRowIds()) if (read(rowId) === key) out.push(rowId)
  return out
}

function ascending(rows: readonly number[]): boolean {
  for (let i = 1; i < rows.length; i++) if (rows[i - 1]! > rows[i]!) return false
  return true
}
