/**
 * @module The value types an attribute can hold (the catalog's `type` of storage attributes), and
 * the form of a primary key. Defined here, below the schema, because coercion and comparison need
 * them and the schema is built on top of both.
 */

export const VALUE_TYPES = [
  'bool',
  'blob',
  'byte',
  'date',
  'duration',
  'image',
  'long',
  'long64',
  'number',
  'string',
  'uuid',
  'word',
  'object',
] as const

/** The scalar types an attribute can hold (the catalog's `type` of storage attributes). */
export type ValueType = (typeof VALUE_TYPES)[number]

/** A primary-key value: numbers for numeric keys, strings for string and uuid keys. */
export type KeyValue = number | string
