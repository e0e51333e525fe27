/**
 * @module What `For each (item; source {; begin {; end}})` loops over (docs/Concepts/
 * cf_looping.md): a collection's elements, an object's property names, or what a host object
 * gives through FOR_EACH (an entity selection's entities, the ORDA layer's). The number of passes
 * is fixed when the loop starts; a collection's elements are read as the loop reaches them, so
 * that an element changed ahead is seen, and one added is not looped over.
 */
import { raise } from '../errors/fourd-error.js'
import { Collection } from '../values/collection.js'
import { typeName } from '../values/kinds.js'
import { toInteger } from '../values/numbers.js'

/** `host[FOR_EACH]()`: the items a host object gives `For each`, by position. */
export const FOR_EACH: unique symbol = Symbol.for('@entistore/4d:forEach') as never

export interface Iteration {
  /** The first position, included. */
  readonly start: number
  /** The position the loop stops before. */
  readonly end: number
  /** The item at a position. */
  at(position: number): unknown
}

interface ForEachHost {
  [FOR_EACH](): { readonly length: number; at(position: number): unknown }
}

const EMPTY: Iteration = { start: 0, end: 0, at: () => undefined }

/** The loop over `source`; `begin` and `end` as the collection form takes them. */
export function iterate(source: unknown, begin?: unknown, end?: unknown): Iteration {
  if (source === null || source === undefined) return EMPTY
  if (source instanceof Collection) return bounded(source.length, begin, end, (i) => source.at(i))
  if (typeof source === 'object') {
    if (FOR_EACH in source) {
      const items = (source as ForEachHost)[FOR_EACH]()
      return bounded(items.length, begin, end, (i) => items.at(i))
    }
    // An object: its property names as they are when the loop starts (begin and end are ignored).
    const keys = Object.keys(source)
    return { start: 0, end: keys.length, at: (i) => keys[i] }
  }
  return raise('NotIterable', { type: typeName(source) })
}

function bounded(
  size: number,
  begin: unknown,
  end: unknown,
  at: (i: number) => unknown,
): Iteration {
  let from = begin === undefined ? 0 : position(begin)
  let to = end === undefined ? size : position(end)
  if (from < 0) from = Math.max(0, from + size)
  if (to < 0) to += size
  return { start: from, end: Math.min(to, size), at }
}

const position = (v: unknown): number =>
  typeof v === 'number' ? toInteger(v) : raise('InvalidIndex', { index: typeName(v) })
