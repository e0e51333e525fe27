/**
 * @module The attribute path an aggregate or a distinct reads, resolved once against the model: what
 * kind of source it reads (a numeric column, folded texts, stored values, an object property, a
 * computed value); the types and the small helpers that aggregates and distinct values share.
 */
import { fail } from '../errors/datastore-error.js'
import {
  aliasTarget,
  type AttributeDef,
  type DataClassDef,
  type StorageAttributeDef,
} from '../schema/definitions.js'
import { NUMERIC_COLUMN_TYPES } from '../store/table-columns.js'
import type { ValueType } from '../values/value-types.js'
import type { ObjectStep } from './bound.js'
import { spendOnCode } from './budget.js'
import { hasGetterSteps } from '../schema/getter-calls.js'
import type { SortedIndex } from '../indexes/sorted-index.js'

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
export type Source =
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
      /** Its getter has steps (a 4D project's): a read in slices goes into each call. */
      readonly stepped: boolean
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
      if (attr.related !== undefined)
        refuse(`${name} is computed as an entity or an entity selection, not a value`)
      return computed(ctx, attr, attr.type, path, refuse, hasGetterSteps(attr.compute))
    case 'alias': {
      if (steps.length) refuse(`${name} is an alias, not an object attribute`)
      const target = aliasTarget(ctx.dataClass, ctx.def, attr.path)
      const end = target?.attr
      if (!end || end.kind === 'relatedEntity' || end.kind === 'relatedEntities')
        return refuse(`the alias ${name} leads to a relation, not to a value`)
      if (target!.many)
        return refuse(`the alias ${name} goes through a to-many relation: it holds many values`)
      if (end.kind === 'alias') return refuse(`the alias ${name} leads to another alias`)
      return computed(
        ctx,
        attr,
        end.type,
        path,
        refuse,
        end.kind === 'calculated' && hasGetterSteps(end.compute),
      )
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

export function computed(
  ctx: PathContext,
  attr: AttributeDef,
  type: ValueType,
  path: string,
  refuse: (why: string) => never,
  stepped: boolean,
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
        spendOnCode()
        return read(rowId)
      },
      folds: type === 'string',
      numeric: NUMERIC_TYPES.has(type),
      stepped,
    },
  }
}

/** Whether `sum` and `average` apply to the path. */
export const isNumericPath = (path: AggregatePath): boolean => path.source.numeric

/** Where aggregates read from, and whether `rows` are every live row of the table. */
export interface RowsOptions {
  /**
   * True if the rows are every live row of the table: then count, min, max and distinct values
   * may read a sorted index instead, and a number's aggregates the column itself.
   */
  readonly whole: () => boolean
}

/**
 * Rows per call of a scan's inner loop. A scan of a million rows runs a handful of times, so V8
 * would optimize its one long loop mid-way (on-stack replacement) with no type feedback for the
 * code after the loop, and a process could then leave that code at every call (measured: 7 ms
 * instead of 2 on a million rows, in one process out of three). Short calls of a small function
 * are optimized the ordinary way.
 */
export const CHUNK = 1 << 10

/** Rows between two points where a pass may stop (slices.ts): a multiple of CHUNK. */
export const STEP_ROWS = 1 << 12

/** Positions [start, end) of a sorted index's non-null keys (nulls sort first). */
export const nonNull = (sorted: SortedIndex): [number, number] => [
  sorted.equal(null)[1],
  sorted.size,
]

/** A value as aggregates see it: a number, text or boolean; anything else (objects, arrays) is null. */
export function scalar(v: unknown): AggregateValue | null {
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
