/**
 * @module What an HTTP request handler receives (4D's `4D.IncomingMessage`, 20 R8,
 * docs/API/IncomingMessageClass.md): the request's URL, path, query, verb and headers, and its
 * body as text, JSON, bytes or a picture. Made by the REST interface for a request that a handler
 * of `HTTPHandlers.json` takes; a handler written in JavaScript (a singleton function) gets it as
 * it is, one written in 4D gets the 4d package's view of it (the same members). Every member only
 * reads: a handler cannot change the request.
 *
 * ```ts
 * gettingStarted: { call(request: IncomingMessage) {
 *   return new OutgoingMessage().setBody(`Called URL: ${request.url}`)
 * } }
 * ```
 */
import { fail } from '../errors/datastore-error.js'

// A symbol from the global registry: a message made by another copy of the package is still one.
const FOOTPRINT = Symbol.for('@entistore/rest:IncomingMessage')

/** The request, as the transport read it. */
export interface IncomingMessageInit {
  /** The method, as on the request line (`GET`). */
  readonly verb: string
  /** The path as sent (percent-encoded), without the query. */
  readonly path: string
  /** The query string as sent, without its `?`; '' when there is none. */
  readonly query: string
  /** Headers by lowercase name; several values of one name are joined with `, `. */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>
  /** The body as sent; absent when there is none. */
  readonly body?: Uint8Array | string | undefined
}

const decode = (text: string): string => {
  try {
    return decodeURIComponent(text)
  } catch {
    // A malformed escape (`%E0%A4%A`) is kept as sent rather than refusing the request.
    return text
  }
}

/** A JSON collection or object given within single quotes, without them (`'[1]'` is `[1]`). */
const unquoted = (value: string): string =>
  /^'[[{][\s\S]*[\]}]'$/.test(value) ? value.slice(1, -1) : value

export class IncomingMessage {
  readonly [FOOTPRINT] = true
  /** The URL without the scheme and `host:port`: the path and the query as sent (`/start/x?a=1`). */
  readonly url: string
  /** The path's segments, percent-decoded, without empty ones (`["start", "x"]`). */
  readonly urlPath: readonly string[]
  /**
   * The query's parameters, decoded, as text (`{ a: "1" }`): a JSON value given as a parameter
   * stays its text, for the handler to parse; given within single quotes
   * (`?myparams='[{"id": 3}]'`), it comes without them, as IncomingMessageClass.md shows its
   * `JSON Parse` reading a collection. A name given twice keeps its last value.
   */
  readonly urlQuery: Readonly<Record<string, string>>
  /** The verb (method), as on the request line: `GET`, `POST`… */
  readonly verb: string
  /** The headers by lowercase name. */
  readonly headers: Readonly<Record<string, string>>
  readonly #body: Uint8Array | string

  constructor(init: IncomingMessageInit) {
    this.verb = init.verb
    this.url = init.query === '' ? init.path : `${init.path}?${init.query}`
    this.urlPath = init.path
      .split('/')
      .filter((s) => s !== '')
      .map(decode)
    const query: Record<string, string> = Object.create(null)
    for (const pair of init.query.split('&')) {
      if (pair === '') continue
      const at = pair.indexOf('=')
      const name = decode((at < 0 ? pair : pair.slice(0, at)).replaceAll('+', ' '))
      query[name] = at < 0 ? '' : unquoted(decode(pair.slice(at + 1).replaceAll('+', ' ')))
    }
    this.urlQuery = Object.freeze(query)
    const headers: Record<string, string> = Object.create(null)
    for (const [name, value] of Object.entries(init.headers))
      if (value !== undefined)
        headers[name.toLowerCase()] = typeof value === 'string' ? value : value.join(', ')
    this.headers = Object.freeze(headers)
    this.#body = init.body ?? ''
    Object.freeze(this)
  }

  /** Whether `value` is an IncomingMessage (of any copy of this package). */
  static is(value: unknown): value is IncomingMessage {
    return typeof value === 'object' && value !== null && FOOTPRINT in value
  }

  /** The value of header `key`, whatever its case; undefined when the request has none. */
  getHeader(key: string): string | undefined {
    return this.headers[key.toLowerCase()]
  }

  /** The body as text (bytes read as UTF-8); '' when there is none. */
  getText(): string {
    const body = this.#body
    return typeof body === 'string' ? body : new TextDecoder().decode(body)
  }

  /** The body as bytes (text as its UTF-8); empty when there is none. */
  getBlob(): Uint8Array {
    const body = this.#body
    return typeof body === 'string' ? new TextEncoder().encode(body) : body.slice()
  }

  /**
   * The body read as JSON.
   * @throws DatastoreError BadRequestBody (9030, 400): the body is not JSON
   */
  getJSON(): unknown {
    const text = this.getText()
    try {
      return JSON.parse(text) as unknown
    } catch (error) {
      return fail('BadRequestBody', [`the body is not JSON (${(error as Error).message})`])
    }
  }

  /**
   * The body's bytes when the request says it is a picture (`Content-Type: image/…`), else null,
   * as 4D answers a body that is not a picture.
   */
  getPicture(): Uint8Array | null {
    const type = this.getHeader('content-type') ?? ''
    return /^image\//i.test(type.trim()) ? this.getBlob() : null
  }
}
