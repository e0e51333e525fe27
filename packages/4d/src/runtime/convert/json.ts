/**
 * @module 4D values as JSON (`JSON Stringify`, docs/commands-legacy/json-stringify.md, and
 * dt_object.md "Text streaming") and JSON values as 4D ones:
 * - a Date is written `"YYYY-MM-DD"`, as 4D does with the date type setting new projects have
 *   ("Dates inside objects": date type); the null date is written null;
 * - a Time is its number of seconds ("Times inside objects" in seconds);
 * - an object's own enumerable properties in their order, an Undefined property left out (a class
 *   instance too: it "loses its class"); a collection's elements, an Undefined one written null;
 *   an object of the host as it answers TO_JSON (`"[object Entity]"` for one with no JSON form, as
 *   4D writes its native classes, `"[object Blob]"` for either BLOB); a function
 *   `"[object Function]"`;
 * - a number not finite is written null (JSON has none);
 * - an object or collection that contains itself raises an error ("circular references are not
 *   supported").
 * `*` (pretty) indents with tabs and writes `": "`, as the command's example 3 shows.
 *
 * Each value written, and each value made a 4D one, is a pass of the budget's
 * (context/budget.ts) when the caller gives its running context: the JSON of millions of
 * elements ends at the budget with 9410. Both walk the values with a stack, not by recursion, and
 * give way where the ticks run out (values/resumable.ts): their steps (`stringifySteps`,
 * `fromJSONSteps`, values/work.ts) stop there, so that a call in slices holds no other client.
 */
import { UNCOUNTED, type Passes } from '../values/passes.js'
import { finish, type Work } from '../values/work.js'
import { runAll, runSteps } from '../values/resumable.js'
import { rebuild, rebuildSteps, type Make } from '../values/rebuild.js'
import { raise } from '../errors/fourd-error.js'
import { Collection } from '../values/collection.js'
import { DateValue } from '../values/date-value.js'
import { BLOB_JSON } from '../values/blob-object.js'
import { isJsonHost, TO_JSON } from '../values/host.js'
import { newObject } from '../values/kinds.js'
import { TimeValue } from '../values/time-value.js'

/**
 * `JSON Stringify(value {; *})`. Undefined alone gives "" (nothing to write). `pieces`: the sizes
 * of the pieces it is written in (see below; tests make them small).
 */
export function stringify(
  value: unknown,
  pretty = false,
  rt: Passes = UNCOUNTED,
  pieces: Pieces = PIECES,
): string {
  const w: Writing = { rt, pieces, weight: 0, large: undefined }
  const plain = new Plain(value, w)
  runAll(plain.run, rt)
  if (plain.made === undefined) return ''
  return finish(written(plain.made, pretty ? '\t' : undefined, '', w))
}

/**
 * `stringify` as steps (values/work.ts): a call in slices may stop between two values made plain
 * and between two pieces written.
 */
export function* stringifySteps(
  value: unknown,
  pretty = false,
  rt: Passes = UNCOUNTED,
  pieces: Pieces = PIECES,
): Work<string> {
  const w: Writing = { rt, pieces, weight: 0, large: undefined }
  const plain = new Plain(value, w)
  yield* runSteps(plain.run, rt)
  if (plain.made === undefined) return ''
  return yield* written(plain.made, pretty ? '\t' : undefined, '', w)
}

/**
 * A value is written by `JSON.stringify`, one native call that nothing interrupts, a piece at a
 * time. A value weighs 1, a text 1 more for each 64 characters, an array or object 1 more than
 * its members: one that weighs more than `weight` is written a group of members at a time, each
 * group weighing at most `weight` (or one member, written the same way), and a text alone longer
 * than `text` a piece at a time; the rest at once (a piece of 65,536 numbers takes about 5 ms).
 * Each piece counts its weight as passes.
 */
export interface Pieces {
  readonly weight: number
  readonly text: number
}

const PIECES: Pieces = { weight: 1 << 16, text: 1 << 16 }

interface Writing {
  readonly rt: Passes
  readonly pieces: Pieces
  /** The weight of the values made plain so far. */
  weight: number
  /** The arrays and objects that weigh more than a piece, and their groups (none: none). */
  large: Map<object, Groups> | undefined
}

/** A large value's members in groups: where each group ends, and its weight. */
interface Groups {
  readonly ends: number[]
  readonly weights: number[]
}

/** A large value's groups closed at `end`: the last one, of `weight`, added. */
function closed(groups: Groups | undefined, end: number, weight: number): Groups {
  const g = groups ?? { ends: [], weights: [] }
  g.ends.push(end)
  g.weights.push(weight)
  return g
}

// What `leaf` answers for an array or object, whose members are made plain one by one.
const OPEN = Symbol('open')

/** A value made plain at once (each value weighs 1, a text 1 more a 64 characters), or OPEN. */
function leaf(v: unknown, w: Writing): unknown {
  switch (typeof v) {
    case 'string':
      w.weight += v.length >> 6
      return v
    case 'boolean':
    case 'undefined':
      return v
    case 'number':
      return Number.isFinite(v) ? v : null
    case 'object':
      break
    default:
      return objectName(v)
  }
  if (v === null) return null
  if (v instanceof DateValue) return v.isNull ? null : v.toISO()
  if (v instanceof TimeValue) return v.seconds
  // A scalar BLOB as the 4D.Blob an object would hold (values/blob-object.ts answers the same).
  if (v instanceof Uint8Array) return BLOB_JSON
  return OPEN
}

const ARRAY = 0
const OBJECT = 1
/** An object of the host, written as the value it answers TO_JSON. */
const HOST = 2

/** An array or object being made plain. */
interface Opened {
  readonly source: object
  readonly kind: typeof ARRAY | typeof OBJECT | typeof HOST
  /** A collection's elements, an object's keys, or the one value a host answers. */
  readonly members: readonly unknown[]
  /** What it is made: an array or an object (a host: the plain value of its JSON, in `made`). */
  readonly out: unknown[] | Record<string, unknown>
  made: unknown
  /** The next member, and the members written (an object leaves an Undefined one out). */
  i: number
  size: number
  /** The weight before it, and before its current member. */
  readonly start: number
  before: number
  /** Its groups of members so far, and the weight of the one it is making. */
  groups: Groups | undefined
  group: number
}

function opened(v: object, w: Writing): Opened {
  const start = w.weight - 1
  const of = (kind: Opened['kind'], members: readonly unknown[], out: Opened['out']): Opened => ({
    source: v,
    kind,
    members,
    out,
    made: undefined,
    i: 0,
    size: 0,
    start,
    before: start,
    groups: undefined,
    group: 0,
  })
  if (v instanceof Collection) return of(ARRAY, v.items, [])
  if (isJsonHost(v)) return of(HOST, [v[TO_JSON]()], [])
  return of(OBJECT, Object.keys(v), {})
}

/**
 * A value made plain: each member made plain and put in its array or object, where the groups of
 * members (see above) are made as the members are, cut before a member that would make the group
 * weigh more than a piece. Its keys come out in the order they are put in (Object.keys gives
 * those that look like indexes first, in order, and so does it of the value given): a group is a
 * run of them. The values are walked with a stack of those opened, not by recursion, and `run`
 * gives way when the budget's ticks run out (values/resumable.ts), so that a call in slices may
 * stop at any value.
 */
class Plain {
  /** The plain value, once `run` has answered true. */
  made: unknown = undefined
  readonly #w: Writing
  readonly #open = new Set<object>()
  readonly #stack: Opened[] = []
  /** The value to make plain next, when `#pending`. */
  #next: unknown
  #pending = true

  constructor(value: unknown, w: Writing) {
    this.#next = value
    this.#w = w
  }

  readonly run = (rt: Passes): boolean => {
    const w = this.#w
    const stack = this.#stack
    for (;;) {
      if (this.#pending) {
        if (--rt.ticks < 0) return false
        this.#pending = false
        w.weight++
        const next = this.#next
        const made = leaf(next, w)
        if (made !== OPEN) {
          const top = stack[stack.length - 1]
          if (top === undefined) return this.#done(made)
          took(top, made, w)
        } else {
          const v = next as object
          if (this.#open.has(v)) return raise('CircularReference')
          this.#open.add(v)
          stack.push(opened(v, w))
        }
      }
      // The next member to make plain, each value whose members are all made closed on the way.
      const top = stack[stack.length - 1]!
      if (top.i < top.members.length) {
        const member =
          top.kind === OBJECT
            ? (top.source as Record<string, unknown>)[top.members[top.i] as string]
            : top.members[top.i]
        top.before = w.weight
        if (typeof member !== 'number' || top.kind !== ARRAY) {
          this.#next = member
          this.#pending = true
          continue
        }
        // The most common member, made plain here.
        if (--rt.ticks < 0) return false
        w.weight++
        took(top, Number.isFinite(member) ? member : null, w)
        continue
      }
      stack.pop()
      this.#open.delete(top.source)
      const done = closedValue(top, w)
      const parent = stack[stack.length - 1]
      if (parent === undefined) return this.#done(done)
      took(parent, done, w)
    }
  }

  #done(made: unknown): true {
    this.made = made
    return true
  }
}

/** The plain value of `top`'s current member put in it. */
function took(top: Opened, plain: unknown, w: Writing): void {
  const i = top.i++
  if (top.kind === HOST) {
    top.made = plain
    return
  }
  // An object leaves an Undefined member out; an array writes it null.
  if (top.kind === OBJECT && plain === undefined) return
  const weight = w.weight - top.before
  const at = top.kind === ARRAY ? i : top.size
  if (top.group > 0 && top.group + weight > w.pieces.weight) {
    top.groups = closed(top.groups, at, top.group)
    top.group = 0
  }
  top.group += weight
  if (top.kind === ARRAY) (top.out as unknown[]).push(plain ?? null)
  else {
    defineOwn(top.out as Record<string, unknown>, top.members[i] as string, plain)
    top.size++
  }
}

/** What `top` is made, its groups kept when it weighs more than a piece. */
function closedValue(top: Opened, w: Writing): unknown {
  if (top.kind === HOST) return top.made
  if (w.weight - top.start > w.pieces.weight) {
    const size = top.kind === ARRAY ? (top.out as unknown[]).length : top.size
    ;(w.large ??= new Map()).set(top.out, closed(top.groups, size, top.group))
  }
  return top.out
}

/**
 * The JSON of a plain value (`plainSteps`'s) at `indent`, `gap` the indentation of a level, a
 * group of members (or a piece of a long text) between two stops.
 */
function* written(v: unknown, gap: string | undefined, indent: string, w: Writing): Work<string> {
  if (typeof v === 'string' && v.length > w.pieces.text)
    return yield* longText(v, w.rt, w.pieces.text)
  const groups = typeof v === 'object' && v !== null ? w.large?.get(v) : undefined
  if (groups === undefined) return native(v, gap, indent)
  const inner = gap === undefined ? '' : indent + gap
  const colon = gap === undefined ? ':' : ': '
  const o = v as Record<string, unknown>
  const keys = Array.isArray(v) ? undefined : Object.keys(o)
  const texts: string[] = []
  let from = 0
  for (let g = 0; g < groups.ends.length; g++) {
    const end = groups.ends[g]!
    if ((w.rt.ticks -= groups.weights[g]!) < 0) {
      w.rt.tick()
      yield
    }
    if (end - from === 1) {
      // One member alone: written the same way, as large as it may be.
      const member = yield* written(keys === undefined ? o[from] : o[keys[from]!], gap, inner, w)
      texts.push(inner + (keys === undefined ? '' : JSON.stringify(keys[from]) + colon) + member)
    } else {
      // Members weighing a piece at most: written at once, then cut out of their brackets.
      let part: unknown
      if (keys === undefined) part = (v as unknown[]).slice(from, end)
      else {
        const some: Record<string, unknown> = {}
        for (let k = from; k < end; k++) defineOwn(some, keys[k]!, o[keys[k]!])
        part = some
      }
      const json = native(part, gap, indent)
      texts.push(
        gap === undefined
          ? json.slice(1, -1)
          : indent + json.slice(2 + indent.length, -2 - indent.length),
      )
    }
    from = end
  }
  const [first, last] = keys === undefined ? ['[', ']'] : ['{', '}']
  if (gap === undefined) return first + texts.join(',') + last
  return `${first}\n${texts.join(',\n')}\n${indent}${last}`
}

/** `JSON.stringify` of a value at `indent`. */
function native(v: unknown, gap: string | undefined, indent: string): string {
  const json = JSON.stringify(v, null, gap)
  return indent === '' ? json : json.replaceAll('\n', `\n${indent}`)
}

/** The JSON of a long text, a piece at a time (never between the two halves of a pair). */
function* longText(text: string, rt: Passes, piece: number): Work<string> {
  let out = '"'
  for (let from = 0; from < text.length;) {
    let to = Math.min(from + piece, text.length)
    const last = text.charCodeAt(to - 1)
    if (to < text.length && to - from > 1 && last >= 0xd800 && last <= 0xdbff) to--
    if ((rt.ticks -= (to - from) >> 6) < 0) {
      rt.tick()
      yield
    }
    out += JSON.stringify(text.slice(from, to)).slice(1, -1)
    from = to
  }
  return out + '"'
}

// `__proto__` is a property name like any other in 4D's objects.
function defineOwn(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true })
  else out[key] = value
}

const objectName = (v: unknown): string => {
  const name = (v as { constructor?: { name?: unknown } } | null)?.constructor?.name
  return `[object ${typeof name === 'string' && name !== '' ? name : 'Object'}]`
}

/**
 * A value parsed from JSON as 4D holds it: arrays become collections, objects 4D objects (no
 * prototype), the rest as it is (`leaf` makes each value that is neither an array nor an object:
 * `JSON Parse` makes dates of some texts). For what `JSON Parse` and REST parameters give 4D code.
 */
export function fromJSON(
  v: unknown,
  rt: Passes = UNCOUNTED,
  leaf: (v: unknown) => unknown = same,
): unknown {
  return rebuild(v, rt, made(leaf))
}

/**
 * `fromJSON` as steps (values/work.ts), each value a pass of the budget's and a place to stop
 * (values/rebuild.ts).
 */
export function fromJSONSteps(
  v: unknown,
  rt: Passes = UNCOUNTED,
  leaf: (v: unknown) => unknown = same,
): Work<unknown> {
  return rebuildSteps(v, rt, made(leaf))
}

const same = (v: unknown): unknown => v

/** How a value of JSON is made a 4D one, `leaf` making those neither arrays nor objects. */
const made =
  (leaf: (v: unknown) => unknown): Make =>
  (x, open) => {
    if (Array.isArray(x)) {
      const c = new Collection([])
      open(x, undefined, c)
      return c
    }
    if (typeof x !== 'object' || x === null) return leaf(x)
    const o = newObject()
    open(x as Record<string, unknown>, Object.keys(x), o)
    return o
  }
