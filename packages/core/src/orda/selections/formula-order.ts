/**
 * @module 4D's `orderByFormula()` with a JavaScript function for the formula: each entity's key is
 * what the function returns for it, and the rows are sorted by those keys (nulls first, texts
 * without case or accents, as `orderBy` sorts).
 */
import { compareKeys, sortKey, type SortKey } from '../../values/compare.js'
import type { RowIds } from '../../sets/row-ids.js'

/** 4D's sort order and `settings.args` of `orderByFormula`. */
export interface OrderByFormulaOptions<A = unknown> {
  /** 4D's `dk descending`. @default false */
  readonly descending?: boolean
  /** What the formula gets as its second argument (4D's `settings.args`, received in `$1`). */
  readonly args?: A
}

/**
 * The formula: called with `this` and its first argument the entity (4D's `This`), its second the
 * `args`. What it returns must be sortable (boolean, number, text, Date, null); anything else
 * sorts as null.
 */
export type OrderFormula<E, A = unknown> = (this: E, entity: E, args: A) => unknown

/** `rows` sorted by the formula's value for each entity; a deleted member sorts as null. */
export function orderedByFormula<E extends object>(
  dc: { entityAt(rowId: number): E | null },
  rows: RowIds,
  formula: OrderFormula<E>,
  options: OrderByFormulaOptions = {},
): number[] {
  const keys = new Map<number, SortKey>()
  for (const row of rows) {
    if (keys.has(row)) continue
    const e = dc.entityAt(row)
    const v = e ? formula.call(e, e, options.args) : null
    keys.set(row, sortKey(v instanceof Date ? v.getTime() : v, true))
  }
  const sign = options.descending === true ? -1 : 1
  // Array.prototype.sort is stable: ties keep the selection's order.
  return Array.from(rows).sort((a, b) => sign * compareKeys(keys.get(a)!, keys.get(b)!))
}
