/**
 * @module How long a reply's work holds the event loop in one piece, and the clock that tells:
 * measuring a reply (first-piece.ts) and writing its pieces (json-chunks.ts) stop at `SLICE_MS`
 * and go on in a later turn. Tests give a clock of their own, so that they count slices instead of
 * timing them.
 */

/** The longest one slice of a reply's work holds the event loop, in milliseconds. */
export const SLICE_MS = 10

/** The clock that ends a slice: a reading in milliseconds, and the slice's length. */
export interface SliceClock {
  readonly now: () => number
  readonly ms: number
}

/** The event loop's own: `performance.now()`, slices of `SLICE_MS`. */
export const LOOP_CLOCK: SliceClock = { now: () => performance.now(), ms: SLICE_MS }

/**
 * Runs `fn` in another turn of the event loop, after the I/O that came in meanwhile: setImmediate
 * where there is one (Node, Bun, Deno), else a timer.
 */
export const nextTurn: (fn: () => void) => void =
  typeof setImmediate === 'function' ? (fn) => setImmediate(fn) : (fn) => setTimeout(fn, 0)
