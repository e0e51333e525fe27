/**
 * @module The types of a model, for TypeScript users: which attributes each dataclass has and what
 * each one reads as. Nothing here exists at run time; `Datastore`, `DataClass`, `Entity`,
 * `EntitySelection` and `EntityDraft` take such a description as a type parameter so that
 * `ds.Employee.get(3)?.get('salary')` is a `number | null` and `get('nmae')` does not compile.
 *
 * A description maps each dataclass name to its attributes, and each attribute to what it reads as,
 * or to a marker for what the engine computes:
 *
 * ```ts
 * interface CompanyModel {
 *   Company: { ID: number; name: string | null; staff: RelatedEntities<'Employee'> }
 *   Employee: { ID: number; salary: number | null; employer: RelatedEntity<'Company'>; employerName: Computed<string | null> }
 * }
 * ```
 *
 * It comes from `entistore types --model model.json` (a generated file), from a model written in
 * TypeScript (`ModelTypesOf<typeof model>` for a JSON literal `as const`, or `defineModel`), or is
 * written by hand. Without one, every type parameter defaults to `UntypedModel`, which gives the
 * untyped API (`get(name: string): unknown`).
 */
import type { BinaryValue } from '../values/binary.js'
import type { JsonObject, JsonValue } from '../values/coerce.js'
import type { ValueType } from '../values/value-types.js'

/** What an `object` attribute holds: a frozen copy of a JSON object or array (values/coerce.ts). */
export type ObjectValue = Readonly<JsonObject> | readonly JsonValue[]

/**
 * What a value of each ValueType reads as: the canonical form coercion stores (values/coerce.ts).
 * Dates are text, `YYYY-MM-DD` (or an ISO date-time when the attribute keeps the time); durations
 * are milliseconds; uuids are 32 upper-case hex digits.
 */
export interface ValueTypes {
  bool: boolean
  blob: BinaryValue
  byte: number
  date: string
  duration: number
  image: BinaryValue
  long: number
  long64: number
  number: number
  string: string
  uuid: string
  word: number
  object: ObjectValue
}

/** The TypeScript type of a value of `T` (not null: nullability is the attribute's). */
export type ValueOfType<T extends ValueType> = ValueTypes[T]

declare const relation: unique symbol
declare const computed: unique symbol

/** In a model's types: an N→1 relation to `Target`; it reads as that dataclass's Entity, or null. */
export interface RelatedEntity<Target extends string> {
  readonly [relation]: { readonly one: Target }
}

/** In a model's types: a 1→N relation to `Target`; it reads as an EntitySelection of it. */
export interface RelatedEntities<Target extends string> {
  readonly [relation]: { readonly many: Target }
}

/**
 * In a model's types: a calculated or alias attribute, read as `T` (itself a value type or a
 * relation marker) and never written (the engine refuses it, AttributeReadOnly 1516).
 */
export interface Computed<T> {
  readonly [computed]: T
}

/**
 * The constraint of a model's types: an object of dataclasses, each an object of attributes. It is
 * `object` rather than an index signature so that an `interface` description is accepted.
 */
export type ModelTypes = object

/** The description of a model nothing is known about: any dataclass, any attribute, `unknown`. */
export type UntypedModel = Record<string, Record<string, unknown>>

/** The dataclass names of a description. */
export type DataClassName<M> = Extract<keyof M, string>

/** The attribute names of dataclass `N` of `M`. */
export type AttributeName<M, N extends keyof M> = Extract<keyof M[N], string>

// ---- inference from a model written as a JSON literal (`as const`, or inline in createDatastore)

type ClassesOf<J> = J extends { readonly dataClasses: readonly (infer D)[] } ? D : never
type AttributesOf<D> = D extends { readonly attributes: readonly (infer A)[] } ? A : never
type NameOf<X> = X extends { readonly name: infer N extends string } ? N : never
type ClassNamed<J, N> = Extract<ClassesOf<J>, { readonly name: N }>
type AttributeNamed<D, N> = Extract<AttributesOf<D>, { readonly name: N }>

// The loader's key: `key[0].name`, else the attribute marked identifying, else one named ID.
type KeyName<D> = D extends { readonly key: readonly { readonly name: infer K extends string }[] }
  ? K
  : [NameOf<Extract<AttributesOf<D>, { readonly identifying: true }>>] extends [never]
    ? 'ID'
    : NameOf<Extract<AttributesOf<D>, { readonly identifying: true }>>

// Null unless the attribute is the key or not_null (both refuse null on every write).
type Nullable<D, A> =
  NameOf<A> extends KeyName<D> ? never : A extends { readonly not_null: true } ? never : null

// relatedEntity: the target is `path`, else `type`.
type TargetOf<A> = A extends { readonly path: infer P extends string }
  ? P
  : A extends { readonly type: infer T extends string }
    ? T
    : never

// relatedEntities: the dataclass `<Class>Selection` names, else the one whose relatedEntity named
// `path` points back at `D`.
type ToManyTarget<J, D, A> = A extends { readonly type: `${infer X}Selection` }
  ? X extends NameOf<ClassesOf<J>>
    ? X
    : InverseOwner<J, D, A>
  : InverseOwner<J, D, A>

type InverseOwner<J, D, A> =
  ClassesOf<J> extends infer C
    ? C extends unknown
      ? A extends { readonly path: infer P }
        ? [Extract<AttributeNamed<C, P>, { readonly kind: 'relatedEntity' }>] extends [infer R]
          ? [R] extends [never]
            ? never
            : TargetOf<R> extends NameOf<D>
              ? NameOf<C>
              : never
          : never
        : never
      : never
    : never

type StoredType<D, A> = A extends { readonly type: infer T extends ValueType }
  ? ValueTypes[T] | Nullable<D, A>
  : unknown

// An alias reads what its path leads to; a step through a missing relation reads as null.
type AliasType<J, D, P> = P extends `${infer Head}.${infer Rest}`
  ? AttributeNamed<D, Head> extends infer A
    ? A extends { readonly kind: 'relatedEntity' }
      ? AliasType<J, ClassNamed<J, TargetOf<A>>, Rest> | null
      : unknown
    : unknown
  : AttributeTypeOf<J, D, AttributeNamed<D, P>> extends infer T
    ? T extends Computed<infer V>
      ? V
      : T
    : never

type AttributeTypeOf<J, D, A> = A extends { readonly kind: 'relatedEntity' }
  ? RelatedEntity<TargetOf<A>>
  : A extends { readonly kind: 'relatedEntities' }
    ? RelatedEntities<ToManyTarget<J, D, A>>
    : A extends { readonly kind: 'calculated'; readonly type: infer T extends ValueType }
      ? Computed<ValueTypes[T] | null>
      : A extends { readonly kind: 'alias'; readonly path: infer P extends string }
        ? Computed<AliasType<J, D, P>>
        : A extends { readonly kind: 'storage' }
          ? StoredType<D, A>
          : A extends { readonly kind: string }
            ? unknown
            : StoredType<D, A>

/**
 * The types of a model written as a JSON literal whose names TypeScript kept (`as const`, or a
 * literal passed straight to `createDatastore`). A model whose names widened to `string` (read
 * from a file, or annotated `ModelJson`) gives `UntypedModel`.
 *
 * @example
 * const model = { dataClasses: [ … ] } as const satisfies ModelJson
 * type Model = ModelTypesOf<typeof model>
 */
export type ModelTypesOf<J> =
  string extends NameOf<ClassesOf<J>>
    ? UntypedModel
    : {
        [D in ClassesOf<J> as NameOf<D>]: {
          [A in AttributesOf<D> as NameOf<A>]: AttributeTypeOf<J, D, A>
        }
      }
