/**
 * @module What a resource answers: a status and a JSON body (or the bytes of a picture or BLOB),
 * before any HTTP. The router, the resources and the read and write helpers below them all return
 * a `Reply`; handler.ts renders it and adds the headers.
 */
import type { JsonObject } from './serialize/entity.js'
import type { JsonChunks } from './serialize/json-chunks.js'
import type { RestStream } from './exchange.js'

/** A JSON body: a value to stringify, JSON text already written, or text rendered piece by piece. */
export type JsonBody = JsonObject | string | JsonChunks

export interface Reply {
  readonly status: number
  /** JSON, or the bytes of a picture or BLOB (with `type`), or events as they come (`$changes`). */
  readonly body: JsonBody | Uint8Array | RestStream
  /**
   * For bytes: their media type, how a browser should treat them (`attachment` to save), and the
   * other headers a function's OutgoingMessage set.
   */
  /**
   * For JSON: headers besides the interface's own (`$asArray`'s page and total, which its bare
   * array cannot carry: read-selection.ts).
   */
  readonly headers?: Readonly<Record<string, string>>
  readonly file?: {
    readonly type: string
    readonly disposition?: string
    readonly headers?: Readonly<Record<string, string>>
  }
}

/**
 * What a resource answers: a reply, or the Promise of one for a call of an async function (the
 * only resource that waits; every other reply is made synchronously).
 */
export type Answer = Reply | Promise<Reply>

/** The HTTP methods of the REST interface: reads are GET (and HEAD), everything else is POST. */
export const ALLOWED_METHODS = 'GET, HEAD, POST'

/** A 200 reply with `body` (JSON, or the bytes of a JSON text kept from an earlier reply). */
export const ok = (body: JsonBody | Uint8Array): Reply => ({ status: 200, body })
