/**
 * @module Aggregates (count, sum, average, min, max) and distinct values of one attribute path over
 * a set of rows: what `$compute` and `$distinct` answer and what the selections' `sum()`, `min()`,
 * `distinct()`… return. They read the table's columns and indexes, never entities:
 *
 * - a numeric attribute: its numeric column (one Float64Array by row id, NaN for null);
 * - a text attribute: its folded column, the original spelling read from one record per result;
 * - over the whole dataclass, min, max, count and distinct values of an attribute with a sorted
 *   index walk the index (its keys are in order, nulls first, ties in row-id order);
 * - anything else (booleans, dates, UUIDs, durations, object properties) the stored values object;
 *   calculated and alias attributes the value their entity computes, through `read`.
 *
 * The rules follow 4D's entity-selection functions: nulls are left out everywhere; `count` counts
 * the rows whose value is not null; `sum` of nothing is 0, `average`, `min` and `max` of nothing
 * null; text compares as 4D compares it, without case or accents (`fold`), and where several
 * spellings fold alike ("Smith", "SMITH") the one of the row created first (lowest row id) is
 * given. Values of different kinds (an object property) order booleans, then texts, then numbers
 * (4D's `distinct()` order), and `min`/`max` look at the first kind present.
 */
import { fail } from '../errors/datastore-error.js'
import type { AttributeDef, DataClassDef, StorageAttributeDef } from '../schema/definitions.js'
import { NUMERIC_COLUMN_TYPES, type Table } from '../store/table.js'
import type { FoldedTexts } from '../store/folded-column.js'
import type { SortedIndex } from '../indexes/sorted-index.js'
import { fold } from '../values/fold.js'
import type { ValueType } from '../values/value-types.js'
import type { ObjectStep } from './bound.js'
import { CALCULATED_COST, spend } from './budget.js'
import { columnReady, finish, steps, type Work } from './slices.js'
import { objectValues } from './predicate.js'
import type { RowIds } from '../sets/row-ids.js'
import { SUM_BLOCK } from '../parallel/kernels.js'
import { isShared } from '../parallel/shared-arrays.js'
import { kernelWork } from './parallel-work.js'
import { DistinctMerge } from '../parallel/distinct-numbers.js'

/** A value an aggregate returns: what a path reaches, nulls left out. */
export type AggregateValue = string | number | boolean

/** One computation of `$compute`. */
export type AggregateOp = 'count' | 'sum' | 'average' | 'min' | 'max'

/**
 * Every aggregate of a path at once (`$compute=$all`). `sum` and `average` are there for numeric
 * paths only (numbers, durations, object properties).
 */
export interface Aggregates {
  readonly count: number
  readonly sum?: number
  readonly average?: number | null
  readonly min: AggregateValue | null
  readonly max: AggregateValue | null
}

export interface DistinctOptions {
  /**
   * Compare texts exactly, case and accents included (4D's `dk diacritical`). By default texts
   * that fold alike are one value.
   */
  readonly diacritical?: boolean
}

/** How a path is read, worked out once from its text. */
type Source =
  /** A numeric storage attribute: its numeric column. */
  | { readonly kind: 'number'; readonly name: string; readonly numeric: true }
  /** A text storage attribute: its folded column. */
  | { readonly kind: 'text'; readonly name: string; readonly numeric: false }
  /** Any other scalar storage attribute (bool, date, uuid, duration): the values object. */
  | { readonly kind: 'stored'; readonly name: string; readonly numeric: boolean }
  /** A property inside an object attribute (`extra.level`, `extra.tags[].name`). */
  | {
      readonly kind: 'object'
      readonly name: string
      readonly steps: readonly ObjectStep[]
      readonly numeric: true
    }
  /** A calculated or alias attribute: the value its entity computes. */
  | {
      readonly kind: 'computed'
      readonly read: (rowId: number) => unknown
      readonly folds: boolean
      readonly numeric: boolean
    }

/** A path resolved against a dataclass: what aggregates and distinct values read. */
export interface AggregatePath {
  /** The path as given (`salary`, `extra.level`). */
  readonly text: string
  /** The storage attribute whose indexes and columns may serve it (undefined for object and computed paths). */
  readonly storage: StorageAttributeDef | undefined
  /** The type of its values (undefined for an object property, which may hold any). */
  readonly type: ValueType | undefined
  /** @internal */
  readonly source: Source
}

/** What resolving a path needs besides the dataclass. */
export interface PathContext {
  readonly def: DataClassDef
  /** A dataclass by name (an alias path steps through relations). */
  readonly dataClass: (name: string) => DataClassDef | undefined
  /** How a calculated or alias attribute of a row is read (through its entity). */
  readonly computed: (attr: AttributeDef) => (rowId: number) => unknown
}

const NUMERIC_TYPES: ReadonlySet<string> = new Set([...NUMERIC_COLUMN_TYPES, 'duration'])
// Values that are no number, text or boolean: nothing to compare, count or sum.
const OPAQUE_TYPES: ReadonlySet<string> = new Set(['image', 'blob'])

/**
 * Resolves `path` (`salary`, `extra.level`, `extra.tags[].name`) for `operation` (named in the
 * errors: `sum`, `distinct`…). Throws AttributeNotFound (1500) for an unknown attribute and
 * AggregateNotApplicable (9050) for a path nothing can be computed on: a relation, a picture or
 * BLOB, an object attribute without a property.
 */
export function resolveAggregatePath(
  ctx: PathContext,
  path: string,
  operation: string,
): AggregatePath {
  const def = ctx.def
  const refuse = (why: string): never =>
    fail('AggregateNotApplicable', [operation, path, def.name, why])
  const segments = path.split('.').map((s) => s.trim())
  const first = /^(.*?)(\[\])?$/.exec(segments[0]!)!
  const name = first[1]!
  const attr = def.attributesByName.get(name)
  if (!attr || name === '')
    return fail('AttributeNotFound', [name, def.name, def.attributesByName.keys()])
  const rest = segments.slice(1)
  if (rest.some((s) => !/^[^[\]]+(\[\])?$/.test(s)))
    refuse('a path is names separated by dots, with [] after a collection (extra.tags[].name)')
  const steps: ObjectStep[] = rest.map((s) =>
    s.endsWith('[]') ? { name: s.slice(0, -2), each: { letter: null } } : { name: s },
  )
  if (first[2] && !(attr.kind === 'storage' && attr.type === 'object'))
    refuse(`[] applies to a collection inside an object attribute, and ${name} is not one`)

  switch (attr.kind) {
    case 'relatedEntity':
    case 'relatedEntities':
      return refuse(
        `${name} is a relation: aggregates read the dataclass's own attributes (name a storage attribute, or an alias)`,
      )
    case 'calculated':
      if (steps.length) refuse(`${name} is a calculated attribute, not an object attribute`)
      return computed(ctx, attr, attr.type, path, refuse)
    case 'alias': {
      if (steps.length) refuse(`${name} is an alias, not an object attribute`)
      const end = aliasEnd(ctx, attr.path)
      if (!end || end.kind === 'relatedEntity' || end.kind === 'relatedEntities')
        return refuse(`the alias ${name} leads to a relation, not to a value`)
      if (end.kind === 'alias') return refuse(`the alias ${name} leads to another alias`)
      return computed(ctx, attr, end.type, path, refuse)
    }
    case 'storage': {
      if (OPAQUE_TYPES.has(attr.type))
        return refuse(
          `${name} is a ${attr.type === 'image' ? 'picture' : 'BLOB'}: no value to compute`,
        )
      if (attr.type === 'object') {
        if (steps.length === 0 && !first[2])
          return refuse(
            `${name} is an object attribute: name one of its properties (${name}.property)`,
          )
        if (first[2]) steps.unshift({ name: '', each: { letter: null } })
        return {
          text: path,
          storage: undefined,
          type: undefined,
          source: { kind: 'object', name, steps, numeric: true },
        }
      }
      if (steps.length) refuse(`${name} is not an object attribute`)
      const source: Source = NUMERIC_COLUMN_TYPES.has(attr.type)
        ? { kind: 'number', name, numeric: true }
        : attr.type === 'string'
          ? { kind: 'text', name, numeric: false }
          : { kind: 'stored', name, numeric: attr.type === 'duration' }
      return { text: path, storage: attr, type: attr.type, source }
    }
  }
}

function computed(
  ctx: PathContext,
  attr: AttributeDef,
  type: ValueType,
  path: string,
  refuse: (why: string) => never,
): AggregatePath {
  if (OPAQUE_TYPES.has(type) || type === 'object')
    refuse(
      `${attr.name} computes ${type === 'object' ? 'an object' : 'a picture or BLOB'}: no value to compute`,
    )
  const read = ctx.computed(attr)
  return {
    text: path,
    storage: undefined,
    type,
    source: {
      kind: 'computed',
      // User code per row, maybe slow: counted against the query's time budget (budget.ts).
      read: (rowId) => {
        spend(CALCULATED_COST)
        return read(rowId)
      },
      folds: type === 'string',
      numeric: NUMERIC_TYPES.has(type),
    },
  }
}

/** The attribute an alias path ends on, if every step before it is a relatedEntity. */
function aliasEnd(ctx: PathContext, path: readonly string[]): AttributeDef | undefined {
  let def: DataClassDef | undefined = ctx.def
  let attr: AttributeDef | undefined
  for (const step of path) {
    attr = def?.attributesByName.get(step)
    def = attr?.kind === 'relatedEntity' ? ctx.dataClass(attr.target) : undefined
  }
  return attr
}

/** Whether `sum` and `average` apply to the path. */
export const isNumericPath = (path: AggregatePath): boolean => path.source.numeric

// ---------------------------------------------------------------- aggregates

/** Where aggregates read from, and whether `rows` are every live row of the table. */
export interface RowsOptions {
  /**
   * True if the rows are every live row of the table: then count, min, max and distinct values
   * may read a sorted index instead, and a number's aggregates the column itself.
   */
  readonly whole: () => boolean
}

/**
 * The aggregates of `path` over `rows` (row ids; deleted rows are skipped). With `only` = count,
 * min or max over the whole table, a sorted index of the attribute answers. `only` undefined
 * computes all of them (`$compute=$all`); `sum` and `average` of a non-numeric path throw
 * AggregateNotApplicable (9050).
 */
export function aggregateRows(
  table: Table,
  rows: RowIds,
  path: AggregatePath,
  options: RowsOptions & { readonly only?: AggregateOp },
): Aggregates {
  return finish(aggregateWork(table, rows, path, options))
}

/** `aggregateRows` as work that may stop between steps (slices.ts). */
export function* aggregateWork(
  table: Table,
  rows: RowIds,
  path: AggregatePath,
  options: RowsOptions & { readonly only?: AggregateOp },
): Work<Aggregates> {
  const { source } = path
  const only = options.only
  if ((only === 'sum' || only === 'average') && !source.numeric)
    fail('AggregateNotApplicable', [
      only,
      path.text,
      table.def.name,
      `it holds ${path.type === 'string' ? 'text' : path.type} values, not numbers`,
    ])
  if (only === 'count' || only === 'min' || only === 'max') {
    const sorted = path.storage && table.indexes.of(path.storage.name)?.sorted
    if (sorted && options.whole()) return fromIndex(table, sorted, path.storage!.name)
  }
  switch (source.kind) {
    case 'number': {
      yield* columnReady(table, source.name, 'numeric')
      const column = table.numericColumn(source.name)
      return options.whole()
        ? yield* wholeNumbers(column, table.scanLength)
        : yield* numbers(column, rows)
    }
    case 'text':
      yield* columnReady(table, source.name, 'folded')
      return yield* texts(table, rows, source.name)
    default: {
      const acc = new Accumulator(
        source.kind === 'computed' ? source.folds : source.kind !== 'stored',
      )
      yield* eachValue(table, rows, source, acc)
      return acc.result(source.numeric)
    }
  }
}

/**
 * Rows per call of a scan's inner loop. A scan of a million rows runs a handful of times, so V8
 * would optimize its one long loop mid-way (on-stack replacement) with no type feedback for the
 * code after the loop, and a process could then leave that code at every call (measured: 7 ms
 * instead of 2 on a million rows, in one process out of three). Short calls of a small function
 * are optimized the ordinary way.
 */
const CHUNK = 1 << 10
/** Rows between two points where a pass may stop (slices.ts): a multiple of CHUNK. */
const STEP_ROWS = 1 << 12

/** One pass over the numeric column: count, sum, min and max. */
function* numbers(column: Float64Array, rows: RowIds): Work<Aggregates> {
  // count, sum, min, max: carried from chunk to chunk (the sum adds in row order, as one loop).
  const acc = new Float64Array([0, 0, Infinity, -Infinity])
  for (let from = 0; from < rows.length; from += CHUNK) {
    spend(CHUNK)
    numbersChunk(column, rows, from, Math.min(rows.length, from + CHUNK), acc)
    // Between steps of STEP_ROWS rows only: one of a small selection never stops.
    if (((from + CHUNK) & (STEP_ROWS - 1)) === 0 && from + CHUNK < rows.length) yield
  }
  const [count, sum, min, max] = acc as unknown as [number, number, number, number]
  return count === 0
    ? { count, sum: 0, average: null, min: null, max: null }
    : { count, sum, average: sum / count, min, max }
}

/**
 * `numbers` over every live row: the kernel numberStats over the column itself (a deleted row
 * reads NaN there, as a null), on worker threads when the read runs in slices on a datastore with
 * a pool (parallel-work.ts). Its blocks' sums add in row-id order, on a pool or not.
 */
function* wholeNumbers(column: Float64Array, length: number): Work<Aggregates> {
  let count = 0
  let sum = 0
  let min = Infinity
  let max = -Infinity
  const add = (blocks: Float64Array): void => {
    for (let b = 0; b < blocks.length; b += 4) {
      count += blocks[b]!
      sum += blocks[b + 1]!
      if (blocks[b + 2]! < min) min = blocks[b + 2]!
      if (blocks[b + 3]! > max) max = blocks[b + 3]!
    }
  }
  yield* kernelWork('numberStats', { column }, length, isShared(column), add, SUM_BLOCK)
  return count === 0
    ? { count, sum: 0, average: null, min: null, max: null }
    : { count, sum, average: sum / count, min, max }
}

function numbersChunk(
  column: Float64Array,
  rows: RowIds,
  from: number,
  to: number,
  acc: Float64Array,
): void {
  let count = acc[0]!
  let sum = acc[1]!
  let min = acc[2]!
  let max = acc[3]!
  for (let i = from; i < to; i++) {
    const v = column[rows[i]!]!
    // NaN (null, deleted) fails every comparison.
    if (v === v) {
      count++
      sum += v
      if (v < min) min = v
      if (v > max) max = v
    }
  }
  acc[0] = count
  acc[1] = sum
  acc[2] = min
  acc[3] = max
}

/** One pass over the folded column; the spellings of the results are read from their records. */
function* texts(table: Table, rows: RowIds, name: string): Work<Aggregates> {
  const folded = table.foldedColumn(name)
  let count = 0
  let min: string | null = null
  let max: string | null = null
  let minRow = -1
  let maxRow = -1
  yield* steps(rows.length, (from, to) => {
    for (let i = from; i < to; i++) {
      const r = rows[i]!
      const f = folded.at(r)
      if (f === null) continue
      count++
      if (min === null || f < min || (f === min && r < minRow)) {
        min = f
        minRow = r
      }
      if (max === null || f > max || (f === max && r < maxRow)) {
        max = f
        maxRow = r
      }
    }
  })
  return {
    count,
    min: minRow < 0 ? null : (table.reader(name)(minRow) as string),
    max: maxRow < 0 ? null : (table.reader(name)(maxRow) as string),
  }
}

/** Positions [start, end) of a sorted index's non-null keys (nulls sort first). */
const nonNull = (sorted: SortedIndex): [number, number] => [sorted.equal(null)[1], sorted.size]

/** Count, min and max of a whole table from a sorted index: nulls first, ties in row-id order. */
function fromIndex(table: Table, sorted: SortedIndex, name: string): Aggregates {
  const [start, end] = nonNull(sorted)
  if (start >= end) return { count: 0, min: null, max: null }
  const value = (position: number): AggregateValue =>
    table.reader(name)(sorted.rowAt(position)) as AggregateValue
  // The first row of the last key: the lowest row id among the spellings of the greatest value.
  const [lastStart] = sorted.equal(sorted.keyAt(end - 1))
  return { count: end - start, min: value(start), max: value(Math.max(start, lastStart)) }
}

/** Feeds `acc` every value `source` reaches in `rows` (several per row for `[]` paths). */
function* eachValue(
  table: Table,
  rows: RowIds,
  source: Exclude<Source, { kind: 'number' | 'text' }>,
  acc: Accumulator,
): Work<void> {
  switch (source.kind) {
    case 'stored': {
      const read = table.reader(source.name)
      return yield* steps(rows.length, (from, to) => {
        for (let i = from; i < to; i++) {
          const r = rows[i]!
          const v = read(r)
          if (v !== undefined) acc.row(v, r)
        }
      })
    }
    case 'object': {
      const read = table.reader(source.name)
      return yield* steps(rows.length, (from, to) => {
        for (let i = from; i < to; i++) {
          const r = rows[i]!
          const root = read(r)
          if (root === null || root === undefined) continue
          const values = objectValues(root, source.steps)
          if (values.length === 1) acc.row(values[0], r)
          else acc.many(values, r)
        }
      })
    }
    case 'computed': {
      const read = source.read
      return yield* steps(rows.length, (from, to) => {
        for (let i = from; i < to; i++) {
          const r = rows[i]!
          if (table.has(r)) acc.row(read(r), r)
        }
      })
    }
  }
}

/** A value as aggregates see it: a number, text or boolean; anything else (objects, arrays) is null. */
function scalar(v: unknown): AggregateValue | null {
  switch (typeof v) {
    case 'number':
      return Number.isFinite(v) ? v : null
    case 'string':
    case 'boolean':
      return v
    default:
      // A calculated date may be a Date: its ISO text, as the stored form of a date-time.
      return v instanceof Date && !Number.isNaN(v.getTime()) ? v.toISOString() : null
  }
}

/**
 * Aggregates of values of any kind, kept per kind: booleans, texts (compared folded or exactly)
 * and numbers. `count` counts rows with at least one value.
 */
class Accumulator {
  readonly #folds: boolean
  count = 0
  #numbers = 0
  #sum = 0
  #numMin = Infinity
  #numMax = -Infinity
  #hasFalse = false
  #hasTrue = false
  // Texts: the comparison key and the value of the least and greatest, and their rows.
  #minKey: string | null = null
  #min = ''
  #minRow = -1
  #maxKey: string | null = null
  #max = ''
  #maxRow = -1

  constructor(folds: boolean) {
    this.#folds = folds
  }

  /** One row's value. */
  row(v: unknown, rowId: number): void {
    if (this.#value(v, rowId)) this.count++
  }

  /** The values one row reaches through `[]`: the row counts once if any is a value. */
  many(values: readonly unknown[], rowId: number): void {
    let any = false
    for (const v of values) any = this.#value(v, rowId) || any
    if (any) this.count++
  }

  #value(raw: unknown, rowId: number): boolean {
    const v = scalar(raw)
    if (v === null) return false
    if (typeof v === 'number') {
      this.#numbers++
      this.#sum += v
      if (v < this.#numMin) this.#numMin = v
      if (v > this.#numMax) this.#numMax = v
    } else if (typeof v === 'boolean') {
      if (v) this.#hasTrue = true
      else this.#hasFalse = true
    } else {
      const k = this.#folds ? fold(v) : v
      if (
        this.#minKey === null ||
        k < this.#minKey ||
        (k === this.#minKey && rowId < this.#minRow)
      ) {
        this.#minKey = k
        this.#min = v
        this.#minRow = rowId
      }
      if (
        this.#maxKey === null ||
        k > this.#maxKey ||
        (k === this.#maxKey && rowId < this.#maxRow)
      ) {
        this.#maxKey = k
        this.#max = v
        this.#maxRow = rowId
      }
    }
    return true
  }

  result(numeric: boolean): Aggregates {
    // min and max of the first kind present, in 4D's order: booleans, texts, numbers.
    let min: AggregateValue | null = null
    let max: AggregateValue | null = null
    if (this.#hasFalse || this.#hasTrue) {
      min = !this.#hasFalse
      max = this.#hasTrue
    } else if (this.#minKey !== null) {
      min = this.#min
      max = this.#max
    } else if (this.#numbers > 0) {
      min = this.#numMin
      max = this.#numMax
    }
    if (!numeric) return { count: this.count, min, max }
    return {
      count: this.count,
      sum: this.#sum,
      average: this.#numbers === 0 ? null : this.#sum / this.#numbers,
      min,
      max,
    }
  }
}

// ---------------------------------------------------------------- distinct values

/**
 * The distinct values of `path` over `rows`, nulls left out, in ascending order (texts by their
 * folded form; mixed kinds booleans, then texts, then numbers). Texts that fold alike are one
 * value unless `diacritical`; the spelling given is that of the lowest row id. Over the whole
 * table, a sorted index of the attribute is walked instead of the rows.
 */
export function distinctRows(
  table: Table,
  rows: RowIds,
  path: AggregatePath,
  options: DistinctOptions & RowsOptions,
): AggregateValue[] {
  return finish(distinctWork(table, rows, path, options))
}

/** `distinctRows` as work that may stop between steps (slices.ts). */
export function* distinctWork(
  table: Table,
  rows: RowIds,
  path: AggregatePath,
  options: DistinctOptions & RowsOptions,
): Work<AggregateValue[]> {
  const { source } = path
  const diacritical = options.diacritical === true
  if (source.kind === 'number' || source.kind === 'stored' || !diacritical) {
    const sorted = path.storage && table.indexes.of(path.storage.name)?.sorted
    if (sorted && options.whole()) return distinctFromIndex(table, sorted, path.storage!.name)
  }
  switch (source.kind) {
    case 'number':
      yield* columnReady(table, source.name, 'numeric')
      return yield* distinctNumbers(table, table.numericColumn(source.name), rows, options)
    case 'text':
      if (!diacritical) {
        yield* columnReady(table, source.name, 'folded')
        return yield* distinctTexts(table, rows, source.name)
      }
      break
  }
  const acc = new DistinctValues(
    !diacritical && (source.kind === 'computed' ? source.folds : source.kind !== 'stored'),
  )
  if (source.kind === 'text') {
    const read = table.reader(source.name)
    yield* steps(rows.length, (from, to) => {
      for (let i = from; i < to; i++) {
        const r = rows[i]!
        const v = read(r)
        if (v !== undefined) acc.add(v, r)
      }
    })
  } else yield* eachDistinct(table, rows, source, acc)
  return acc.values()
}

/**
 * The kernel distinctNumbers over `rows` (over the column itself when they are every row in
 * row-id order: a deleted row reads NaN there, as a null), on worker threads when the read runs in
 * slices on a datastore with a pool and the column and rows are shared (parallel-work.ts); its
 * parts' sorted values merged here.
 */
function* distinctNumbers(
  table: Table,
  column: Float64Array,
  rows: RowIds,
  options: RowsOptions,
): Work<number[]> {
  const merged = new DistinctMerge()
  const add = (part: Float64Array) => merged.add(part)
  if (table.keyOrderIsRowOrder && options.whole())
    yield* kernelWork('distinctNumbers', { column }, table.scanLength, isShared(column), add)
  else {
    const shared = isShared(column) && rows instanceof Int32Array && isShared(rows)
    yield* kernelWork('distinctNumbers', { column, rows }, rows.length, shared, add)
  }
  return Array.from(merged.values())
}

/** Folded text → the lowest row holding it; then the keys sorted and each spelling read once. */
function* distinctTexts(table: Table, rows: RowIds, name: string): Work<string[]> {
  const folded = table.foldedColumn(name)
  const first = new Map<string, number>()
  // In chunks, as `numbers` (see CHUNK), a stop between steps of STEP_ROWS.
  for (let from = 0; from < rows.length; from += CHUNK) {
    spend(CHUNK)
    firstRows(folded, rows, from, Math.min(rows.length, from + CHUNK), first)
    if (((from + CHUNK) & (STEP_ROWS - 1)) === 0 && from + CHUNK < rows.length) yield
  }
  // Folded keys compare by code unit, which is the default sort.
  const keys = [...first.keys()].sort()
  const out = new Array<string>(keys.length)
  const read = table.reader(name)
  for (let i = 0; i < keys.length; i++) out[i] = read(first.get(keys[i]!)!) as string
  return out
}

function firstRows(
  folded: FoldedTexts,
  rows: RowIds,
  from: number,
  to: number,
  first: Map<string, number>,
): void {
  for (let i = from; i < to; i++) {
    const r = rows[i]!
    const f = folded.at(r)
    if (f === null) continue
    const seen = first.get(f)
    if (seen === undefined || r < seen) first.set(f, r)
  }
}

/**
 * A sorted index's keys, each once, as the stored value of the first (lowest) row holding it. The
 * end of each key's run is found by galloping then halving, so the walk costs O(d log(n/d)) key
 * reads for d distinct keys among n, not one per row: 20 cities among 1M rows read a few hundred.
 */
function distinctFromIndex(table: Table, sorted: SortedIndex, name: string): AggregateValue[] {
  const [start, end] = nonNull(sorted)
  // keyAt, not content(): content() copies numeric keys whole.
  const out: AggregateValue[] = []
  const read = table.reader(name)
  let p = start
  while (p < end) {
    const k = sorted.keyAt(p)
    out.push(read(sorted.rowAt(p)) as AggregateValue)
    // keys[lo] is k; keys[hi] is not (or hi is the end).
    let lo = p
    let step = 1
    while (p + step < end && sorted.keyAt(p + step) === k) {
      lo = p + step
      step *= 2
    }
    let hi = Math.min(p + step, end)
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1
      if (sorted.keyAt(mid) === k) lo = mid
      else hi = mid
    }
    p = hi
  }
  return out
}

function* eachDistinct(
  table: Table,
  rows: RowIds,
  source: Exclude<Source, { kind: 'number' | 'text' }>,
  acc: DistinctValues,
): Work<void> {
  const read = source.kind === 'computed' ? undefined : table.reader(source.name)
  yield* steps(rows.length, (from, to) => {
    for (let i = from; i < to; i++) {
      const r = rows[i]!
      if (!table.has(r)) continue
      switch (source.kind) {
        case 'stored':
          acc.add(read!(r), r)
          break
        case 'object': {
          const root = read!(r)
          if (root === null || root === undefined) break
          for (const v of objectValues(root, source.steps)) acc.add(v, r)
          break
        }
        case 'computed':
          acc.add(source.read(r), r)
      }
    }
  })
}

/** Distinct values of any kind, kept per kind and put in order at the end. */
class DistinctValues {
  readonly #folds: boolean
  #false = false
  #true = false
  readonly #numbers = new Set<number>()
  // Comparison key → the value and row that gave it first (the lowest row id).
  readonly #texts = new Map<string, { value: string; row: number }>()

  constructor(folds: boolean) {
    this.#folds = folds
  }

  add(raw: unknown, rowId: number): void {
    const v = scalar(raw)
    if (v === null) return
    if (typeof v === 'number') this.#numbers.add(v)
    else if (typeof v === 'boolean') {
      if (v) this.#true = true
      else this.#false = true
    } else {
      const k = this.#folds ? fold(v) : v
      const seen = this.#texts.get(k)
      if (!seen) this.#texts.set(k, { value: v, row: rowId })
      else if (rowId < seen.row) {
        seen.value = v
        seen.row = rowId
      }
    }
  }

  values(): AggregateValue[] {
    const out: AggregateValue[] = []
    if (this.#false) out.push(false)
    if (this.#true) out.push(true)
    // Exact texts (diacritical) in folded order, ties by code unit: the order of `$orderby`.
    const texts = [...this.#texts.values()].map((t) => t.value)
    const keys = new Map(texts.map((t) => [t, fold(t)]))
    texts.sort((a, b) => {
      const fa = keys.get(a)!
      const fb = keys.get(b)!
      return fa < fb ? -1 : fa > fb ? 1 : a < b ? -1 : a > b ? 1 : 0
    })
    out.push(...texts)
    out.push(...Float64Array.from(this.#numbers).sort())
    return out
  }
}
