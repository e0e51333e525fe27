/**
 * @module Comparisons as functions of one row (by row id, read through the table's column readers,
 * which make no record for a row kept in columns): what a scan, a residual filter and a Linked group
 * run for each row. Semantics (4D's):
 * - `=`/`==`/`===`/IN: null matches only null; strings are compared folded; `@` wildcards for `=`/IN.
 * - `!=`/`#`/`!==`: true for non-null values that differ; `!= null` is "is not null". A null or
 *   missing value never satisfies `!= value` (4D: "does not return attributes whose value is null").
 * - ranges and `begin`: false for null and for values of another kind.
 * - `[]` collections: any element satisfies the comparison; for `!=`, every element must differ.
 */
import type { EntityView } from '../schema/definitions.js'
import { hasGetterSteps } from '../schema/getter-calls.js'
import { spendOnCode } from './budget.js'
import type { BoundComparison, BoundLinked, CmpValue, ObjectStep } from './bound.js'
import { compareKeys, sortKey, type SortKey } from '../values/compare.js'
import { equalsFolded, foldedKeywords, keywords } from '../values/fold.js'
import type { Table } from '../store/table.js'
import { NUMERIC_COLUMN_TYPES } from '../store/table-columns.js'
import { foldedTester, type FoldedTexts } from '../store/folded-column.js'
import { matchesAny, patternsTogether } from './multi-search.js'
import { vectorTest } from './vector-search.js'

/** A test of one live row, by row id. */
export type RowPredicate = (rowId: number) => boolean

// The row tests that call a getter with steps (a 4D project's): the loops over rows run them a
// row at a time in a read in slices, so that one call stops inside its own code (row-steps.ts).
// Known per test, so a read whose tests call no such getter pays nothing for them.
const stepped = new WeakSet<RowPredicate>()

/** Whether `test` calls a getter with steps for its rows. */
export const callsSteps = (test: RowPredicate): boolean => stepped.has(test)

/** `test`, made of `parts`: it calls a getter with steps when one of them does. */
export function madeOf(test: RowPredicate, parts: readonly RowPredicate[]): RowPredicate {
  if (parts.some(callsSteps)) stepped.add(test)
  return test
}

/** The entity of a row (calculated attributes compute from it). */
export type EntityOf = (rowId: number) => EntityView

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
  if (value.kind === 'list' || value.kind === 'vector') return false
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
  if (value.kind === 'vector') return vectorTest(c, value)
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

/**
 * The predicate of one comparison. A comparison of folded text on a table reads the table's folded
 * column (made on first use, kept by writes): each stored value is folded once, not once per row
 * per pattern per query.
 */
export function comparisonPredicate(
  c: BoundComparison,
  entityOf: EntityOf,
  table: Table,
): RowPredicate {
  const { operand } = c
  switch (operand.kind) {
    case 'storage': {
      const name = operand.attr.name
      const folded = foldedAccess(c, table)
      if (folded) return foldedTester(folded.column, folded.holds)
      const numeric = numericAccess(c, table)
      if (numeric) {
        const { column, holds } = numeric
        return (rowId) => holds(column[rowId]!)
      }
      const holds = valueTest(c)
      const read = table.reader(name)
      return (rowId) => holds(read(rowId))
    }
    case 'calculated': {
      const compute = operand.attr.compute
      // User code per row, maybe slow: counted against the query's time budget.
      const tested: RowPredicate = (rowId) => {
        spendOnCode()
        return test(c.op, c.value, compute ? compute(entityOf(rowId)) : null, c.folds)
      }
      if (hasGetterSteps(compute)) stepped.add(tested)
      return tested
    }
    case 'object': {
      const read = table.reader(operand.attr.name)
      const fans = operand.steps.some((s) => s.each)
      return (rowId) => testObject(c, objectValues(read(rowId), operand.steps), fans)
    }
  }
}

/**
 * For a comparison of a numeric attribute with a number (`=`, `<`, `<=`, `>`, `>=`): the table's
 * numeric column (made on first use, kept by writes; NaN for null and deleted rows, which no such
 * comparison holds for) and the test of one value; undefined for any other comparison. A scan
 * through the row reader (a slot, then a load's column or a record, a row at a time) cost twice
 * the plain loop over objects it is measured against.
 */
function numericAccess(
  c: BoundComparison,
  table: Table,
): { column: Float64Array; holds: (v: unknown) => boolean } | undefined {
  if (columnOf(c) !== 'numeric') return
  // valueTest's test of a number key: NaN (null, deleted) holds for none of these.
  return { column: table.numericColumn(c.operand.attr!.name), holds: valueTest(c) }
}

/**
 * The column of its table a per-row test of `c` reads (numericAccess, foldedAccess), if any: what
 * work in slices makes in steps before it tests (execute.ts).
 */
export function columnOf(c: BoundComparison): 'numeric' | 'folded' | undefined {
  const { operand, value } = c
  if (operand.kind !== 'storage') return undefined
  if (comparesFoldedText(c)) return 'folded'
  if (!NUMERIC_COLUMN_TYPES.has(operand.attr.type)) return undefined
  if (value.kind !== 'value' || value.pattern || typeof value.key !== 'number') return undefined
  return NUMERIC_OPS.has(c.op) ? 'numeric' : undefined
}

// The comparisons valueTest answers for a number key with a test of the value alone.
const NUMERIC_OPS: ReadonlySet<string> = new Set(['lt', 'le', 'gt', 'ge', 'eq', 'strictEq'])

/** Whether a comparison compares folded stored text: the comparisons a folded column answers. */
const comparesFoldedText = (c: BoundComparison): boolean =>
  c.folds && c.operand.kind === 'storage' && c.operand.attr.type === 'string'

/**
 * For a comparison of folded text on a table: the table's folded column and the test of one
 * folded value; undefined for any other comparison.
 */
export function foldedAccess(
  c: BoundComparison,
  table: Table | undefined,
):
  | {
      column: FoldedTexts
      holds: (folded: string | null) => boolean
      /** The one folded text the test holds for, when that is all it is (`city = 'Paris'`). */
      only: string | undefined
      /** The texts, prefixes, suffixes and contained texts the test holds for, when that is all. */
      forms: TextForms | undefined
    }
  | undefined {
  const { operand } = c
  if (!table || !comparesFoldedText(c) || operand.kind !== 'storage') return
  const forms = textForms(c)
  const only =
    forms?.exact.length === 1 &&
    forms.prefixes.length + forms.suffixes.length + forms.contains.length === 0
      ? forms.exact[0]
      : undefined
  return { column: table.foldedColumn(operand.attr.name), holds: foldedTest(c), only, forms }
}

/** What an equality with wildcards holds for, by form (see matchesAny). */
export interface TextForms {
  readonly exact: readonly string[]
  readonly prefixes: readonly string[]
  readonly suffixes: readonly string[]
  readonly contains: readonly string[]
}

/**
 * The forms an equality, an IN or a `begin` holds for, when it holds for nothing else (no null, no
 * `a@b`).
 */
function textForms(c: BoundComparison): TextForms | undefined {
  // `begin` holds for the texts that start with its folded text (foldedTest): one prefix.
  if (c.op === 'begin') {
    const prefix = c.value.kind === 'value' ? c.value.pattern?.prefix : undefined
    return prefix === undefined
      ? undefined
      : { exact: [], prefixes: [prefix], suffixes: [], contains: [] }
  }
  if (c.op !== 'eq' && c.op !== 'strictEq' && c.op !== 'in') return undefined
  const a = alternatives(c, c.op !== 'strictEq')
  if (a.nulls || a.others.length > 0) return undefined
  return { exact: [...a.exact], prefixes: a.prefixes, suffixes: a.suffixes, contains: a.contains }
}

/**
 * The test of a comparison on folded text, applied to the folded value (null for null): the same
 * answers as `test` with `folds`, without folding. Several patterns (an IN list) are grouped by
 * form (see alternatives), so a row's value is checked against all of them together.
 */
export function foldedTest(c: BoundComparison): (folded: string | null) => boolean {
  const { op, value } = c
  const eq = (wildcards: boolean) => anyOf(alternatives(c, wildcards))
  switch (op) {
    case 'eq':
    case 'strictEq':
    case 'in':
      return eq(op !== 'strictEq')
    case 'ne':
    case 'strictNe': {
      if (value.kind === 'null') return (f) => f !== null
      const equal = eq(op === 'ne')
      return (f) => f !== null && !equal(f)
    }
    case 'begin': {
      const match = value.kind === 'value' ? value.pattern?.match : undefined
      return (f) => f !== null && match !== undefined && match(f)
    }
    case 'contains': {
      if (value.kind !== 'value') return () => false
      const { pattern, key } = value
      return (f) => {
        if (f === null) return false
        const words = foldedKeywords(f)
        return pattern ? words.some(pattern.match) : words.includes(key as string)
      }
    }
    case 'lt':
    case 'gt':
    case 'le':
    case 'ge': {
      if (value.kind !== 'value' || typeof value.key !== 'string') return () => false
      const key = value.key
      if (op === 'lt') return (f) => f !== null && f < key
      if (op === 'gt') return (f) => f !== null && f > key
      if (op === 'le') return (f) => f !== null && f <= key
      return (f) => f !== null && f >= key
    }
  }
}

/**
 * The values and patterns a folded value may equal, by form: `exact` values (and patterns without
 * wildcards), `x@` prefixes, `@x` suffixes, `@x@` contained texts, the `others` (`a@b`) by their
 * matchers, and whether null is one of them. With `wildcards` off, `@` is a character.
 */
interface Alternatives {
  readonly nulls: boolean
  readonly exact: ReadonlySet<string>
  readonly prefixes: readonly string[]
  readonly suffixes: readonly string[]
  readonly contains: readonly string[]
  readonly others: readonly ((f: string) => boolean)[]
}

function alternatives(c: BoundComparison, wildcards: boolean): Alternatives {
  const { value } = c
  let nulls = false
  const exact = new Set<string>()
  const prefixes: string[] = []
  const suffixes: string[] = []
  const contains: string[] = []
  const others: ((f: string) => boolean)[] = []
  for (const item of value.kind === 'list' ? value.items : [value]) {
    if (item.kind === 'null') nulls = true
    else if (item.kind === 'value') {
      const shape = wildcards ? item.pattern?.shape : undefined
      if (!shape || shape.kind === 'exact') {
        if (typeof item.key === 'string') exact.add(shape ? shape.text : item.key)
      } else if (shape.kind === 'prefix') prefixes.push(shape.text)
      else if (shape.kind === 'suffix') suffixes.push(shape.text)
      else if (shape.kind === 'contains') contains.push(shape.text)
      else others.push(item.pattern!.match)
    }
  }
  return { nulls, exact, prefixes, suffixes, contains, others }
}

/**
 * How many patterns a comparison checks together in one read of each folded text, or 0 when it
 * checks each by itself: what a plan says of a scan (see multi-search.ts).
 */
export function onePassPatterns(c: BoundComparison): number {
  if (!comparesFoldedText(c) || (c.op !== 'eq' && c.op !== 'in')) return 0
  return patternsTogether(alternatives(c, true))
}

/**
 * Equality with any of the alternatives, on folded text, each value read once for all of them: the
 * exact values, prefixes, suffixes and contained texts by matchesAny (tries walked from each end of
 * the text, a search for the contained ones, or one automaton for all), the others (`a@b`) each.
 */
function anyOf(a: Alternatives): (f: string | null) => boolean {
  const { nulls, exact, prefixes, suffixes, contains, others } = a
  const forms = exact.size + prefixes.length + suffixes.length + contains.length
  const matches = forms > 0 ? matchesAny(a) : undefined
  // The usual case gets a test of its own: no loop, no call that answers nothing.
  if (!nulls && others.length === 0 && matches !== undefined) return (f) => f !== null && matches(f)
  return (f) => {
    if (f === null) return nulls
    if (matches !== undefined && matches(f)) return true
    for (let i = 0; i < others.length; i++) if (others[i]!(f)) return true
    return false
  }
}

/** The predicate of a Linked group: one element of the collection satisfies every comparison. */
export function linkedPredicate(l: BoundLinked, table: Table): RowPredicate {
  const read = table.reader(l.attr.name)
  return (rowId) => {
    const elements = objectValues(read(rowId), l.prefix)
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
