/**
 * @module The scans of the commands of the Arrays theme (arrays.ts): what `Find in array`,
 * `Count in array` and `Find in sorted array` look for in a block of positions, gone through a
 * block at a time (values/resumable.ts), each block counted as passes of the budget's
 * (context/budget.ts) before it runs, so that a call in slices may stop between two blocks.
 */
import type { Passes } from '../values/passes.js'
import type { Work } from '../values/work.js'
import { byBlocks, type Scan } from '../values/resumable.js'
import { eq, gt, lt } from '../ops/compare.js'
import { arrayOf, type FourDArray } from '../arrays/four-d-array.js'
import { optionalInteger } from '../arguments/arguments.js'

// A text with `@` elsewhere than at its end matches elements that need not be together.
const scattered = (v: unknown): boolean => typeof v === 'string' && /@(?!$)/.test(v)

/** `Find in array`'s elements and the position it starts at. */
export const findArgs = (a: unknown, start: unknown): [readonly unknown[], number] => [
  arrayOf(a, 'Find in array').items,
  Math.max(1, optionalInteger('Find in array', 'start', start, 1)),
]

/** The first position of `items[from, to)` that is `value` by 4D's `=`, or -1. */
export function findIn(
  items: readonly unknown[],
  value: unknown,
  from: number,
  to: number,
): number {
  for (let i = from; i < to; i++) if (eq(items[i], value)) return i
  return -1
}

export const findSteps = (rt: Passes, items: readonly unknown[], from: number, value: unknown) =>
  byBlocks(rt, from, items.length, (i, end) => findIn(items, value, i, end))

/** How many elements of `items[from, to)` are `value` by 4D's `=`. */
export function countIn(
  items: readonly unknown[],
  value: unknown,
  from: number,
  to: number,
): number {
  let n = 0
  for (let i = from; i < to; i++) if (eq(items[i], value)) n++
  return n
}

export function* countSteps(rt: Passes, items: readonly unknown[], value: unknown): Work<number> {
  let n = 0
  yield* byBlocks(rt, 1, items.length, (i, end) => {
    n += countIn(items, value, i, end)
    return -1
  })
  return n
}

/**
 * `Find in sorted array`: found or not, and the first and last positions (or where to insert).
 * The positions from 1 to the size look for the value; past them, the second pass looks for where
 * it would go (the first element that does not come before it), when it was not found.
 */
export function findSorted(
  a: FourDArray,
  value: unknown,
  descending: boolean,
  found: (found: boolean, first: number, last: number) => boolean,
): Scan {
  const items = a.items
  const n = items.length
  const ordered = !(a.type === 'Boolean' || a.type === 'Object' || scattered(value))
  let first = -1
  let last = -1
  return {
    from: 1,
    to: 2 * n - 1,
    block: (k, end) => {
      for (; k < end; k++) {
        if (k < n) {
          if (eq(items[k], value)) {
            if (first < 0) first = k
            last = k
          }
        } else if (first > 0 || !ordered) return n
        else if (!(descending ? gt(items[k - n + 1], value) : lt(items[k - n + 1], value))) return k
      }
      return -1
    },
    done: (ended) => {
      if (first > 0) return found(true, first, last)
      if (!ordered) return found(false, -1, -1)
      const at = ended < 0 ? n : ended - n + 1
      return found(false, at, at)
    },
  }
}
