/**
 * @module Comparisons as functions of one entity: what a scan, a residual filter and a Linked group
 * run for each row. Semantics (4D's):
 * - `=`/`==`/`===`/IN: null matches only null; strings are compared folded; `@` wildcards for `=`/IN.
 * - `!=`/`#`/`!==`: true for non-null values that differ; `!= null` is "is not null". A null or
 *   missing value never satisfies `!= value` (4D: "does not return attributes whose value is null").
 * - ranges and `begin`: false for null and for values of another kind.
 * - `[]` collections: any element satisfies the comparison; for `!=`, every element must differ.
 */
import type { EntityView } from '../schema/definitions.js'
import type { EntityRecord } from '../store/entity-record.js'
import type { BoundComparison, BoundLinked, CmpValue, ObjectStep } from './bound.js'
import { compareKeys, sortKey, type SortKey } from '../values/compare.js'
import { equalsFolded, keywords } from '../values/fold.js'

/** A test of one row. */
export type RowPredicate = (record: EntityRecord) => boolean

/** The entity a record is (calculated attributes compute from it). */
export type EntityOf = (record: EntityRecord) => EntityView

const kindOf = (k: SortKey): string => (k === null ? 'null' : typeof k)

/** Whether the stored value `v` satisfies `op value` (v is a single, non-collection value). */
export function test(
  op: BoundComparison['op'],
  value: CmpValue,
  v: unknown,
  folds: boolean,
): boolean {
  switch (op) {
    case 'eq':
    case 'strictEq':
      return equals(value, v, folds, op === 'eq')
    case 'ne':
    case 'strictNe':
      if (value.kind === 'null') return v !== null && v !== undefined
      return v !== null && v !== undefined && !equals(value, v, folds, op === 'ne')
    case 'in':
      return value.kind === 'list' && value.items.some((item) => equals(item, v, folds, true))
    case 'begin':
      return (
        typeof v === 'string' &&
        value.kind === 'value' &&
        value.pattern!.match(sortKey(v, folds) as string)
      )
    case 'contains': {
      if (typeof v !== 'string' || value.kind !== 'value') return false
      const words = keywords(v)
      return value.pattern ? words.some(value.pattern.match) : words.includes(value.key as string)
    }
    case 'lt':
    case 'gt':
    case 'le':
    case 'ge': {
      if (value.kind !== 'value') return false
      const k = sortKey(v, folds)
      if (k === null || kindOf(k) !== kindOf(value.key)) return false
      const c = compareKeys(k, value.key)
      return op === 'lt' ? c < 0 : op === 'gt' ? c > 0 : op === 'le' ? c <= 0 : c >= 0
    }
  }
}

function equals(value: CmpValue, v: unknown, folds: boolean, wildcards: boolean): boolean {
  if (value.kind === 'null') return v === null || v === undefined
  if (value.kind === 'list') return false
  if (v === null || v === undefined) return false
  if (wildcards && value.pattern)
    return typeof v === 'string' && value.pattern.match(sortKey(v, true) as string)
  const k = sortKey(v, folds)
  return (
    k === value.key || (typeof k === 'number' && typeof value.key === 'number' && k === value.key)
  )
}

/** The values an object path reaches: several when it fans out over arrays (`[]`). */
export function objectValues(root: unknown, steps: readonly ObjectStep[]): unknown[] {
  let current: unknown[] = [root]
  for (const step of steps) {
    const next: unknown[] = []
    for (const v of current) {
      const here =
        step.name === '' ? v : isObject(v) && Object.hasOwn(v, step.name) ? v[step.name] : undefined
      if (step.each) {
        if (Array.isArray(here)) for (const x of here) next.push(x)
      } else next.push(here)
    }
    current = next
  }
  return current
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** Tests a comparison against one value reached by an object path (which may have fanned out). */
function testObject(c: BoundComparison, values: unknown[], fannedOut: boolean): boolean {
  if (!fannedOut) return test(c.op, c.value, values[0], c.folds)
  // Collections: `!=` means "every element differs" (4D), everything else "some element matches".
  if ((c.op === 'ne' || c.op === 'strictNe') && c.value.kind !== 'null') {
    const eqOp = c.op === 'ne' ? 'eq' : 'strictEq'
    return (
      values.length > 0 &&
      values.every((v) => v !== null && v !== undefined && !test(eqOp, c.value, v, c.folds))
    )
  }
  return values.some((v) => test(c.op, c.value, v, c.folds))
}

/**
 * A specialised test for the common cases (numbers and exact equality), the generic `test`
 * otherwise. Same answers; scans run several times faster without the generic dispatch per row.
 */
export function valueTest(c: BoundComparison): (v: unknown) => boolean {
  const { op, value } = c
  if (value.kind === 'value' && !value.pattern) {
    const key = value.key
    if (typeof key === 'number') {
      switch (op) {
        case 'lt':
          return (v) => typeof v === 'number' && v < key
        case 'le':
          return (v) => typeof v === 'number' && v <= key
        case 'gt':
          return (v) => typeof v === 'number' && v > key
        case 'ge':
          return (v) => typeof v === 'number' && v >= key
        case 'eq':
        case 'strictEq':
          return (v) => v === key
        default:
      }
    }
    if (typeof key === 'string' && (op === 'eq' || op === 'strictEq')) {
      if (!c.folds) return (v) => v === key
      // An exact match needs no folding (the common hit); the rest compares without allocating.
      return (v) => typeof v === 'string' && (v === key || equalsFolded(v, key))
    }
  }
  return (v) => test(op, value, v, c.folds)
}

/** The predicate of one comparison. */
export function comparisonPredicate(c: BoundComparison, entityOf: EntityOf): RowPredicate {
  const { operand } = c
  switch (operand.kind) {
    case 'storage': {
      const name = operand.attr.name
      const holds = valueTest(c)
      return (record) => holds(record.values[name])
    }
    case 'calculated': {
      const compute = operand.attr.compute
      return (record) => test(c.op, c.value, compute ? compute(entityOf(record)) : null, c.folds)
    }
    case 'object': {
      const name = operand.attr.name
      const fans = operand.steps.some((s) => s.each)
      return (record) => testObject(c, objectValues(record.values[name], operand.steps), fans)
    }
  }
}

/** The predicate of a Linked group: one element of the collection satisfies every comparison. */
export function linkedPredicate(l: BoundLinked): RowPredicate {
  const name = l.attr.name
  return (record) => {
    const elements = objectValues(record.values[name], l.prefix)
    return elements.some((el) =>
      l.comparisons.every((c) => {
        const steps = c.operand.kind === 'object' ? c.operand.steps : []
        return testObject(
          c,
          objectValues(el, steps),
          steps.some((s) => s.each),
        )
      }),
    )
  }
}
