/**
 * @module 4D's `dataClass.query(formula; querySettings)` with a JavaScript function for the
 * formula: the entities for which it returns true. As in 4D, the entity is `this` (4D's `This`)
 * and the settings' `args` its argument (4D's `$1`; here the second, after the entity), a result
 * that is not a boolean counts as false, and `allowFormulas: false` refuses it (1278).
 *
 * Only the dataclass is needed (a type-only import): this stays out of orda's import circle.
 */
import { fail } from '../../errors/datastore-error.js'
import type { RowIds } from '../../sets/row-ids.js'
import { describeValue } from '../../values/coerce.js'

/** The formula: `this` and its first argument the entity, its second the settings' `args`. */
export type QueryFormula<E, A = unknown> = (this: E, entity: E, args: A) => unknown

/** 4D's querySettings that apply to a formula. */
export interface FormulaQuerySettings<A = unknown> {
  /** What the formula receives after the entity (4D's `args`, received in `$1`). */
  readonly args?: A
  /** False refuses the formula (FormulaNotAllowed, 1278), as 4D does for a query a user typed. */
  readonly allowFormulas?: boolean
  /** 4D's client/server optimization context: taken and ignored. */
  readonly context?: string
}

/** The rows of `rows` (in their order) whose entity the formula answers true for. */
export function rowsMatchingFormula(
  dc: { entityAt(rowId: number): object | null },
  rows: RowIds,
  formula: unknown,
  settings: FormulaQuerySettings = {},
): number[] {
  if (typeof formula !== 'function') return fail('QueryCriteriaExpected', [describeValue(formula)])
  if (settings.allowFormulas === false) return fail('FormulaNotAllowed', ['query'])
  const test = formula as QueryFormula<object>
  const out: number[] = []
  for (let i = 0; i < rows.length; i++) {
    const entity = dc.entityAt(rows[i]!)
    if (entity !== null && test.call(entity, entity, settings.args) === true) out.push(rows[i]!)
  }
  return out
}
