/**
 * @module 4D's collection query language (`.query()`, `.indices()`,
 * docs/API/CollectionClass.md): the core's query grammar parses it (the language of
 * `dataClass.query()`, which the docs refer to), and this file runs it over the elements.
 *
 * The subset that runs: comparisons `=`/`==`, `===`/`IS`, `#`/`!=`, `!==`/`IS NOT`, `<`, `>`,
 * `<=`, `>=`, `IN`, `%` (keyword) and `begin`; `AND`/`&`/`&&`, `OR`/`|`/`||`, `EXCEPT`, `NOT`
 * and parentheses; values as literals (texts quoted or not, numbers, `true`/`false`, `null`,
 * `YYYY-MM-DD` dates, `[…]` lists), indexed placeholders (`:1`, from the values passed) and named
 * ones (`:name`, from `querySettings.parameters` and `.attributes`), for a value or a property
 * path; a path through a collection with `[]` (`children[].age`: any element). A trailing
 * `order by` orders the result as `.orderBy()` does.
 *
 * As 4D's `=` on texts: case and accents ignored, `@` a wildcard (not with `===`); numbers within
 * the epsilon; a date against a date or an ISO date text; an object or a collection by reference.
 * A value of another type than the property's never matches; `null` finds Null and missing
 * properties; `#` is the negation of `=` ("Not equal to in collections"). A Null given through a
 * placeholder matches nothing: the docs say it "will NOT work" and ask for `= null` instead.
 */
import {
  compareFolded,
  fold,
  parseQuery,
  type ComparisonNode,
  type ComparisonOp,
  type FilterNode,
  type PathSegment,
  type QueryNode,
  type ValueNode,
} from '@entistore/core'
import { invalid } from '../../arguments/arguments.js'
import { get } from '../../ops/members.js'
import { Collection } from '../../values/collection.js'
import { DateValue } from '../../values/date-value.js'
import { isPlainObject, isReference } from '../../values/kinds.js'
import { numbersEqual } from '../../values/numbers.js'
import { containsKeyword, textEquals } from '../../values/text-compare.js'
import { TimeValue } from '../../values/time-value.js'

/** What the placeholders of a query are given. */
export interface QueryValues {
  /** `:1`, `:2`…: the values after the query string. */
  readonly indexed: readonly unknown[]
  /** `:name` of a value (`querySettings.parameters`). */
  readonly parameters: Readonly<Record<string, unknown>>
  /** `:name` of a property path (`querySettings.attributes`). */
  readonly attributes: Readonly<Record<string, unknown>>
}

/** A placeholder given Null: it matches nothing (see above). */
const NO_MATCH = Symbol('no match')

const MAX_KEPT = 256
const parsed = new Map<string, QueryNode>()

/** The query string parsed (kept for the next call: code repeats its queries). */
export function parseCollectionQuery(command: string, text: string): QueryNode {
  let node = parsed.get(text)
  if (node === undefined) {
    try {
      node = parseQuery(text, 'queryString')
    } catch (e) {
      return invalid(command, 'queryString', e instanceof Error ? e.message : String(e))
    }
    if (parsed.size >= MAX_KEPT) parsed.clear()
    parsed.set(text, node)
  }
  return node
}

/** A test of one element, made once for the query. */
export type ElementTest = (element: unknown) => boolean

export function compileFilter(
  command: string,
  filter: FilterNode,
  values: QueryValues,
): ElementTest {
  switch (filter.kind) {
    case 'Comparison':
      return comparison(command, filter, values)
    case 'Not': {
      const inner = compileFilter(command, filter.operand, values)
      return (e) => !inner(e)
    }
    case 'Logical': {
      const tests = filter.operands.map((o) => compileFilter(command, o, values))
      if (filter.op === 'And') return (e) => tests.every((t) => t(e))
      if (filter.op === 'Or') return (e) => tests.some((t) => t(e))
      const [first, ...rest] = tests
      return (e) => first!(e) && !rest.some((t) => t(e))
    }
  }
}

function placeholderValue(
  command: string,
  ref: { index?: number; name?: string },
  values: QueryValues,
  attr: boolean,
): unknown {
  if (ref.index !== undefined) {
    if (ref.index < 1 || ref.index > values.indexed.length)
      return invalid(command, 'queryString', `the placeholder :${ref.index} has no value`)
    return values.indexed[ref.index - 1]
  }
  const from = attr ? values.attributes : values.parameters
  if (!Object.hasOwn(from, ref.name!))
    return invalid(command, 'queryString', `the placeholder :${ref.name} has no value`)
  return from[ref.name!]
}

/** The steps of a path (a `[]` step reads every element of a collection). */
interface Step {
  readonly name: string
  readonly each: boolean
}

function pathOf(command: string, node: ComparisonNode, values: QueryValues): readonly Step[] {
  if (node.path.kind === 'AttributePath')
    return node.path.segments.map((s: PathSegment) => ({
      name: s.name,
      each: s.collection !== undefined,
    }))
  const v = placeholderValue(command, node.path, values, true)
  if (typeof v === 'string') return v.split('.').map((name) => ({ name, each: false }))
  if (v instanceof Collection && v.items.every((s) => typeof s === 'string'))
    return (v.items as string[]).map((name) => ({ name, each: false }))
  return invalid(
    command,
    'queryString',
    'a property path placeholder must be a text or a collection of texts',
  )
}

/** The values at a path in an element (several through a `[]` step). */
function valuesAt(
  element: unknown,
  steps: readonly Step[],
  from = 0,
  into: unknown[] = [],
): unknown[] {
  let cur = element
  for (let i = from; i < steps.length; i++) {
    if (!isReference(cur) || cur instanceof Collection) {
      into.push(undefined)
      return into
    }
    cur = get(cur, steps[i]!.name)
    if (steps[i]!.each) {
      if (cur instanceof Collection)
        for (const item of cur.items) valuesAt(item, steps, i + 1, into)
      else into.push(undefined)
      return into
    }
  }
  into.push(cur)
  return into
}

function bound(command: string, node: ValueNode, values: QueryValues): unknown {
  switch (node.kind) {
    case 'Literal':
      return node.type === 'date' ? DateValue.fromISO(node.value) : node.value
    case 'Placeholder': {
      const v = placeholderValue(command, node, values, false)
      return v === null || v === undefined ? NO_MATCH : v instanceof TimeValue ? v.seconds : v
    }
    case 'List':
      return node.items.map((item) => bound(command, item, values))
  }
}

function comparison(command: string, node: ComparisonNode, values: QueryValues): ElementTest {
  const steps = pathOf(command, node, values)
  let target = bound(command, node.value, values)
  if (node.op === 'in' && target instanceof Collection) target = target.items
  const test = valueTest(node.op, target)
  const single = !steps.some((s) => s.each)
  if (single) {
    const names = steps.map((s) => s.name)
    return (e) => test(readSteps(e, names))
  }
  return (e) => valuesAt(e, steps).some(test)
}

function readSteps(element: unknown, names: readonly string[]): unknown {
  let cur = element
  for (const name of names) {
    if (!isReference(cur) || cur instanceof Collection) return undefined
    cur = get(cur, name)
  }
  return cur
}

function valueTest(op: ComparisonOp, target: unknown): (v: unknown) => boolean {
  switch (op) {
    case 'eq':
      return (v) => equals(v, target, true)
    case 'strictEq':
      return (v) => equals(v, target, false)
    case 'ne':
      return (v) => !equals(v, target, true)
    case 'strictNe':
      return (v) => !equals(v, target, false)
    case 'lt':
      return (v) => order(v, target) < 0
    case 'gt':
      return (v) => order(v, target) > 0
    case 'le':
      return (v) => order(v, target) <= 0
    case 'ge':
      return (v) => order(v, target) >= 0
    case 'in': {
      const list = Array.isArray(target) ? target : [target]
      return (v) => list.some((t) => equals(v, t, true))
    }
    case 'contains':
      return (v) =>
        typeof v === 'string' && typeof target === 'string' && containsKeyword(v, target)
    case 'begin':
      return (v) =>
        typeof v === 'string' && typeof target === 'string' && fold(v).startsWith(fold(target))
  }
}

const asDate = (v: unknown): DateValue | undefined =>
  v instanceof DateValue
    ? v
    : typeof v === 'string' && /^\d{4}-\d\d-\d\d/.test(v)
      ? DateValue.fromISO(v.slice(0, 10))
      : undefined

function equals(v: unknown, t: unknown, wildcard: boolean): boolean {
  if (t === NO_MATCH) return false
  if (t === null) return v === null || v === undefined
  if (v instanceof TimeValue) v = v.seconds
  switch (typeof t) {
    case 'string':
      if (typeof v === 'string') return wildcard ? textEquals(v, t) : fold(v) === fold(t)
      if (v instanceof DateValue) return asDate(t)?.equals(v) ?? false
      return false
    case 'number':
      return typeof v === 'number' && numbersEqual(v, t)
    case 'boolean':
      return v === t
    default:
      if (t instanceof DateValue) {
        const d = asDate(v)
        return d !== undefined && d.equals(t)
      }
      return v === t
  }
}

/** The order of a value against the target; NaN when they cannot be ordered. */
function order(v: unknown, t: unknown): number {
  if (v instanceof TimeValue) v = v.seconds
  if (typeof v === 'number' && typeof t === 'number') return numbersEqual(v, t) ? 0 : v < t ? -1 : 1
  if (typeof v === 'string' && typeof t === 'string') return compareFolded(fold(v), fold(t))
  if (t instanceof DateValue || v instanceof DateValue) {
    const a = asDate(v)
    const b = asDate(t)
    if (a !== undefined && b !== undefined && !a.isNull && !b.isNull) return a.compare(b)
  }
  return Number.NaN
}

/** Splits `.query()`'s parameters: the values of `:1`… and the settings object, if last. */
export function queryValues(args: readonly unknown[]): QueryValues {
  const last = args[args.length - 1]
  const settings =
    isPlainObject(last) && (Object.hasOwn(last, 'parameters') || Object.hasOwn(last, 'attributes'))
      ? last
      : undefined
  const indexed = settings === undefined ? args : args.slice(0, -1)
  const objectAt = (key: string): Record<string, unknown> => {
    const v = settings === undefined ? undefined : get(settings, key)
    return isPlainObject(v) ? v : {}
  }
  return { indexed, parameters: objectAt('parameters'), attributes: objectAt('attributes') }
}
