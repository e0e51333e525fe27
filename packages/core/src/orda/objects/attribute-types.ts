/**
 * @module What the attributes of a typed model (schema/typed-model.ts) read as and take on writes,
 * in terms of the public objects: a relatedEntity reads as the target's `Entity` or null, a
 * relatedEntities as an `EntitySelection` of the target, a calculated or alias attribute as its
 * value. Under `UntypedModel` every read is `unknown` and every write takes `unknown`, which is the
 * untyped API. With them the objects `fromCollection` takes, typed by the same writes, and what a
 * selection's attribute properties project (SelectionAttributes, the EntitySelection's).
 */
import type { KeyValue } from '../../store/entity-record.js'
import type { BinaryValue } from '../../values/binary.js'
import type {
  AttributeName,
  Computed,
  DataClassName,
  ModelTypes,
  RelatedEntities,
  RelatedEntity,
} from '../../schema/typed-model.js'
import type { Entity } from './entity.js'
import type { EntitySelection, EntitySelectionCore } from './entity-selection.js'

/** What an attribute described as `V` reads as in model `M`. */
export type ReadValue<M extends ModelTypes, V> =
  V extends Computed<infer T>
    ? ReadValue<M, T>
    : V extends RelatedEntity<infer T>
      ? T extends DataClassName<M>
        ? Entity<M, T> | null
        : unknown
      : V extends RelatedEntities<infer T>
        ? T extends DataClassName<M>
          ? EntitySelection<M, T>
          : unknown
        : V

/** What `entity.get(K)` returns for attribute `K` of dataclass `N`. */
export type AttributeValue<
  M extends ModelTypes,
  N extends DataClassName<M>,
  K extends AttributeName<M, N>,
> = ReadValue<M, M[N][K]>

/**
 * What a write takes for an attribute described as `V`: its value (null only when the attribute
 * accepts null), and for a relation the related Entity, its key or `{ __KEY }`; a binary also
 * takes bytes or `{ $base64, type }` (values/coerce.ts converts them).
 */
export type WriteValue<M extends ModelTypes, V> =
  V extends RelatedEntity<infer T>
    ? | (T extends DataClassName<M> ? Entity<M, T> : never)
      | KeyValue
      | { readonly __KEY: KeyValue }
      | null
    : V extends BinaryValue
      ? V | Uint8Array | ArrayBuffer | { readonly $base64: string; readonly type?: string }
      : V

/**
 * The values a create, an update or a draft takes for dataclass `N`: any of its attributes except
 * those computed on read (calculated, alias) and the 1→N relations, which the engine refuses.
 */
export type WriteValues<M extends ModelTypes, N extends DataClassName<M>> = {
  readonly [
    K in keyof M[N] as [M[N][K]] extends [Computed<unknown> | RelatedEntities<string>] ? never : K
  ]?: WriteValue<M, M[N][K]>
}

/** The names `WriteValues` takes. */
export type WritableName<M extends ModelTypes, N extends DataClassName<M>> = Extract<
  keyof WriteValues<M, N>,
  string
>

/**
 * The key of attribute `K` among the properties of an object of dataclass `N` (attribute-
 * properties.ts): none for the untyped model (any name would compile), none for a name the object
 * already has as a member (`Taken`: the member wins), else `K`.
 */
export type PropertyName<
  M extends ModelTypes,
  N extends DataClassName<M>,
  K extends string,
  Taken,
> = string extends AttributeName<M, N> ? never : K extends Taken ? never : K

/**
 * One object of `fromCollection`'s collection (members/from-collection.ts), typed by the model:
 * each attribute with what a write takes (a relation also as `{ <key attribute>: key }`);
 * attributes no write may name are allowed and ignored, so that what `toCollection()` gives can
 * be sent back.
 */
export type FromCollectionObject<M extends ModelTypes, N extends DataClassName<M>> = {
  readonly [K in AttributeName<M, N>]?: K extends WritableName<M, N>
    ? WriteValue<M, M[N][K]> | (WriteValue<M, M[N][K]> extends infer W ? RelatedObject<W> : never)
    : unknown
} & {
  /** The primary key of the entity to update (4D: taken only when that entity exists). */
  readonly __KEY?: KeyValue
  /** True: create, never update (4D's `__NEW`). */
  readonly __NEW?: boolean
  /** The stamp the entity to update must still have. */
  readonly __STAMP?: number
}

// A relation's value (its WriteValue has `{ __KEY }`) may also name the key by its attribute.
type RelatedObject<W> = [Extract<W, { readonly __KEY: KeyValue }>] extends [never]
  ? never
  : { readonly [attribute: string]: unknown }

/** The selection members' names: an attribute of the same name is projected by `extract` only. */
type SelectionMemberName = keyof EntitySelectionCore | keyof object | 'constructor'

/**
 * What a selection's property `K` projects for an attribute described as `V` (4D's
 * `selection.attributeName`): a relation, the selection of the entities it reaches, without
 * duplicates; any other attribute, the collection of its values (as `extract(name)`: nulls left
 * out).
 */
export type ProjectedValue<M extends ModelTypes, V> = [V] extends [Computed<infer T>]
  ? ProjectedValue<M, T>
  : [V] extends [RelatedEntity<infer T> | null]
    ? T extends DataClassName<M>
      ? EntitySelection<M, T>
      : unknown
    : [V] extends [RelatedEntities<infer T>]
      ? T extends DataClassName<M>
        ? EntitySelection<M, T>
        : unknown
      : Exclude<V, null>[]

/**
 * A typed model's attributes of dataclass `N` as read-only projections of its selections:
 * `ds.Employee.all().lastName` is a `string[]`, `selection.employer` the selection of their
 * companies. None for the untyped model (`extract(name)` there).
 */
export type SelectionAttributes<M extends ModelTypes, N extends DataClassName<M>> = {
  readonly [K in AttributeName<M, N> as PropertyName<M, N, K, SelectionMemberName>]: ProjectedValue<
    M,
    M[N][K]
  >
}
