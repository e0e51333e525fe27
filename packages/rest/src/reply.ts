/**
 * @module What a resource answers: a status and a JSON body (or the bytes of a picture or BLOB),
 * before any HTTP. The router, the resources and the read and write helpers below them all return
 * a `Reply`; handler.ts renders it and adds the headers.
 */
import type { JsonObject } from './serialize/entity.js'
import type { JsonChunks } from './serialize/json-chunks.js'

/** A JSON body: a value to stringify, JSON text already written, or text rendered piece by piece. */
export type JsonBody = JsonObject | string | JsonChunks

export interface Reply {
  readonly status: number
  /** JSON, or the bytes of a picture or BLOB (with `type`). */
  readonly body: JsonBody | Uint8Array
  /** For bytes: their media type, and how a browser should treat them (`attachment` to save). */
  readonly file?: { readonly type: string; readonly disposition?: string }
}

/** The HTTP methods of the REST interface: reads are GET (and HEAD), everything else is POST. */
export const ALLOWED_METHODS = 'GET, HEAD, POST'

/** A 200 reply with `body`. */
export const ok = (body: JsonBody): Reply => ({ status: 200, body })
