/**
 * @module How the golden files write a 4D value: a scalar with its type (`Real 3.5`, `Text "a"`,
 * `Date 2020-01-31`, `Time 01:00:00`, `Null`, `Undefined`), an object or a collection as the
 * indented JSON of `JSON Stringify` (its dates as `"YYYY-MM-DD"`, its times as seconds).
 */
import { stringify } from '../runtime/convert/json.js'
import { Collection } from '../runtime/values/collection.js'
import { DateValue } from '../runtime/values/date-value.js'
import { TimeValue } from '../runtime/values/time-value.js'

export function describeValue(v: unknown): string {
  switch (typeof v) {
    case 'number':
      return `Real ${String(v)}`
    case 'string':
      return `Text ${JSON.stringify(v)}`
    case 'boolean':
      return `Boolean ${String(v)}`
    case 'undefined':
      return 'Undefined'
    default:
      if (v === null) return 'Null'
      if (v instanceof DateValue) return `Date ${v.toISO()}`
      if (v instanceof TimeValue) return `Time ${v.toString()}`
      return `${v instanceof Collection ? 'Collection' : 'Object'} ${stringify(v, true)}`
  }
}
