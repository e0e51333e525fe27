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
 * - its bytes must be valid UTF-8 and valid JSON, and a syntax error says the line and column;
 * - no object in it may have a key `__proto__`, `constructor` or `prototype`: JSON.parse makes them
 *   harmless own properties, but code that later copies the value into other objects (a merge, an
 *   `Object.assign`, a spread into a record) could let them reach a prototype;
 * - its objects and arrays may nest only `maxDepth` deep: JSON.parse builds a 10,000-deep value
 *   without trouble, but any recursive code after it (serializing, comparing, copying) would overflow
 *   the stack. The check itself walks with an explicit stack, so it cannot overflow.
 * Error messages echo at most about 100 characters of the client's text: a body is not a way to make
 * the server write megabytes of logs or replies.
 */
import { DatastoreError, fail } from '@entistore/core'
import { lineAndColumn, readJsonSyntaxError } from './json-syntax-error.js'

export interface JsonBodyOptions {
  /** Deepest nesting of objects/arrays accepted. @default 64 */
  readonly maxDepth?: number
}

const DEFAULT_MAX_DEPTH = 64

/** The longest stretch of client text (a key, a path, a type, a parser's message) an error echoes. */
const MAX_ECHO = 100
/** The longest single key shown in a path: a path has room for a few of them. */
const MAX_KEY_ECHO = 40

/** Keys refused at any depth: each one names a way to reach an object's prototype. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype'])

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
    value = parse(text)
  } catch (error) {
    // Bytes that are not JSON text under a type that does not claim JSON are a body of that type
    // (a form, a multipart upload, a file): one this server cannot read, not a JSON mistake, so the
    // JSON parser's complaint (the cause) is not passed on to the client.
    if (foreign === undefined || !DatastoreError.is(error)) throw error
    return fail('UnsupportedMediaType', [foreign])
  }
  checkValue(value, maxDepth)
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

// ---- Bytes to text to value ----

function decode(body: Uint8Array | string): string {
  if (typeof body === 'string') return body.charCodeAt(0) === 0xfeff ? body.slice(1) : body
  try {
    return UTF8.decode(body)
  } catch (error) {
    return fail('BadRequestBody', ['it is not valid UTF-8'], { cause: error })
  }
}

/** JSON.parse, with a syntax error turned into a BadRequestBody that says where. */
function parse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error
    const place = readJsonSyntaxError(error.message, text.length)
    const reason = clip(place.reason, MAX_ECHO)
    const position = place.position
    if (position === undefined)
      return fail('BadRequestBody', [`it is not JSON (${reason}; the parser gave no position)`], {
        cause: error,
      })
    const { line, column } = lineAndColumn(text, position)
    return fail(
      'BadRequestBody',
      [`it is not JSON (${reason}) at line ${line}, column ${column}`],
      {
        cause: error,
        details: { line, column },
      },
    )
  }
}

// ---- The parsed value ----

/** One object or array being walked; the stack of them is the path from the root. */
interface Frame {
  readonly container: object
  /** The object's own keys; undefined for an array. */
  readonly keys: readonly string[] | undefined
  readonly size: number
  /** The next key or index to visit. */
  next: number
  /** This container's key or index in its parent; undefined for the root. */
  readonly at: string | number | undefined
}

/**
 * Refuses a forbidden key or a nesting past `maxDepth`, anywhere in `value`. Iterative: the stack is
 * an array as deep as the value, never the call stack. Each object's keys are checked when it is
 * reached, before anything inside it.
 */
function checkValue(value: unknown, maxDepth: number): void {
  if (!isContainer(value)) return
  const stack: Frame[] = []
  const enter = (container: object, at: string | number | undefined): void => {
    if (stack.length + 1 > maxDepth)
      fail('BadRequestBody', [
        `it nests objects and arrays deeper than ${maxDepth} levels (at ${pathOf(stack, at)})`,
      ])
    const frame = open(container, at)
    stack.push(frame)
    if (frame.keys !== undefined)
      for (const key of frame.keys)
        if (FORBIDDEN_KEYS.has(key))
          fail('BadRequestBody', [`it has the key "${key}" (at ${pathOf(stack, key)})`])
  }
  enter(value, undefined)
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!
    if (top.next === top.size) {
      stack.pop()
      continue
    }
    const i = top.next++
    const at = top.keys === undefined ? i : top.keys[i]!
    const child = (top.container as Record<string | number, unknown>)[at]
    if (isContainer(child)) enter(child, at)
  }
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null
}

function open(container: object, at: string | number | undefined): Frame {
  if (Array.isArray(container))
    return { container, keys: undefined, size: container.length, next: 0, at }
  // Own keys: JSON.parse makes `__proto__` an own data property, which `in` would not tell from
  // the inherited accessor.
  const keys = Object.keys(container)
  return { container, keys, size: keys.length, next: 0, at }
}

/**
 * The path of `last` below the frames of `stack`, as JavaScript would write it (`$[0].extra.__proto__`,
 * `$["a b"]`). Each key is clipped, and a path longer than about 100 characters keeps its first and
 * last steps around a `…`.
 */
function pathOf(stack: readonly Frame[], last: string | number | undefined): string {
  const steps = ['$']
  for (let i = 1; i < stack.length; i++) steps.push(segment(stack[i]!.at!))
  if (last !== undefined) steps.push(segment(last))
  let length = 0
  for (const step of steps) length += step.length
  if (length <= MAX_ECHO) return steps.join('')
  // The end says where the problem is, the start where that part of the body begins.
  let head = 0
  let headLength = 0
  while (headLength + steps[head]!.length <= MAX_ECHO * 0.4) headLength += steps[head++]!.length
  let tail = steps.length
  let tailLength = 0
  while (tail > head + 1 && headLength + tailLength + steps[tail - 1]!.length < MAX_ECHO)
    tailLength += steps[--tail]!.length
  return steps.slice(0, head).join('') + '…' + steps.slice(tail).join('')
}

function segment(at: string | number): string {
  if (typeof at === 'number') return `[${at}]`
  if (/^[A-Za-z_$][\w$]*$/.test(at) && at.length <= MAX_KEY_ECHO) return '.' + at
  return `[${JSON.stringify(clip(at, MAX_KEY_ECHO))}]`
}

/** `text` cut to `max` characters, the cut marked with `…`. */
function clip(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max - 1) + '…'
}
