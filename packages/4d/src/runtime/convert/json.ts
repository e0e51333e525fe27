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
 */
import { raise } from '../errors/fourd-error.js'
import { Collection } from '../values/collection.js'
import { DateValue } from '../values/date-value.js'
import { BLOB_JSON } from '../values/blob-object.js'
import { isJsonHost, TO_JSON } from '../values/host.js'
import { newObject } from '../values/kinds.js'
import { TimeValue } from '../values/time-value.js'

/** `JSON Stringify(value {; *})`. Undefined alone gives "" (nothing to write). */
export function stringify(value: unknown, pretty = false): string {
  const plain = toPlain(value, new Set())
  if (plain === undefined) return ''
  return JSON.stringify(plain, null, pretty ? '\t' : undefined)
}

function toPlain(v: unknown, open: Set<object>): unknown {
  switch (typeof v) {
    case 'string':
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
  try {
    if (v instanceof Collection) return v.items.map((item) => toPlain(item, open) ?? null)
    if (isJsonHost(v)) return toPlain(v[TO_JSON](), open)
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(v)) {
      const item = toPlain((v as Record<string, unknown>)[key], open)
      if (item !== undefined) defineOwn(out, key, item)
    }
    return out
  } finally {
    open.delete(v)
  }
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
export function fromJSON(v: unknown): unknown {
  if (Array.isArray(v)) return new Collection(v.map(fromJSON))
  if (typeof v === 'object' && v !== null) {
    const o = newObject()
    for (const key of Object.keys(v)) o[key] = fromJSON((v as Record<string, unknown>)[key])
    return o
  }
  return v
}
