/**
 * @module What the attributes of a typed model (schema/typed-model.ts) read as and take on writes,
 * in terms of the public objects: a relatedEntity reads as the target's `Entity` or null, a
 * relatedEntities as an `EntitySelection` of the target, a calculated or alias attribute as its
 * value. Under `UntypedModel` every read is `unknown` and every write takes `unknown`, which is the
 * untyped API.
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
