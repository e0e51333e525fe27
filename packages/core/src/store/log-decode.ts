/**
 * @module The reading of a change log record's changes for the replay: each change checked (a record
 * is input from a file), its dataclass found, its values decoded back to stored values (binaries
 * from base64 or the record's attachments); and what the replay has made so far (Pending), which
 * later changes in it build on.
 */
import { fail } from '../errors/datastore-error.js'
import type { StoredValue } from '../values/coerce.js'
import type { Change } from './changes.js'
import { decodeValue, StagedRows } from './snapshot-rows.js'
import type { Store } from './store.js'
import type { Table } from './table.js'
import type { LogValues, LogChange } from './log-record.js'
import type { EntityRecord, KeyValue } from './entity-record.js'

export function invalid(where: string, why: string): never {
  return fail('InvalidLogRecord', [where, why])
}

export function tableOf(store: Store, name: unknown, where: string): Table {
  return (
    (typeof name === 'string' ? store.findTable(name) : undefined) ??
    invalid(where, `no dataclass ${JSON.stringify(name)} in the model`)
  )
}

export function decodeChange(
  store: Store,
  c: LogChange,
  pending: Pending,
  where: string,
  attachments: readonly Uint8Array[] | undefined,
  restored: boolean,
): Change {
  const table = tableOf(store, c?.dataClass, where)
  const key = c.key
  if (typeof key !== 'number' && typeof key !== 'string') invalid(where, 'the key is missing')
  const current = pending.current(table, key)
  const name = `${table.def.name}(${JSON.stringify(key)})`
  if (c.op === 'delete') {
    if (!current) invalid(where, `delete of ${name}, which is not there`)
    pending.set(table, key, null)
    pending.left(table, key, current.rowId)
    return { op: 'delete', table, before: current }
  }
  if (c.op !== 'insert' && c.op !== 'update')
    invalid(where, `unknown op ${JSON.stringify((c as { op: unknown }).op)}`)
  if (c.op === 'insert' && current) invalid(where, `insert of ${name}, which is there already`)
  if (c.op === 'update' && !current) invalid(where, `update of ${name}, which is not there`)
  if (!Number.isSafeInteger(c.stamp) || !Number.isFinite(c.timestamp))
    invalid(where, `${name} has no valid stamp and timestamp`)
  const values = decodeValues(table, c.values, `${where} ${name}`, attachments)
  if (values[table.keyPosition] !== key) invalid(where, `${name}: the key attribute differs`)
  const record = table.newVersion(
    current ? current.rowId : pending.insertRowId(table, key, restored),
    key,
    c.stamp,
    c.timestamp,
    table.makeValues(values),
  )
  pending.set(table, key, record)
  return c.op === 'insert'
    ? { op: 'insert', table, record }
    : { op: 'update', table, before: current!, after: record }
}

/**
 * The stored values in storage order, each checked as a data file's value is; a picture or BLOB
 * may name one of the record's `attachments` instead.
 */
function decodeValues(
  table: Table,
  given: LogValues,
  where: string,
  attachments: readonly Uint8Array[] | undefined,
): StoredValue[] {
  if (typeof given !== 'object' || given === null) invalid(where, 'no values')
  const storage = table.def.storage
  const out = new Array<StoredValue>(storage.length)
  let found = 0
  for (let i = 0; i < storage.length; i++) {
    const attr = storage[i]!
    const raw = given[attr.name]
    if (raw !== undefined) found++
    out[i] =
      raw === undefined || raw === null
        ? null
        : decodeValue(attr, raw, attachments, () => `${where}.${attr.name}`)
  }
  if (found !== Object.keys(given).length) {
    const unknown = Object.keys(given).find((name) => table.positionOf(name) === undefined)
    invalid(where, `no storage attribute ${JSON.stringify(unknown)} in ${table.def.name}`)
  }
  return out
}

/**
 * The records a replay has made so far, by table and key, the slots its deletes left, and the
 * snapshot rows it staged in columns: later changes in it build on them.
 */
export class Pending {
  readonly #records = new Map<Table, Map<KeyValue, EntityRecord | null>>()
  readonly #rowIds = new Map<Table, number>()
  // The slot each key's last delete in this replay left empty: where a restore puts it back.
  // Nothing else fills such a slot (row ids are never reused), so it is still empty then.
  readonly #left = new Map<Table, Map<KeyValue, number>>()
  staged: StagedRows | undefined

  current(table: Table, key: KeyValue): EntityRecord | undefined {
    const mine = this.#records.get(table)
    if (mine?.has(key)) return mine.get(key) ?? undefined
    return table.recordByKey(key) ?? this.staged?.recordOf(table, key)
  }

  set(table: Table, key: KeyValue, record: EntityRecord | null): void {
    let mine = this.#records.get(table)
    if (!mine) this.#records.set(table, (mine = new Map()))
    mine.set(key, record)
  }

  /** Notes that the delete of `key` left slot `rowId` empty. */
  left(table: Table, key: KeyValue, rowId: number): void {
    let mine = this.#left.get(table)
    if (!mine) this.#left.set(table, (mine = new Map()))
    mine.set(key, rowId)
  }

  /**
   * The slot of an insert of `key`: for a restore's, the one its key left in this replay, as the
   * live restore put the record back in its own slot (where it ties before the rows made after
   * it); otherwise, or with none left, the next free one.
   */
  insertRowId(table: Table, key: KeyValue, restored: boolean): number {
    const mine = restored ? this.#left.get(table) : undefined
    const rowId = mine?.get(key)
    if (rowId === undefined) return this.nextRowId(table)
    mine!.delete(key)
    return rowId
  }

  nextRowId(table: Table): number {
    const next = this.#rowIds.get(table) ?? table.nextRowId + (this.staged?.count(table) ?? 0)
    this.#rowIds.set(table, next + 1)
    return next
  }
}
