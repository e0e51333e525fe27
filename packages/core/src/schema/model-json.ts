/**
 * @module The model file format: the shape of `GET /rest/$catalog/$all`, so that a catalog saved from a
 * real 4D or Qodly server loads as is. Every field but names is optional; `load-model.ts` fills the
 * defaults. Unknown fields are kept and echoed in the catalog (4D adds new ones over time).
 */

import type { ValueType } from '../values/value-types.js'

export { VALUE_TYPES, type ValueType } from '../values/value-types.js'

export const ATTRIBUTE_KINDS = [
  'storage',
  'relatedEntity',
  'relatedEntities',
  'calculated',
  'alias',
] as const
export type AttributeKind = (typeof ATTRIBUTE_KINDS)[number]

/**
 * What every attribute of the catalog may carry, whatever its kind. The kinds below narrow `kind`
 * and `type`; the flags stay on every kind because the catalog allows them anywhere (and 4D
 * ignores the ones that make no sense for a kind).
 */
export interface AttributeJsonBase {
  name: string
  kind?: AttributeKind
  /** A ValueType for storage/calculated/alias; the target dataclass for relatedEntity; `<Class>Selection` for relatedEntities. */
  type?: string
  fieldPos?: number
  /** @default 'public' */
  scope?: string
  /** @default true */
  exposed?: boolean
  uuid?: string
  indexed?: boolean
  /**
   * Entistore extension: which index `indexed` builds. `hash` serves equality and IN; `sorted` also
   * ranges, begin and order by; `auto` builds both (fastest equality and ranges). @default 'auto'
   */
  indexKind?: 'hash' | 'sorted' | 'auto'
  unique?: boolean
  not_null?: boolean
  autosequence?: boolean
  identifying?: boolean
  readOnly?: boolean
  /** relatedEntity: the target dataclass. relatedEntities: the inverse relatedEntity attribute. alias: the aliased path. */
  path?: string
  reversePath?: boolean
  /** relatedEntity: the storage attribute that holds the related entity's key. */
  foreignKey?: string
  inverseName?: string
  /** Entistore extension for `date` attributes: `false` keeps the time of day. @default true */
  dateOnly?: boolean
  /**
   * Entistore extension for `string` attributes: the most characters a value may have (4D's Alpha
   * field length, `limiting_length` in a structure file); a longer value is refused (1570).
   */
  maxLength?: number
  /**
   * Entistore extension, 4D's "Map NULL values to blank values" (`never_null` in a structure file):
   * null is stored as the type's blank value (`""`, `0`, `false`), so the attribute never reads null.
   */
  never_null?: boolean
  [extra: string]: unknown
}

/** A stored value (the default kind): `type` is one of VALUE_TYPES. */
export interface StorageAttributeJson extends AttributeJsonBase {
  /** @default 'storage' */
  kind?: 'storage'
  type: ValueType
}

/** A value computed on read by a function given to the loader (`calculated` option). */
export interface CalculatedAttributeJson extends AttributeJsonBase {
  kind: 'calculated'
  /**
   * A value type, or a dataclass (a getter of an entity: `Employee`) or its selection (of an
   * entity selection: `EmployeeSelection`), as 4D's catalog types them.
   */
  type: ValueType | (string & {})
}

/** An N→1 relation: the target dataclass is `path`, else `type`. */
export interface RelatedEntityAttributeJson extends AttributeJsonBase {
  kind: 'relatedEntity'
  type?: string
}

/** A 1→N relation: `path` names the relatedEntity attribute of the target that points back. */
export interface RelatedEntitiesAttributeJson extends AttributeJsonBase {
  kind: 'relatedEntities'
  /** `<Class>Selection` (the target's collectionName). */
  type?: string
  path: string
}

/** Another attribute read through a path of relatedEntity steps (`employer.name`). */
export interface AliasAttributeJson extends AttributeJsonBase {
  kind: 'alias'
  path: string
  /** What the path leads to; the loader works it out when it is missing. */
  type?: string
}

/**
 * One attribute as the catalog describes it, one shape per kind, so that a model written in
 * TypeScript has its `kind` and storage `type` checked. A model read from a file is checked by the
 * loader instead (see `ModelJsonDocument`).
 */
export type AttributeJson =
  | StorageAttributeJson
  | CalculatedAttributeJson
  | RelatedEntityAttributeJson
  | RelatedEntitiesAttributeJson
  | AliasAttributeJson

export interface DataClassJson {
  name: string
  className?: string
  collectionName?: string
  tableNumber?: number
  /** @default 'public' */
  scope?: string
  /** @default true */
  exposed?: boolean
  uuid?: string
  dataURI?: string
  /** Page size of reads without `$top`. @default 100 */
  defaultTopSize?: number
  extraProperties?: Record<string, unknown>
  attributes: readonly AttributeJson[]
  key?: readonly { name: string }[]
  /** Functions declared on the dataclass (`applyTo` dataClass, entity or entityCollection). */
  methods?: readonly MethodJson[]
  [extra: string]: unknown
}

/** A function entry of the catalog (`methods` of the datastore, of a dataclass, of a singleton). */
export interface MethodJson {
  name: string
  applyTo?: string
  scope?: string
  from?: string
  allowedOnHTTPGET?: boolean
  exposed?: boolean
  /**
   * Entistore extension: the 4D class file that declares the function (`Classes/Employee.4dm`),
   * for the error a call without code answers; not shown in the catalog.
   */
  declaredIn?: string
  [extra: string]: unknown
}

/** A shared singleton of the catalog (`singletons`): its name and exposed functions. */
export interface SingletonJson {
  name: string
  methods: readonly MethodJson[]
  [extra: string]: unknown
}

export interface ModelJson {
  /** The application name (`__NAME` of the catalog, and the session cookie's suffix). */
  __NAME?: string
  methods?: readonly MethodJson[]
  singletons?: readonly SingletonJson[]
  dataClasses: readonly DataClassJson[]
  [extra: string]: unknown
}

/**
 * A model as `JSON.parse` or `import model from './model.json'` gives it: TypeScript widens the
 * JSON's texts to `string`, so `kind` and `type` are not the literal unions of `ModelJson`. The
 * loader checks every field of it at run time (InvalidModel, 9020), which is why `createDatastore`
 * and `loadModel` take it as it is.
 */
export interface ModelJsonDocument {
  __NAME?: string
  methods?: readonly { name: string; [extra: string]: unknown }[]
  singletons?: readonly {
    name: string
    methods: readonly { name: string; [extra: string]: unknown }[]
    [extra: string]: unknown
  }[]
  dataClasses: readonly {
    name: string
    attributes: readonly { name: string; kind?: string; type?: string; [extra: string]: unknown }[]
    [extra: string]: unknown
  }[]
  [extra: string]: unknown
}
