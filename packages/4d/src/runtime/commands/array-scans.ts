/**
 * @module How the commands of the Arrays theme (arrays.ts) go through an array, as steps
 * (values/work.ts) and as a plain call: a block of BLOCK positions at a time (classes/collection/
 * blocks.ts), each block counted as passes of the budget's (context/budget.ts) before it runs, so
 * that a call in slices may stop between two blocks. The plain call goes through a block at most
 * at once, counted, with no generator made: small arrays are most calls, and the generators were
 * most of their time.
 */
import { BLOCK, spend, type Passes } from '../values/passes.js'
import { finish, type Work } from '../values/work.js'
import { byBlocks } from '../classes/collection/blocks.js'
import { eq, gt, lt } from '../ops/compare.js'
import { arrayOf, type FourDArray } from '../arrays/four-d-array.js'
import { optionalInteger } from '../arguments/arguments.js'
import type { CommandSpec } from './table.js'

// A text with `@` elsewhere than at its end matches elements that need not be together.
const scattered = (v: unknown): boolean => typeof v === 'string' && /@(?!$)/.test(v)

/**
 * A command's work as one range of positions gone through a block at a time (blocks.ts), and
 * what it does when they are gone through.
 */
export interface Scan {
  readonly from: number
  readonly to: number
  /** Goes through `[start, end)`: the position where the work is over, or -1 to go on. */
  readonly block: (start: number, end: number) => number
  /** The command's value, from where the blocks ended (-1: they went through); its last step. */
  readonly done: (ended: number) => unknown
}

/**
 * The `impl` and `steps` of a command whose work is the scan `prepare` makes of its arguments
 * (nothing: no work). The steps go through it a block at a time. The plain call goes through a
 * scan of a block at most at once, counted, with no generator made (small arrays are most calls,
 * and the generators were most of their time: `COPY ARRAY` of 10 elements took twice as long),
 * and through a larger one by the steps.
 */
export function scanning(
  prepare: (rt: Passes, args: unknown[]) => Scan | undefined,
): Pick<CommandSpec, 'impl' | 'steps'> {
  return {
    impl(rt, ...args) {
      const scan = prepare(rt, args)
      if (scan === undefined) return undefined
      const { from, to, block, done } = scan
      if (!atOnce(rt, to - from)) return done(finish(byBlocks(rt, from, to, block)))
      return done(to <= from ? -1 : block(from, to))
    },
    *steps(rt, ...args) {
      const scan = prepare(rt, args)
      if (scan === undefined) return undefined
      return scan.done(yield* byBlocks(rt, scan.from, scan.to, scan.block))
    },
  }
}

/**
 * Whether the plain call of a command does its `n` passes at once: a block at most, counted now,
 * with no generator made (small arrays are most calls, and the generators were most of their
 * time: `Find in array` in 10 elements took 1.4 times as long, `Count in array` 1.6 times).
 */
export function atOnce(rt: Passes, n: number): boolean {
  if (n > BLOCK) return false
  if (n > 0) spend(rt, n)
  return true
}

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
