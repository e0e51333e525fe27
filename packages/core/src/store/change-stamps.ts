/**
 * @module The global stamp of each change of a commit, and 4D's change tracking applied to a
 * commit (schema/change-tracking.ts): `__GlobalStamp` written into each entity a tracked dataclass
 * saves, a `__DeletedRecords` row added for each one it deletes.
 *
 * A commit of n changes moves the global stamp from s to s + n, and its changes take s + 1 … s + n:
 * deletes first, then the others in order. That is the order of a change log's record (change-
 * log.ts), so a process replaying the record gives each change the same stamp as the one that made
 * it; a live feed uses them as event ids. 4D's page says an entity takes the stamp and the stamp
 * then grows; its own example then asks for `__GlobalStamp > :1` with the stamp read before, which
 * would miss that entity. Here the stamp moves first: `getGlobalStamp()` is the last stamp given,
 * and "changed since s" is `__GlobalStamp > s`, as the example and 4D's mobile clients write it.
 */
import type { Clock } from '../clock/clock.js'
import { DELETED_FIELDS, DELETED_RECORDS, GLOBAL_STAMP } from '../schema/change-tracking.js'
import { generatedBy } from '../schema/definitions.js'
import type { StoredValue } from '../values/coerce.js'
import type { Change } from './changes.js'
import type { EntityRecord } from './entity-record.js'
import type { Table } from './table.js'

/**
 * The stamp of each change of a commit (`stamps[i]` for `changes[i]`), `first` being the global
 * stamp before it: deletes take first + 1 …, then the others in order.
 */
export function changeStamps(changes: readonly Change[], first: number): number[] {
  let deletes = 0
  for (const c of changes) if (c.op === 'delete') deletes++
  const out = new Array<number>(changes.length)
  let d = first
  let other = first + deletes
  for (let i = 0; i < changes.length; i++) out[i] = changes[i]!.op === 'delete' ? ++d : ++other
  return out
}

/** What `trackChanges` needs of the store. */
export interface TrackingStore {
  findTable(name: string): Table | undefined
  readonly newUuid: () => string
  /** The commit's time, for the rows added: read only when a tracked table is written. */
  readonly clock: Clock
}

/**
 * `changes` with 4D's change tracking applied, for a commit made at global stamp `first`: each
 * insert or update of a tracked table has `__GlobalStamp` set to its change's stamp, and each
 * delete of one adds a `__DeletedRecords` insert at the end (its `__Stamp` the delete's stamp), so
 * the commit moves the stamp once more per delete. The same list when nothing is tracked.
 * The rows added take the clock's time (read only then: a clock read was 5% of an update).
 */
export function trackChanges(
  store: TrackingStore,
  changes: readonly Change[],
  first: number,
): readonly Change[] {
  if (!changes.some((c) => c.table.def.tracked)) return changes
  const timestamp = store.clock.now()
  const stamps = changeStamps(changes, first)
  const out: Change[] = new Array(changes.length)
  const deleted: { readonly change: Change & { op: 'delete' }; readonly stamp: number }[] = []
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i]!
    if (!c.table.def.tracked) out[i] = c
    else if (c.op === 'insert')
      out[i] = { op: 'insert', table: c.table, record: stamped(c.table, c.record, stamps[i]!) }
    else if (c.op === 'update') out[i] = { ...c, after: stamped(c.table, c.after, stamps[i]!) }
    else {
      out[i] = c
      deleted.push({ change: c, stamp: stamps[i]! })
    }
  }
  if (deleted.length === 0) return out
  const table = store.findTable(DELETED_RECORDS)
  // The loader adds the dataclass with the first tracked one; a hand-made schema may lack it.
  if (!table) return out
  const rows = new DeletedRows(table, changes, store.newUuid)
  for (const { change, stamp } of deleted)
    out.push({
      op: 'insert',
      table,
      record: rows.next(change.table, change.before, stamp, timestamp),
    })
  return out
}

/** `record` with its `__GlobalStamp` set to `stamp`: a new version, same row, key and stamp. */
function stamped(table: Table, record: EntityRecord, stamp: number): EntityRecord {
  if (record.values[GLOBAL_STAMP] === stamp) return record
  const values = table.def.storage.map((a) =>
    a.name === GLOBAL_STAMP ? stamp : (record.values[a.name] as StoredValue),
  )
  return table.newVersion(
    record.rowId,
    record.key,
    record.stamp,
    record.timestamp,
    table.makeValues(values),
  )
}

/**
 * The `__DeletedRecords` rows of one commit: row ids and autosequence values after the table's
 * and after those the commit's own inserts into it took; the key generated as its type asks.
 */
class DeletedRows {
  readonly #table: Table
  readonly #newUuid: () => string
  #rowId: number
  readonly #sequences = new Map<string, number>()

  constructor(table: Table, changes: readonly Change[], newUuid: () => string) {
    this.#table = table
    this.#newUuid = newUuid
    let rowId = table.nextRowId
    const autos = table.def.storage.filter((a) => a.autosequence && a.type !== 'uuid')
    for (const a of autos) this.#sequences.set(a.name, table.peekSequence(a.name))
    for (const c of changes) {
      if (c.op !== 'insert' || c.table !== table) continue
      rowId = Math.max(rowId, c.record.rowId + 1)
      for (const a of autos) {
        const v = c.record.values[a.name]
        if (typeof v === 'number' && v >= this.#sequences.get(a.name)!)
          this.#sequences.set(a.name, v + 1)
      }
    }
    this.#rowId = rowId
  }

  next(of: Table, before: EntityRecord, stamp: number, timestamp: number): EntityRecord {
    const table = this.#table
    const fields: Readonly<Record<string, StoredValue>> = {
      [DELETED_FIELDS.primaryKey]: String(before.key),
      [DELETED_FIELDS.stamp]: stamp,
      [DELETED_FIELDS.tableName]: of.def.name,
      [DELETED_FIELDS.tableNumber]: of.def.tableNumber,
    }
    const key = table.def.key
    const values = table.def.storage.map((a): StoredValue => {
      if (Object.hasOwn(fields, a.name)) return fields[a.name]!
      const generated = generatedBy(table.def, a)
      if (generated === 'sequence') {
        const v = this.#sequences.get(a.name)!
        this.#sequences.set(a.name, v + 1)
        return v
      }
      if (generated === 'uuid') return this.#newUuid().replace(/-/g, '').toUpperCase()
      // A key the model made of something else: the stamp, unique to each deletion.
      if (a === key) return a.type === 'string' ? String(stamp) : stamp
      return null
    })
    const keyValue = values[table.def.storage.indexOf(key)] as string | number
    return table.newVersion(this.#rowId++, keyValue, 1, timestamp, table.makeValues(values))
  }
}
