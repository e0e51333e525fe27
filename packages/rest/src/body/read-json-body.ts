/**
 * @module The one gate between a write request's raw body and the code that applies it
 * (`$method=update` sends an entity object or an array of them). A body comes from anyone, so it is
 * checked here once, before any other code sees it:
 * - its Content-Type must say JSON (or plain text, which `fetch` with a string body and some clients
 *   send), in UTF-8; a form or multipart body is refused with 415 rather than misread;
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
import { fail } from '@entistore/core'
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
 * Throws DatastoreError (from '@entistore/core'): BadRequestBody (9030, 400) or UnsupportedMediaType (9036, 415).
 *
 * An absent or zero-byte body is undefined whatever its Content-Type: with no content there is no
 * type to refuse. Any other body has its Content-Type checked first.
 */
export function readJsonBody(
  body: Uint8Array | string | undefined,
  contentType: string | string[] | undefined,
  options: JsonBodyOptions = {},
): unknown {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH
  if (!(maxDepth >= 0)) throw new RangeError(`maxDepth must be a number >= 0, not ${maxDepth}`)
  if (body === undefined || body.length === 0) return undefined
  checkContentType(contentType)
  const text = decode(body)
  if (/^[ \t\n\r]*$/.test(text)) return undefined
  const value = parse(text)
  checkValue(value, maxDepth)
  return value
}

// ---- Content-Type ----

// RFC 9110 token characters, for the subtype of `application/<something>+json`.
const STRUCTURED_JSON = /^application\/[!#$%&'*.^_`|~0-9a-z-]+\+json$/

/** Refuses a Content-Type that is not JSON or plain text, or whose charset is not UTF-8. */
function checkContentType(header: string | string[] | undefined): void {
  const value = singleHeader(header)
  if (value === undefined) return
  const [typePart = '', ...params] = value.split(';')
  const type = typePart.trim().toLowerCase()
  // An empty header declares nothing: read the body as JSON, as when the header is missing.
  if (type === '' && params.length === 0) return
  if (type !== 'application/json' && type !== 'text/plain' && !STRUCTURED_JSON.test(type))
    fail('UnsupportedMediaType', [clip(typePart.trim(), MAX_ECHO)])
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
