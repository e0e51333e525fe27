/**
 * @module What binding carries through one query (its options, the schema, the computed attributes
 * being rewritten) and the small rules every part of binding shares: which operators take
 * wildcards, nulls and ranges, how an attribute is looked up and its read asked, the error it raises.
 */
import type { ReadCheck } from '../access/read-check.js'
import { fail } from '../errors/datastore-error.js'
import {
  type AttributeDef,
  type CalculatedAttributeDef,
  type DataClassDef,
  type SchemaDef,
  attributeNames,
  isShownAttribute,
} from '../schema/definitions.js'
import type { ValueType } from '../schema/model-json.js'
import type { ComparisonOp } from './ast.js'

export interface BindOptions {
  /** Values of `:1`, `:2`, … */
  readonly params?: readonly unknown[]
  /** Values of `:name` placeholders. */
  readonly named?: Readonly<Record<string, unknown>>
  /** Paths of `:name` placeholders written where a path goes (4D's querySettings.attributes). */
  readonly attributes?: Readonly<Record<string, unknown>>
  /** Only exposed, public attributes can be named (the REST interface). @default false */
  readonly exposedOnly?: boolean
  /**
   * Replace a comparison on a computed attribute that has a query function by the filter it
   * returns. Off, every such comparison calls the getter per entity (and no function is called).
   * @default true
   */
  readonly computedQueries?: boolean
  /**
   * The view the query is bound for, asked about each attribute the binding resolves (1607, 1557
   * refused); undefined: nothing is checked (no one acting, or no rule). Not optional: whoever
   * binds says for whom.
   */
  readonly reads: ReadCheck | undefined
}

export interface Ctx {
  readonly schema: SchemaDef
  readonly options: BindOptions
  /**
   * The computed attributes whose function's answer is being bound: a comparison or a sort on one
   * of them inside its own answer takes the default (the getter), instead of asking again forever.
   */
  readonly rewriting?: readonly CalculatedAttributeDef[]
}

export const WILDCARD_OPS: ReadonlySet<ComparisonOp> = new Set(['eq', 'ne', 'in'])

export const NULL_OPS: ReadonlySet<ComparisonOp> = new Set(['eq', 'ne', 'strictEq', 'strictNe'])

export const RANGE_OPS: ReadonlySet<ComparisonOp> = new Set(['lt', 'gt', 'le', 'ge'])

export const TEXT_TYPES: ReadonlySet<ValueType> = new Set(['string'])

const NUMERIC_TYPES: ReadonlySet<ValueType> = new Set([
  'byte',
  'word',
  'long',
  'long64',
  'number',
  'duration',
])

export const pathValues = (ctx: Ctx) => ({
  params: ctx.options.params,
  attributes: ctx.options.attributes,
})

export function attributeOf(ctx: Ctx, dc: DataClassDef, name: string): AttributeDef {
  const attr = dc.attributesByName.get(name)
  if (!attr || (ctx.options.exposedOnly && !isShownAttribute(ctx.schema, attr)))
    return fail('AttributeNotFound', [name, dc.name, namesOf(ctx, dc)])
  ctx.options.reads?.needRead(dc, attr)
  return attr
}

/** The names a query of `dc` may use, for an unknown name's suggestions (none hidden from REST). */
export const namesOf = (ctx: Ctx, dc: DataClassDef): string[] =>
  attributeNames(ctx.schema, dc, ctx.options.exposedOnly ?? false)

/** Text for error messages, computed only if a message is written (binding runs per query). */
export interface LazyText {
  toString(): string
}

export const lazyText = (make: () => string): LazyText => ({ toString: make })

export function invalid(detail: string): never {
  return fail('InvalidComparison', [detail])
}

// Comparison values of integer attributes may be fractional (`age > 17.5`): coerce them as numbers.
export const comparisonType = (type: ValueType): ValueType =>
  NUMERIC_TYPES.has(type) ? 'number' : type
