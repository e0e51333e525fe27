/**
 * @module The cheap loops of the collection functions (a search by `=`, a count, a copy, a fill)
 * as steps (values/work.ts): the elements go through a block of BLOCK at a time, each block
 * counted as passes of the budget's before it runs (counting each element doubled the cost of a
 * cheap loop), with a stop where the count runs the ticks out, so that a call in slices may end
 * its slice between two blocks. The block itself is a plain function: one call a block, not an
 * element.
 *
 * The plain call of a small collection (one block) runs its block at once: a generator and its
 * driver cost more than the search of a few elements (`.indexOf()` of three elements in a loop
 * took three times as long).
 */
import { BLOCK, spend, type Passes } from '../../values/passes.js'
import type { Work } from '../../values/work.js'

/**
 * What a block does with the indexes from `start` to `end` (not included): the index where the
 * loop is over (what it looked for), or -1 to go on.
 */
export type Block = (start: number, end: number) => number

/**
 * Runs `block` over the indexes from `from` to `to` (not included), BLOCK at a time, each block
 * counted before it runs: the index a block ended the loop at, or -1 when it went through.
 */
export function* byBlocks(rt: Passes, from: number, to: number, block: Block): Work<number> {
  for (let i = from; i < to;) {
    const end = Math.min(to, i + BLOCK)
    if ((rt.ticks -= end - i) < 0) {
      rt.tick()
      yield
    }
    const found = block(i, end)
    if (found >= 0) return found
    i = end
  }
  return -1
}

/**
 * Whether the plain call goes through `n` elements at once: a block at most (a small collection),
 * counted now, with no generator nor closure made; a larger range goes by the steps, run to their
 * end.
 */
export function oneBlock(rt: Passes, n: number): boolean {
  if (n > BLOCK) return false
  if (n > 0) spend(rt, n)
  return true
}

/** A block that does nothing: the loop counts work done after it, in one piece. */
export const NOTHING: Block = () => -1
