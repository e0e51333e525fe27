/**
 * @module The wire text of a stored value and of the deferred forms, shared by the writer of
 * entities (entity.ts) and the writer of rows from a load's columns (column-writer.ts), so that
 * both write the same text by construction.
 */
import { isBinaryValue, keyText, type KeyValue, type StoredValue } from '@entistore/core'
import { quoteText } from './json-quote.js'
import { numberText } from './number-text.js'
import type { Uris } from './uris.js'

const q = JSON.stringify as (text: string) => string

/** A JSON value's text, as it is written inside an object. */
export function jsonText(v: unknown): string {
  if (typeof v === 'number') return Number.isFinite(v) ? numberText(v) : 'null'
  return JSON.stringify(v)
}

/** `{"__deferred":{"uri":…}}`: a relation to many, a BLOB. */
export const deferredText = (uri: string): string => `{"__deferred":{"uri":${q(uri)}}}`

/** The deferred form of the entity of `dataClass` whose key is `key` (a relation to one). */
export const deferredEntityText = (uris: Uris, dataClass: string, key: KeyValue): string =>
  `{"__deferred":{"uri":${q(uris.entity(dataClass, key))},"__KEY":${q(keyText(key))}}}`

/**
 * The text of `v`, stored at attribute `name` of the entity of `dataClass` whose key is `key`
 * (`dateOnly`: a date-only attribute): texts and numbers as JSON writes them, a date-only value
 * between `!!` as the real server writes it, a picture or a BLOB in its deferred form.
 */
export function storedText(
  uris: Uris,
  dataClass: string,
  key: KeyValue,
  name: string,
  dateOnly: boolean,
  v: StoredValue,
): string {
  // Texts and numbers first: most values are one or the other. Date-only values are stored as
  // YYYY-MM-DD; the real server writes them between `!!`.
  if (typeof v === 'string') return dateOnly ? q(`!!${v}!!`) : quoteText(v)
  if (typeof v === 'number') return Number.isFinite(v) ? numberText(v) : 'null'
  if (v === null) return 'null'
  if (isBinaryValue(v)) {
    const image = v.type.startsWith('image/')
    const params = image
      ? `$imageformat=best&$version=${v.version}&`
      : `$binary=true&$version=${v.version}&`
    const uri = uris.attribute(dataClass, key, name, params)
    return image ? `{"__deferred":{"uri":${q(uri)},"image":true}}` : deferredText(uri)
  }
  return jsonText(v)
}
