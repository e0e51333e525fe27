/**
 * @module The model file format: the shape of `GET /rest/$catalog/$all`, so that a catalog saved from a
 * real 4D or Qodly server loads as is. Every field but names is optional; `load-model.ts` fills the
 * defaults. Unknown fields are kept and echoed in the catalog (4D adds new ones over time).
 */

export { VALUE_TYPES, type ValueType } from '../values/value-types.js'

export const ATTRIBUTE_KINDS = [
  'storage',
  'relatedEntity',
  'relatedEntities',
  'calculated',
  'alias',
] as const
export type AttributeKind = (typeof ATTRIBUTE_KINDS)[number]

/** One attribute as the catalog describes it. */
export interface AttributeJson {
  name: string
  /** @default 'storage' */
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
  [extra: string]: unknown
}

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
  attributes: AttributeJson[]
  key?: { name: string }[]
  [extra: string]: unknown
}

/** Datastore method entry of the catalog (`methods`). */
export interface MethodJson {
  name: string
  applyTo?: string
  scope?: string
  from?: string
  allowedOnHTTPGET?: boolean
  exposed?: boolean
  [extra: string]: unknown
}

export interface ModelJson {
  /** The application name (`__NAME` of the catalog, and the session cookie's suffix). */
  __NAME?: string
  methods?: MethodJson[]
  dataClasses: DataClassJson[]
  [extra: string]: unknown
}
