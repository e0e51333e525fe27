/**
 * @module The JSON theme (docs/commands/theme/JSON.md): `JSON Stringify` (convert/json.ts writes
 * the values; `*` indents), `JSON Parse` (docs/commands-legacy/json-parse.md). The commands on
 * arrays and selections and `JSON Resolve pointers` do not run here (`JSON Validate` is
 * json-validate.ts).
 *
 * `JSON Parse` gives 4D values: arrays as collections, objects as 4D objects, and a text in the
 * `YYYY-MM-DD` form as a date ("If the current date setting is Date type (default), JSON date
 * strings in YYYY-MM-DD format are automatically returned as date values"). A `type` converts the
 * value as `convertTo` says; `*` (the `__symbols` of each property's line) is ignored. A text that
 * is not JSON raises an error, as 4D's parsing error does.
 *
 * Both count their work as passes of the budget's (context/budget.ts): each value written or
 * made, and the pieces of a long text parsed one after the other (convert/parse-json.ts). Both are
 * written as steps (values/work.ts): a call in slices may stop between two values or pieces, and a
 * client that posts 50 MB of JSON holds no other for the time it takes to parse.
 */
import { toNum } from '../convert/conversions.js'
import { fromJSON, fromJSONSteps, stringify, stringifySteps } from '../convert/json.js'
import { parseJSON, parseSteps } from '../convert/parse-json.js'
import { FourDError } from '../errors/fourd-error.js'
import { Collection } from '../values/collection.js'
import { DateValue } from '../values/date-value.js'
import { isPlainObject } from '../values/kinds.js'
import { toInteger } from '../values/numbers.js'
import { TimeValue } from '../values/time-value.js'
import { integerArg, invalid, isStar, textArg } from '../arguments/arguments.js'
import type { CommandSpec } from './table.js'

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/

/** A value of JSON (neither an array nor an object) made a 4D value: a `YYYY-MM-DD` text a date. */
const dated = (v: unknown): unknown =>
  typeof v === 'string' && ISO_DAY.test(v) ? DateValue.fromISO(v) : v

/** What `JSON Parse` raises for a text that is not JSON (9415); the budget's end (9410) goes on. */
function notJSON(e: unknown): never {
  if (FourDError.is(e)) throw e
  return invalid('JSON Parse', 'jsonString', e instanceof Error ? e.message : String(e))
}

/** The value `JSON Parse` gives: as parsed, or converted to the type asked. */
const typed = (parsed: unknown, type: unknown): unknown =>
  type === undefined || isStar(type) ? parsed : convertTo('JSON Parse', parsed, type)

/** A text of a date, an ISO date-time read in the host's time zone (`…Z` is GMT). */
function dateOf(v: unknown): DateValue {
  if (v instanceof DateValue) return v
  if (typeof v !== 'string') return DateValue.NULL
  if (ISO_DAY.test(v)) return DateValue.fromISO(v)
  const t = Date.parse(v)
  if (Number.isNaN(t)) return DateValue.NULL
  const d = new Date(t)
  return DateValue.of(d.getFullYear(), d.getMonth() + 1, d.getDate())
}

/**
 * A value converted to one of the "Field and Variable Types" (`JSON Parse`'s and `OB Get`'s
 * `type`): `Is text` (a text as it is, anything else its JSON), `Is real` and `Is longint` (as
 * `Num` reads it; a long rounded), `Is Boolean` (a Boolean as it is, a number not 0, an object
 * or collection not empty — the docs' `{"manager":true}` is True), `Is date`, `Is time` (a number
 * of seconds, as a number or a text), `Is object` and `Is collection` (Null when it is not one).
 */
export function convertTo(command: string, v: unknown, type: unknown): unknown {
  switch (integerArg(command, 'type', type)) {
    case 2:
      return typeof v === 'string' ? v : v === undefined ? '' : stringify(v)
    case 1:
      return toNumber(v)
    case 9:
    case 8:
      return toInteger(toNumber(v))
    case 6:
      if (typeof v === 'boolean') return v
      if (typeof v === 'number') return v !== 0
      if (v instanceof Collection) return v.length > 0
      if (isPlainObject(v)) return Object.keys(v).length > 0
      return v === 'true'
    case 4:
      return dateOf(v)
    case 11:
      return v instanceof TimeValue ? v : TimeValue.of(toNumber(v))
    case 38:
      return isPlainObject(v) ? v : null
    case 42:
      return v instanceof Collection ? v : null
    default:
      return invalid(command, 'type', `${String(type)} is not a type it converts to`)
  }
}

function toNumber(v: unknown): number {
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return toNum(v)
  if (v instanceof TimeValue) return v.seconds
  return 0
}

export const JSON_COMMANDS: readonly CommandSpec[] = [
  {
    number: 1217,
    name: 'JSON Stringify',
    signature: '(value: any; star?: any): Text',
    impl: (rt, v, star) => stringify(v, isStar(star), rt),
    steps: (rt, v, star) => stringifySteps(v, isStar(star), rt),
  },
  {
    number: 1218,
    name: 'JSON Parse',
    signature: '(jsonString: Text; type?: any; star?: any): any',
    impl: (rt, text, type) => {
      let json: unknown
      try {
        json = parseJSON(textArg('JSON Parse', 'jsonString', text), rt)
      } catch (e) {
        return notJSON(e)
      }
      return typed(fromJSON(json, rt, dated), type)
    },
    steps: function* (rt, text, type) {
      let json: unknown
      try {
        json = yield* parseSteps(textArg('JSON Parse', 'jsonString', text), rt)
      } catch (e) {
        return notJSON(e)
      }
      return typed(yield* fromJSONSteps(json, rt, dated), type)
    },
  },
  { number: 1478, name: 'JSON Resolve pointers', notRunnable: 'pointers' },
  { number: 1228, name: 'JSON Stringify array', notRunnable: 'arrays' },
  { number: 1219, name: 'JSON PARSE ARRAY', notRunnable: 'arrays' },
  { number: 1235, name: 'JSON TO SELECTION', notRunnable: 'classic records' },
  { number: 1234, name: 'Selection to JSON', notRunnable: 'classic records' },
]
