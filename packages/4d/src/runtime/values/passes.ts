/**
 * @module The passes of the budget's (context/budget.ts) a builtin counts: one call of a builtin
 * runs in one piece, with no loop of 4D code inside it to decrement the ticks, so one that goes
 * through millions of elements, or the characters of a long text, counts them itself. It lives
 * with the values, below the commands, the conversions and the arrays that count.
 */

/**
 * What counts the budget's passes: the running context (a command's CommandContext, a collection
 * function's Runtime).
 */
export interface Passes {
  ticks: number
  tick(): void
}

/** What counts against no budget: a builtin's work run outside 4D code (its ticks never run out). */
export const UNCOUNTED: Passes = { ticks: Infinity, tick: () => undefined }

/**
 * The elements a cheap loop (a sum, a search by `=`) goes through between two counts: counting
 * each element doubled the cost of `.sum()`, counting them a block at a time adds a few percent.
 */
export const BLOCK = 4096

/**
 * Counts `n` passes of a builtin's own work against the budget: elements gone through, values
 * copied or written, characters of a text keyed, as it goes. The clock is read when the ticks run
 * out, and past the deadline the builtin stops with 9410. A single native step that cannot be cut
 * (a JSON text parsed, ICU's comparison of two texts) counts its size before it starts, so that a
 * call already past its budget does not start it.
 */
export function spend(rt: Passes, n: number): void {
  if ((rt.ticks -= n) < 0) rt.tick()
}

/**
 * `compare` counting each comparison as a pass: a sort of millions of elements (V8's, which
 * calls it n log n times) ends at the budget. A sort stopped this way leaves the array as it
 * was: V8 sorts a copy and writes it back at the end.
 */
export function countedCompare<T>(
  rt: Passes,
  compare: (a: T, b: T) => number,
): (a: T, b: T) => number {
  return (a, b) => {
    if (--rt.ticks < 0) rt.tick()
    return compare(a, b)
  }
}
