/**
 * @module The values of an HTTP exchange as 4D code gives and gets them, for `HTTP Request`
 * (commands/http-client.ts) and `4D.HTTPRequest` (classes/http-request.ts): a body from a text,
 * BLOB, picture or object, and an answer's type, text (by its charset) and JSON.
 */
import { isBinaryValue } from '@entistore/core'
import { stringify, fromJSON } from '../convert/json.js'
import type { HttpReply } from '../context/command-context.js'
import { Collection } from '../values/collection.js'
import { isPlainObject } from '../values/kinds.js'
import { blobBytes } from '../values/blob-object.js'

/**
 * A body and its default type: a text as UTF-8 `text/plain`, a picture in its own type, a BLOB as
 * `application/byte-stream` (4D's words), an object or a collection as JSON; undefined for none.
 */
export function requestBody(v: unknown): { bytes?: Uint8Array; type?: string } | undefined {
  if (v === undefined || v === null || v === '') return {}
  if (typeof v === 'string')
    return { bytes: new TextEncoder().encode(v), type: 'text/plain; charset=UTF-8' }
  if (isBinaryValue(v)) return { bytes: new Uint8Array(v.bytes), type: v.type }
  const blob = blobBytes(v)
  if (blob !== undefined) return { bytes: blob, type: 'application/byte-stream' }
  if (isPlainObject(v) || v instanceof Collection)
    return { bytes: new TextEncoder().encode(stringify(v, false)), type: 'application/json' }
  return undefined
}

/** The answer's media type, in lower case ("" when it gives none). */
export const contentType = (reply: HttpReply): string =>
  reply.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1].toLowerCase() ?? ''

/** The answer as text, by the charset its type names (`charset=iso-8859-1`), UTF-8 by default. */
export function decodeText(reply: HttpReply): string {
  const charset = /charset="?([^";\s]+)/.exec(contentType(reply))?.[1] ?? 'utf-8'
  try {
    return new TextDecoder(charset).decode(reply.body)
  } catch {
    return new TextDecoder().decode(reply.body)
  }
}

/** The answer parsed as JSON (4D values), or null when it is not JSON. */
export function parsedJson(reply: HttpReply): unknown {
  try {
    return fromJSON(JSON.parse(decodeText(reply)))
  } catch {
    return null
  }
}
