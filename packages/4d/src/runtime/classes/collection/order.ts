/**
 * @module The order 4D's collection functions sort values in (docs/API/CollectionClass.md,
 * `.sort()`, `.orderBy()`, `.min()`, `.max()`, `.distinct()`): values of different types are
 * first grouped by type, in the order null, Booleans, texts, numbers, objects, collections, dates;
 * within a type, Booleans False first, texts by 4D's comparison (case and accents ignored, as
 * `<` orders them: the core's fold), numbers and dates by value. Objects and collections have no
 * order among themselves ("an internal order"): they compare equal, so a stable sort keeps them
 * as they were. A Time (an object's property of the host) counts as its seconds, Undefined as
 * Null.
 */
import { compareFolded, fold } from '@entistore/core'
import { Collection } from '../../values/collection.js'
import { DateValue } from '../../values/date-value.js'
import { countTexts } from '../../values/text-compare.js'
import { TimeValue } from '../../values/time-value.js'

/** The rank of a value's type in 4D's order of mixed types (0 for Null, 6 for a date). */
export function typeRank(v: unknown): number {
  switch (typeof v) {
    case 'undefined':
      return 0
    case 'boolean':
      return 1
    case 'string':
      return 2
    case 'number':
      return 3
    case 'object':
      if (v === null) return 0
      if (v instanceof TimeValue) return 3
      if (v instanceof DateValue) return 6
      return v instanceof Collection ? 5 : 4
    default:
      return 4
  }
}

// Texts that fold alike keep a stable order, lower case first as ICU's collation puts it.
const collator = new Intl.Collator('en', { sensitivity: 'variant' })

/**
 * The order of two values, ascending. `diacritical` tells texts apart by case and accents (`ck
 * diacritical`): folded first, then by ICU's rules ("a" before "A").
 */
export function compareValues(a: unknown, b: unknown, diacritical = false): number {
  const ra = typeRank(a)
  const rb = typeRank(b)
  if (ra !== rb) return ra - rb
  switch (ra) {
    case 1:
      return Number(a) - Number(b)
    case 2:
      countTexts(a as string, b as string)
      return textOrder(fold(a as string), fold(b as string), a as string, b as string, diacritical)
    case 3: {
      const x = a instanceof TimeValue ? a.seconds : (a as number)
      const y = b instanceof TimeValue ? b.seconds : (b as number)
      return x < y ? -1 : x > y ? 1 : 0
    }
    case 6:
      return (a as DateValue).compare(b as DateValue)
    default:
      return 0
  }
}

/** The order of two texts `a` and `b` folded (`fa`, `fb`), as `compareValues` gives it. */
export function textOrder(
  fa: string,
  fb: string,
  a: string,
  b: string,
  diacritical: boolean,
): number {
  const c = compareFolded(fa, fb)
  return c !== 0 || !diacritical ? c : collator.compare(a, b)
}
