/**
 * @module The one gate between a write request's raw body and the code that applies it
 * (`$method=update` sends an entity object or an array of them). A body comes from anyone, so it is
 * checked here once, before any other code sees it:
 * - a body that is JSON is read as JSON whatever its Content-Type says. Clients of this interface
 *   declare it loosely: the Wakanda client (the `request` library's `form: JSON.stringify(data)`)
 *   sends every write as JSON text under `application/x-www-form-urlencoded`, `fetch` with a string
 *   body says `text/plain`, others say nothing or `application/octet-stream`; the real 4D server
 *   reads them all as JSON, and a stand-in for it must too. Only a body that is not JSON is refused:
 *   415 when its type is not a JSON or text type (a real form or multipart body, which this server
 *   cannot read, rather than misread), 400 with the line and column when it claimed to be JSON or
 *   text, or claimed nothing;
 * - its charset, when it names one, must be UTF-8, whatever the type;
 * - its bytes must be valid UTF-8;
 * - its text is then read by the reader every JSON from a client goes through (client-json.ts, as
 *   the URL's `$params` are): valid JSON, no key `__proto__`, `constructor` or `prototype`, objects
 *   and arrays nested at most `maxDepth` deep.
 * Error messages echo at most about 100 characters of the client's text: a body is not a way to make
 * the server write megabytes of logs or replies.
 */
import { DatastoreError, fail } from '@entistore/core'
import {
  checkJson,
  clip,
  DEFAULT_MAX_DEPTH,
  MAX_ECHO,
  parseJson,
  type Refuse,
} from './client-json.js'

export interface JsonBodyOptions {
  /** Deepest nesting of objects/arrays accepted. @default 64 */
  readonly maxDepth?: number
}

/** A body's refusal: 400 BadRequestBody, "The request body is not valid: it …". */
const badBody: Refuse = (why, options) => fail('BadRequestBody', [why], options)

// fatal: invalid UTF-8 is an error, not U+FFFD replacements that would be saved as data. The
// decoder drops a leading BOM itself (ignoreBOM is false). One instance serves every call: decode()
// without { stream: true } keeps no state between calls.
const UTF8 = new TextDecoder('utf-8', { fatal: true })

/**
 * The JSON value of a request body, or undefined when the body is empty (absent, zero bytes, or only
 * whitespace).
 * Throws DatastoreError (from '@entistore/core'): BadRequestBody (9030, 400) or UnsupportedMediaType
 * (9036, 415, a body that is not JSON under a type that is not a JSON or text type).
 *
 * An absent or zero-byte body is undefined whatever its Content-Type: with no content there is no
 * type to refuse. Any other body has its Content-Type's charset checked first.
 */
export function readJsonBody(
  body: Uint8Array | string | undefined,
  contentType: string | string[] | undefined,
  options: JsonBodyOptions = {},
): unknown {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH
  if (!(maxDepth >= 0)) throw new RangeError(`maxDepth must be a number >= 0, not ${maxDepth}`)
  if (body === undefined || body.length === 0) return undefined
  const foreign = foreignType(contentType)
  let value: unknown
  try {
    const text = decode(body)
    if (/^[ \t\n\r]*$/.test(text)) return undefined
    value = parseJson(text, badBody)
  } catch (error) {
    // Bytes that are not JSON text under a type that does not claim JSON are a body of that type
    // (a form, a multipart upload, a file): one this server cannot read, not a JSON mistake, so the
    // JSON parser's complaint (the cause) is not passed on to the client.
    if (foreign === undefined || !DatastoreError.is(error)) throw error
    return fail('UnsupportedMediaType', [foreign])
  }
  checkJson(value, maxDepth, badBody)
  return value
}

/**
 * Whether a body of this Content-Type that is not JSON is a mistake in JSON (400) rather than a body
 * of another kind (415): the type is a JSON or text type, or none is said. Never throws: a header
 * readJsonBody would refuse (several values, another charset) says JSON here.
 */
export function claimsJson(contentType: string | string[] | undefined): boolean {
  try {
    return foreignType(contentType) === undefined
  } catch {
    return true
  }
}

// ---- Content-Type ----

// RFC 9110 token characters, for the subtype of `application/<something>+json`.
const STRUCTURED_JSON = /^application\/[!#$%&'*.^_`|~0-9a-z-]+\+json$/

/**
 * The type of a Content-Type that is not a JSON or text type, as sent (clipped), to name in a 415;
 * undefined for JSON, `text/plain` or no type. Refuses a charset other than UTF-8, whatever the type:
 * a JSON body in another charset would be misread.
 */
function foreignType(header: string | string[] | undefined): string | undefined {
  const value = singleHeader(header)
  if (value === undefined) return undefined
  const [typePart = '', ...params] = value.split(';')
  checkCharset(params)
  const type = typePart.trim().toLowerCase()
  // An empty header declares nothing: read the body as JSON, as when the header is missing.
  if (type === '' && params.length === 0) return undefined
  if (type === 'application/json' || type === 'text/plain' || STRUCTURED_JSON.test(type))
    return undefined
  return clip(typePart.trim(), MAX_ECHO)
}

/** Refuses a `charset` parameter that is not UTF-8. */
function checkCharset(params: readonly string[]): void {
  for (const param of params) {
    const eq = param.indexOf('=')
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'charset') continue
    let charset = param.slice(eq + 1).trim()
    if (charset.length >= 2 && charset.startsWith('"') && charset.endsWith('"'))
      charset = charset.slice(1, -1)
    const lower = charset.toLowerCase()
    if (lower !== 'utf-8' && lower !== 'utf8')
      fail('BadRequestBody', [
        `its charset ${JSON.stringify(clip(charset, MAX_ECHO))} is not UTF-8, the only one read`,
      ])
  }
}

/**
 * The one Content-Type value of a header that may have been sent several times (node:http keeps
 * the first; other transports may hand over a list). Copies of one value are one value; different
 * values leave the body's type unknown, which is refused rather than guessed.
 */
function singleHeader(header: string | string[] | undefined): string | undefined {
  if (header === undefined || typeof header === 'string') return header
  const distinct = new Set(header.map((h) => h.trim().toLowerCase()))
  if (distinct.size === 0) return undefined
  if (distinct.size > 1)
    fail('BadRequestBody', [`it has ${distinct.size} different Content-Type headers`])
  return header[0]
}

// ---- Bytes to text ----

function decode(body: Uint8Array | string): string {
  if (typeof body === 'string') return body.charCodeAt(0) === 0xfeff ? body.slice(1) : body
  try {
    return UTF8.decode(body)
  } catch (error) {
    return fail('BadRequestBody', ['it is not valid UTF-8'], { cause: error })
  }
}
