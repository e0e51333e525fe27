/**
 * @module Rebasing a log record made on an older state onto the store as it is now, so that a
 * commit made outside a write (outside-commits.ts) can be applied again after a catch-up.
 */
import {
  DELETED_FIELDS,
  DELETED_RECORDS,
  GLOBAL_STAMP,
  type Datastore,
  type LogChange,
  type LogRecord,
} from '@entistore/core'

type Store = Datastore['store']

/**
 * `record`, made on an older state, as if made on the store as it is now: updated entities get
 * the stamp after their current one, the global stamp continues from the store's, sequences never
 * go back. (Its rows are applied as they are: last writer wins.)
 *
 * Change tracking (the core's change-stamps.ts) wrote the global stamps of the older state into
 * the rows: a tracked entity's `__GlobalStamp`, a `__DeletedRecords` row's `__Stamp`. They are
 * written again with the stamps the rebased record gives its changes, or a sync client holding a
 * stamp given meanwhile by another process would miss them; the `__DeletedRecords` rows take the
 * next keys, as the commit would have given them now, rather than collide with rows another
 * process added meanwhile. A write of no change is a `setGlobalStamp`: the stamp it set stands.
 */
export function rebaseRecord(ds: Datastore, record: LogRecord): LogRecord {
  const store = ds.store
  const write = record.kind === 'write'
  if (write && record.changes.length === 0) return record
  const first = store.globalStamp
  const stamps = write ? recordStamps(record.changes, first) : undefined
  const rekeyed = write ? new DeletedRowKeys(store, record.changes) : undefined
  const changes = record.changes.map((c, i) => {
    let out: LogChange = c
    if (c.op === 'update') {
      const current = store.findTable(c.dataClass)?.recordByKey(c.key)
      if (current) out = { ...c, stamp: current.stamp + 1 }
    }
    if (stamps === undefined || out.op === 'delete') return out
    if (store.findTable(out.dataClass)?.def.tracked)
      return { ...out, values: { ...out.values, [GLOBAL_STAMP]: stamps[i]! } }
    return rekeyed?.rebase(out, stamps) ?? out
  })
  const sequences: Record<string, Record<string, number>> = {}
  for (const [name, values] of Object.entries(record.sequences)) {
    const table = store.findTable(name)
    sequences[name] = Object.fromEntries(
      Object.entries(values).map(([attr, v]) => [
        attr,
        Math.max(
          v,
          table ? table.peekSequence(attr) - 1 : 0,
          name === DELETED_RECORDS ? (rekeyed?.highest(attr) ?? 0) : 0,
        ),
      ]),
    )
  }
  const moves = write ? record.changes.length : 0
  return { ...record, changes, sequences, globalStamp: first + moves }
}

/**
 * The global stamp of each change of a record, `first` being the stamp before it: deletes first,
 * then the others in order, as the core's `changeStamps` gives them (a record lists its deletes
 * first already, so change i takes first + 1 + i).
 */
function recordStamps(changes: readonly LogChange[], first: number): number[] {
  let d = first
  let other = first + changes.filter((c) => c.op === 'delete').length
  return changes.map((c) => (c.op === 'delete' ? ++d : ++other))
}

/** Where a deleted entity is found among the deletes of a record. */
const deletedId = (dataClass: string, key: unknown) => `${dataClass}\u0000${String(key)}`

/**
 * The `__DeletedRecords` rows a record's deletes added, given their delete's stamp and the next
 * values of the table's autosequences (its key among them), continuing after what the store and
 * the record's other inserts into the table hold.
 */
class DeletedRowKeys {
  // Each delete's position in the record, by dataclass and key.
  readonly #deletes = new Map<string, number>()
  // The next value of each autosequence attribute (not uuid) of __DeletedRecords.
  readonly #next = new Map<string, number>()
  #key: { readonly name: string; readonly type: string } | undefined

  constructor(store: Store, changes: readonly LogChange[]) {
    changes.forEach((c, i) => {
      if (c.op === 'delete') this.#deletes.set(deletedId(c.dataClass, c.key), i)
    })
    const table = store.findTable(DELETED_RECORDS)
    if (!table || this.#deletes.size === 0) return
    this.#key = table.def.key
    const autos = table.def.storage.filter((a) => a.autosequence && a.type !== 'uuid')
    for (const a of autos) {
      let next = table.peekSequence(a.name)
      // Rows the record inserts into the table itself keep their values: the rows added go after.
      for (const c of changes)
        if (
          c.op !== 'delete' &&
          c.dataClass === DELETED_RECORDS &&
          this.#witness(c) === undefined
        ) {
          const v = c.values[a.name]
          if (typeof v === 'number' && v >= next) next = v + 1
        }
      this.#next.set(a.name, next)
    }
  }

  /** The index of the delete `c` (an insert into `__DeletedRecords`) records, if any. */
  #witness(c: LogChange): number | undefined {
    if (c.op !== 'insert' || c.dataClass !== DELETED_RECORDS) return undefined
    const name = c.values[DELETED_FIELDS.tableName]
    const key = c.values[DELETED_FIELDS.primaryKey]
    return typeof name === 'string' ? this.#deletes.get(deletedId(name, key)) : undefined
  }

  /** `c` with its stamp and keys rebased when it is a row added for one of the record's deletes. */
  rebase(c: LogChange, stamps: readonly number[]): LogChange | undefined {
    const at = this.#witness(c)
    if (at === undefined || c.op === 'delete') return undefined
    const values: Record<string, unknown> = { ...c.values, [DELETED_FIELDS.stamp]: stamps[at]! }
    let key = c.key
    for (const [name, next] of this.#next) {
      values[name] = next
      this.#next.set(name, next + 1)
      if (name === this.#key?.name) key = next
    }
    // A key the model made of neither (change-stamps.ts): the delete's stamp, unique to it.
    const own = this.#key
    if (own && own.type !== 'uuid' && !this.#next.has(own.name))
      values[own.name] = key = own.type === 'string' ? String(stamps[at]) : stamps[at]!
    return { ...c, key, values }
  }

  /** The last value given to autosequence `attribute` (0: none). */
  highest(attribute: string): number {
    const next = this.#next.get(attribute)
    return next === undefined ? 0 : next - 1
  }
}
