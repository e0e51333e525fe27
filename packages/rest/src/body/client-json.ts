/**
 * @module The one reader of JSON text a client sends, wherever it comes from: a request body
 * (read-json-body.ts, after its type and bytes are checked) and the URL's `$params` (url/params.ts),
 * which a function call and a query's placeholders take instead of a body. A value is refused the
 * same way whichever way it came, each refusal worded as the caller's own error (a body's 9030, a
 * parameter's 1806) through the `refuse` it gives:
 * - the text must be JSON, and a syntax error says the line and column;
 * - no object in it may have a key `__proto__`, `constructor` or `prototype`: JSON.parse makes them
 *   harmless own properties, but code that later copies the value into other objects (a merge, an
 *   `Object.assign`, a spread into a record) could let them reach a prototype;
 * - its objects and arrays may nest only `maxDepth` deep: JSON.parse builds a 10,000-deep value
 *   without trouble, but any recursive code after it (serializing, comparing, copying) would overflow
 *   the stack. The check itself walks with an explicit stack, so it cannot overflow.
 * Refusals echo at most about 100 characters of the client's text: a request is not a way to make
 * the server write megabytes of logs or replies.
 */
import type { DatastoreErrorOptions } from '@entistore/core'
import { lineAndColumn, readJsonSyntaxError } from './json-syntax-error.js'

/** Deepest nesting of objects and arrays accepted when the embedder sets none. */
export const DEFAULT_MAX_DEPTH = 64

/**
 * Throws the caller's error for a value it cannot take: `why` says what is wrong in words that
 * follow "it" (`it has the key "__proto__" (at $[0].__proto__)`); `options` carry the parser's
 * error as the cause and, for a syntax error, `details: { line, column }`.
 */
export type Refuse = (why: string, options?: DatastoreErrorOptions) => never

/** The longest stretch of client text (a key, a path, a parser's message) a refusal echoes. */
export const MAX_ECHO = 100
/** The longest single key shown in a path: a path has room for a few of them. */
const MAX_KEY_ECHO = 40

/** Keys refused at any depth: each one names a way to reach an object's prototype. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype'])

/** `text` parsed (`parseJson`) and checked (`checkJson`): the value a client may hand on. */
export function readClientJson(text: string, maxDepth: number, refuse: Refuse): unknown {
  const value = parseJson(text, refuse)
  checkJson(value, maxDepth, refuse)
  return value
}

/** JSON.parse, with a syntax error refused with where it is. */
export function parseJson(text: string, refuse: Refuse): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error
    const place = readJsonSyntaxError(error.message, text.length)
    const reason = clip(place.reason, MAX_ECHO)
    const position = place.position
    if (position === undefined)
      return refuse(`it is not JSON (${reason}; the parser gave no position)`, { cause: error })
    const { line, column } = lineAndColumn(text, position)
    return refuse(`it is not JSON (${reason}) at line ${line}, column ${column}`, {
      cause: error,
      details: { line, column },
    })
  }
}

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
export function checkJson(value: unknown, maxDepth: number, refuse: Refuse): void {
  if (!(maxDepth >= 0)) throw new RangeError(`maxDepth must be a number >= 0, not ${maxDepth}`)
  if (!isContainer(value)) return
  const stack: Frame[] = []
  const enter = (container: object, at: string | number | undefined): void => {
    if (stack.length + 1 > maxDepth)
      refuse(`it nests objects and arrays deeper than ${maxDepth} levels (at ${pathOf(stack, at)})`)
    const frame = open(container, at)
    stack.push(frame)
    if (frame.keys !== undefined)
      for (const key of frame.keys)
        if (FORBIDDEN_KEYS.has(key)) refuse(`it has the key "${key}" (at ${pathOf(stack, key)})`)
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
  // The end says where the problem is, the start where that part of the value begins.
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
export function clip(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max - 1) + '…'
}
