/**
 * @module What a function returns to answer with something else than JSON: a file to download, a
 * page, an image (4D's `4D.OutgoingMessage`, typically from an `onHTTPGet` function). The body is
 * sent as it is, with its media type, status and headers; nothing is wrapped in `{"result": …}`.
 * A value of the functions, which the REST interface writes (rest/src/resources/functions.ts) and
 * 4D code builds (the 4d package's `4D.OutgoingMessage`); what it holds is checked here, once.
 *
 * ```ts
 * getManual: { exposed: true, onHTTPGet: true, call(id: number) {
 *   return new OutgoingMessage().setBody(pdfBytes).setHeader('Content-Type', 'application/pdf')
 * } }
 * ```
 */

/** Headers a function may not set: the interface's own (the session cookie, the framing). */
const RESERVED = new Set(['set-cookie', 'content-length', 'transfer-encoding', 'connection'])

/**
 * Why a header cannot be set (undefined when it can): a name that is not an HTTP token (a line
 * break in it would end the headers), one the server sets, a value holding a line break.
 */
export function headerProblem(name: string, value: string): string | undefined {
  const key = name.toLowerCase()
  if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(key)) return `${JSON.stringify(name)} is not a header name`
  if (RESERVED.has(key)) return `${name} is set by the server`
  if (/[\r\n]/.test(value)) return 'a header value cannot hold a line break'
  return undefined
}

/** Why `status` cannot be a message's (undefined when it can). */
export function statusProblem(status: number): string | undefined {
  return Number.isInteger(status) && status >= 200 && status <= 599
    ? undefined
    : `${status} is not a status from 200 to 599`
}

// A symbol from the global registry: a message made with another copy of the package (a
// functions module that imports `entistore` from its own node_modules) is still recognized.
const FOOTPRINT = Symbol.for('@entistore/rest:OutgoingMessage')

export class OutgoingMessage {
  readonly [FOOTPRINT] = true
  #body: Uint8Array | string = ''
  #status = 200
  readonly #headers = new Map<string, string>()

  constructor(
    init: { body?: Uint8Array | string; status?: number; headers?: Record<string, string> } = {},
  ) {
    if (init.body !== undefined) this.setBody(init.body)
    if (init.status !== undefined) this.setStatus(init.status)
    for (const [name, value] of Object.entries(init.headers ?? {})) this.setHeader(name, value)
  }

  /** The body: bytes, or text (sent as UTF-8; `text/plain` unless a Content-Type is set). */
  setBody(body: Uint8Array | string): this {
    if (typeof body !== 'string' && !(body instanceof Uint8Array))
      throw new TypeError('OutgoingMessage.setBody: the body must be text or a Uint8Array')
    this.#body = body
    return this
  }

  /** A header (`Content-Type`, `Content-Disposition`, `Cache-Control`…); names are not case-sensitive. */
  setHeader(name: string, value: string): this {
    const problem = headerProblem(name, value)
    if (problem !== undefined) throw new TypeError(`OutgoingMessage.setHeader: ${problem}`)
    this.#headers.set(name.toLowerCase(), value)
    return this
  }

  /** The HTTP status. @default 200 */
  setStatus(status: number): this {
    const problem = statusProblem(status)
    if (problem !== undefined) throw new TypeError(`OutgoingMessage.setStatus: ${problem}`)
    this.#status = status
    return this
  }

  /** Whether `value` is an OutgoingMessage (of any copy of this package). */
  static is(value: unknown): value is OutgoingMessage {
    return typeof value === 'object' && value !== null && FOOTPRINT in value
  }

  get body(): Uint8Array | string {
    return this.#body
  }

  get status(): number {
    return this.#status
  }

  /** The headers set, lowercase names. */
  get headers(): ReadonlyMap<string, string> {
    return this.#headers
  }
}
