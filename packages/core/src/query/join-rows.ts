/**
 * @module Joins for the executor: the keys or foreign keys of a set of related rows, and the rows of a
 * dataclass whose foreign key is one of a set of keys (through its hash index).
 */
import type { DataClassDef } from '../schema/definitions.js'
import type { KeyValue } from '../store/entity-record.js'
import type { RowIds } from '../sets/row-ids.js'
import { type Work } from './slices.js'
import { steps } from './row-steps.js'
import { BUDGET_STEP, spend } from './budget.js'
import { sortKey } from '../values/compare.js'
import type { ExecContext } from './exec-context.js'

/**
 * The keys of `rows` of `dc`, in steps: the inner rows of a join may be a whole table, and a chain
 * of them (`employer.staff.employer.staff…`) read 100,000 keys a link in one piece, 15 ms.
 */
export function* keysOf(dc: DataClassDef, rows: RowIds, ctx: ExecContext): Work<KeyValue[]> {
  const table = ctx.tableOf(dc)
  const out = new Array<KeyValue>(rows.length)
  yield* steps(rows.length, (from, to) => {
    for (let i = from; i < to; i++) out[i] = table.keyOf(rows[i]!)!
  })
  return out
}

/** The distinct foreign-key values held by `rows` of `dc` in relation `relation`, in steps. */
export function* foreignKeysOf(
  dc: DataClassDef,
  relation: string,
  rows: RowIds,
  ctx: ExecContext,
): Work<Set<KeyValue>> {
  const table = ctx.tableOf(dc)
  const attr = dc.attributesByName.get(relation)
  const fk = attr && attr.kind === 'relatedEntity' ? attr.foreignKey : relation
  const out = new Set<KeyValue>()
  const read = table.reader(fk)
  yield* steps(rows.length, (from, to) => {
    for (let i = from; i < to; i++) {
      const v = read(rows[i]!)
      if (v !== null && v !== undefined) out.add(v as KeyValue)
    }
  })
  return out
}

/** Rows of `dc` whose foreign key `fk` is one of `keys`, through the foreign key's hash index. */
export function* joinRows(
  dc: DataClassDef,
  fk: string,
  keys: readonly KeyValue[],
  ctx: ExecContext,
): Work<number[]> {
  const table = ctx.tableOf(dc)
  const hash = table.indexes.of(fk)?.hash
  const out: number[] = []
  if (!hash) {
    const wanted = new Set<unknown>(keys)
    const read = table.reader(fk)
    yield* steps(table.scanLength, (from, to) => {
      for (let i = from; i < to; i++) {
        const v = read(i)
        if (v !== undefined && wanted.has(v)) out.push(i)
      }
    })
    return out
  }
  const read = table.reader(fk)
  // Rows read since the last stop: a key's bucket may be thousands of rows (a company's staff).
  let taken = 0
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    const bucket = hash.get(sortKey(key, hash.folds))
    // A folded string index may hold keys that differ in case: keep exact matches only.
    for (const rowId of bucket) if (!hash.folds || read(rowId) === key) out.push(rowId)
    taken += bucket.length + 1
    if (taken >= BUDGET_STEP && i + 1 < keys.length) {
      spend(taken)
      taken = 0
      yield
    }
  }
  spend(taken)
  return out
}
