/**
 * @module What the attributes of a typed model (schema/typed-model.ts) read as and take on writes,
 * in terms of the public objects: a relatedEntity reads as the target's `Entity` or null, a
 * relatedEntities as an `EntitySelection` of the target, a calculated or alias attribute as its
 * value. Under `UntypedModel` every read is `unknown` and every write takes `unknown`, which is the
 * untyped API. With them the objects `fromCollection` takes, typed by the same writes.
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
import type { EntitySelection } from './entity-selection.js'

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
