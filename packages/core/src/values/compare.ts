/**
 * @module Ordering of stored values, for `$orderby`, sorted indexes and range comparisons.
 * Nulls sort first ("null values are evaluated as less than other values", 4D's orderBy);
 * strings by their folded form; values of different kinds by kind (boolean < number < string <
 * other), so a mixed object attribute still sorts deterministically.
 */
import { compareFolded, fold } from './fold.js'

/** A value as it is compared: strings already folded. */
export type SortKey = null | boolean | number | string

/** The sort key of a stored value: strings folded, everything not scalar treated as null. */
export function sortKey(v: unknown, foldStrings: boolean): SortKey {
  if (typeof v === 'string') return foldStrings ? fold(v) : v
  if (typeof v === 'number' || typeof v === 'boolean') return v
  return null
}

const rank = (v: SortKey): number =>
  v === null ? 0 : typeof v === 'boolean' ? 1 : typeof v === 'number' ? 2 : 3

/** Total order on sort keys. */
export function compareKeys(a: SortKey, b: SortKey): number {
  if (a === b) return 0
  const ra = rank(a)
  const rb = rank(b)
  if (ra !== rb) return ra - rb
  if (typeof a === 'number')
    return a < (b as number) ? -1 : a > (b as number) ? 1 : Number.isNaN(a) ? -1 : 1
  if (typeof a === 'string') return compareFolded(a, b as string)
  return a === false ? -1 : 1 // booleans: false < true (equal ones returned above)
}
