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
  /**
   * The item at a position, for a loop that keeps none past its pass (compile/emit/loop-item.ts):
   * a host may give the object it gave at the previous pass, pointed at this one's item.
   */
  reused(position: number): unknown
}

/** What a host object gives `For each`: its items by position, and `reused` as Iteration's. */
export interface ForEachItems {
  readonly length: number
  at(position: number): unknown
  reused?(position: number): unknown
}

interface ForEachHost {
  [FOR_EACH](): ForEachItems
}

const none = (): undefined => undefined
const EMPTY: Iteration = { start: 0, end: 0, at: none, reused: none }

/** The loop over `source`; `begin` and `end` as the collection form takes them. */
export function iterate(source: unknown, begin?: unknown, end?: unknown): Iteration {
  if (source === null || source === undefined) return EMPTY
  if (source instanceof Collection) {
    const at = (i: number) => source.at(i)
    return bounded(source.length, begin, end, at, at)
  }
  if (typeof source === 'object') {
    if (FOR_EACH in source) {
      const items = (source as ForEachHost)[FOR_EACH]()
      const at = (i: number) => items.at(i)
      const reused = items.reused === undefined ? at : (i: number) => items.reused!(i)
      return bounded(items.length, begin, end, at, reused)
    }
    // An object: its property names as they are when the loop starts (begin and end are ignored).
    const keys = Object.keys(source)
    const at = (i: number) => keys[i]
    return { start: 0, end: keys.length, at, reused: at }
  }
  return raise('NotIterable', { type: typeName(source) })
}

function bounded(
  size: number,
  begin: unknown,
  end: unknown,
  at: (i: number) => unknown,
  reused: (i: number) => unknown,
): Iteration {
  let from = begin === undefined ? 0 : position(begin)
  let to = end === undefined ? size : position(end)
  if (from < 0) from = Math.max(0, from + size)
  if (to < 0) to += size
  return { start: from, end: Math.min(to, size), at, reused }
}

const position = (v: unknown): number =>
  typeof v === 'number' ? toInteger(v) : raise('InvalidIndex', { index: typeName(v) })
