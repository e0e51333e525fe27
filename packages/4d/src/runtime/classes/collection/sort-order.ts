/**
 * @module The order a sort of values asks at each comparison (order.ts `compareValues`), for one
 * sort: a text longer than a piece is folded (its comparison key) a piece at a time, each piece
 * counted (values/text-pieces.ts), and once for the whole sort. Folded at each comparison, in one
 * call, 64 texts of a million characters with accents cost 0.4 s per comparison's pair and 7 s in
 * all, which the sort counted as 384 passes: no slice ended and the budget never saw them. A
 * comparison that folds answers steps (values/sort-steps.ts `SortCompare`), which the sort goes
 * into; every other answers its number at once.
 */
import { fold } from '@entistore/core'
import type { Passes } from '../../values/passes.js'
import type { SortCompare } from '../../values/sort-steps.js'
import { longTexts } from '../../values/text-compare-steps.js'
import { PIECE_LENGTH, piecesSteps } from '../../values/text-pieces.js'
import type { Work } from '../../values/work.js'
import { compareValues, textOrder } from './order.js'

/** 4D's order of values for the comparisons of one sort (see the module note). */
export function valueOrder(rt: Passes, diacritical = false): SortCompare<unknown> {
  // Each long text's fold, made once: a sort compares an element about log2(n) times.
  const folded = new Map<string, string>()
  const known = (t: string): string | undefined =>
    t.length <= PIECE_LENGTH ? fold(t) : folded.get(t)
  function* foldedOrder(a: string, b: string): Work<number> {
    const fa = known(a) ?? (yield* keep(a))
    const fb = known(b) ?? (yield* keep(b))
    return textOrder(fa, fb, a, b, diacritical)
  }
  function* keep(t: string): Work<string> {
    const f = yield* piecesSteps(rt, t, fold)
    folded.set(t, f)
    return f
  }
  return (a, b) => {
    if (typeof a !== 'string' || typeof b !== 'string' || !longTexts(a, b))
      return compareValues(a, b, diacritical)
    const fa = known(a)
    const fb = known(b)
    return fa !== undefined && fb !== undefined
      ? textOrder(fa, fb, a, b, diacritical)
      : foldedOrder(a, b)
  }
}

/** `order`'s answer the other way round (a descending level). */
export function reversed(order: number | Work<number>): number | Work<number> {
  return typeof order === 'number' ? -order : negated(order)
}

function* negated(order: Work<number>): Work<number> {
  return -(yield* order)
}

/**
 * The order of `count` levels, each asked only when those before it tie (`part(k, a, b)`): the
 * numbers at once, and steps from the first level that answers steps.
 */
export function byLevels<T>(
  count: number,
  part: (k: number, a: T, b: T) => number | Work<number>,
): SortCompare<T> {
  function* rest(first: Work<number>, k: number, a: T, b: T): Work<number> {
    let c = yield* first
    while (c === 0 && ++k < count) {
      const next = part(k, a, b)
      c = typeof next === 'number' ? next : yield* next
    }
    return c
  }
  return (a, b) => {
    for (let k = 0; k < count; k++) {
      const c = part(k, a, b)
      if (typeof c !== 'number') return rest(c, k, a, b)
      if (c !== 0) return c
    }
    return 0
  }
}
