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
 * elements ends at the budget with 9410.
 */
import { spend, UNCOUNTED, type Passes } from '../values/passes.js'
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
  const plain = toPlain(value, new Set(), w)
  if (plain === undefined) return ''
  return written(plain, pretty ? '\t' : undefined, '', w)
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

function toPlain(v: unknown, open: Set<object>, w: Writing): unknown {
  const rt = w.rt
  if (--rt.ticks < 0) rt.tick()
  w.weight++
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
  if (open.has(v)) return raise('CircularReference')
  open.add(v)
  const start = w.weight - 1
  // The groups of members (see above), made as the members are: cut before a member that would
  // make the group weigh more than a piece.
  let groups: Groups | undefined
  let group = 0
  try {
    if (v instanceof Collection) {
      // `map`, for an array V8 keeps packed: JSON.stringify writes one with holes half as fast.
      const out = v.items.map((item, i) => {
        let plain: unknown
        let weight = 1
        if (typeof item === 'number') {
          // The most common member, made plain here.
          if (--rt.ticks < 0) rt.tick()
          w.weight++
          plain = Number.isFinite(item) ? item : null
        } else {
          const before = w.weight
          plain = toPlain(item, open, w) ?? null
          weight = w.weight - before
        }
        if (group > 0 && group + weight > w.pieces.weight) {
          groups = closed(groups, i, group)
          group = 0
        }
        group += weight
        return plain
      })
      if (w.weight - start > w.pieces.weight)
        (w.large ??= new Map()).set(out, closed(groups, out.length, group))
      return out
    }
    if (isJsonHost(v)) return toPlain(v[TO_JSON](), open, w)
    // Its keys come out in the order they are put in (Object.keys gives those that look like
    // indexes first, in order, and so does it of `v`): a group is a run of them.
    const out: Record<string, unknown> = {}
    let size = 0
    for (const key of Object.keys(v)) {
      const before = w.weight
      const item = toPlain((v as Record<string, unknown>)[key], open, w)
      if (item === undefined) continue
      defineOwn(out, key, item)
      const weight = w.weight - before
      if (group > 0 && group + weight > w.pieces.weight) {
        groups = closed(groups, size, group)
        group = 0
      }
      group += weight
      size++
    }
    if (w.weight - start > w.pieces.weight)
      (w.large ??= new Map()).set(out, closed(groups, size, group))
    return out
  } finally {
    open.delete(v)
  }
}

/** The JSON of a plain value (`toPlain`'s) at `indent`, `gap` the indentation of a level. */
function written(v: unknown, gap: string | undefined, indent: string, w: Writing): string {
  if (typeof v === 'string' && v.length > w.pieces.text) return longText(v, w.rt, w.pieces.text)
  const groups = typeof v === 'object' && v !== null ? w.large?.get(v) : undefined
  if (groups === undefined) return native(v, gap, indent)
  const inner = gap === undefined ? '' : indent + gap
  const colon = gap === undefined ? ':' : ': '
  const o = v as Record<string, unknown>
  const keys = Array.isArray(v) ? undefined : Object.keys(o)
  const texts: string[] = []
  let from = 0
  groups.ends.forEach((end, g) => {
    spend(w.rt, groups.weights[g]!)
    if (end - from === 1) {
      // One member alone: written the same way, as large as it may be.
      const member =
        keys === undefined
          ? written(o[from], gap, inner, w)
          : written(o[keys[from]!], gap, inner, w)
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
  })
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
function longText(text: string, rt: Passes, piece: number): string {
  let out = '"'
  for (let from = 0; from < text.length;) {
    let to = Math.min(from + piece, text.length)
    const last = text.charCodeAt(to - 1)
    if (to < text.length && to - from > 1 && last >= 0xd800 && last <= 0xdbff) to--
    spend(rt, (to - from) >> 6)
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
 * prototype), the rest as it is. For what `JSON Parse` and REST parameters give 4D code.
 */
export function fromJSON(v: unknown, rt: Passes = UNCOUNTED): unknown {
  if (--rt.ticks < 0) rt.tick()
  if (Array.isArray(v)) return new Collection(v.map((item: unknown) => fromJSON(item, rt)))
  if (typeof v === 'object' && v !== null) {
    const o = newObject()
    for (const key of Object.keys(v)) o[key] = fromJSON((v as Record<string, unknown>)[key], rt)
    return o
  }
  return v
}
