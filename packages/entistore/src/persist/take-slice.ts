/**
 * @module One slice of a large write: what a writer makes between two turns of the event loop
 * (a snapshot's frames, a saved data file's text), so that the loop is never held longer than a
 * few milliseconds however large the store.
 *
 * The slices of all the work running at once share one budget a turn (`turnDeadline`): a `--save`
 * during the background index build and a snapshot each took their own 4-5 ms in every turn, so a
 * GET that needs two or three turns (accept, read, answer) waited 30-40 ms at every size, its p99
 * close to its slowest (measured at 1M rows).
 */
import { turnDeadline, type Turns } from '@entistore/rest'

// The turn's deadline is the rest package's (slices/turns.ts): the REST replies' measures and
// writes share it with the slices here.
export { turnDeadline }

/** How long one slice may run, in milliseconds. */
export const SLICE_MS = 5

/**
 * The clock a writer's slices read and the deadline they share with the turn's other work: the
 * event loop's (`LOOP_SLICE_TURNS`), or the `Turns` a test gives the REST handler and the writer
 * alike, on a clock that counts its readings (rest's slices/counted-turns.fixture.ts), so that
 * the test bounds the work of each turn whatever the machine's speed or load.
 */
export type SliceTurns = Pick<Turns, 'now' | 'deadline'>

/** The event loop's turns, on `performance.now()`: shared with every reply of the process. */
export const LOOP_SLICE_TURNS: SliceTurns = {
  now: () => performance.now(),
  deadline: turnDeadline,
}

/** Whether work in slices may go on in this turn (the `more()` of core's work in slices). */
export const inTurn = (): boolean => LOOP_SLICE_TURNS.now() < turnDeadline(SLICE_MS)

/** The pieces of one slice, their total length, and whether the iterator is exhausted. */
export interface Slice<T> {
  readonly pieces: T[]
  readonly size: number
  readonly done: boolean
}

/**
 * Takes pieces from `iterator` (made as they are asked for) until the turn's deadline on `turns`
 * (at most `ms` milliseconds, less if other slices ran in this turn) or until their lengths reach
 * `max`: at least one piece, however short the slice, so that a slow piece still moves the write
 * on. The clock is read after each piece: a counting clock counts the pieces a turn made.
 */
export function takeSlice<T extends { readonly length: number }>(
  iterator: Iterator<T>,
  max: number,
  ms: number,
  turns: SliceTurns = LOOP_SLICE_TURNS,
): Slice<T> {
  const pieces: T[] = []
  let size = 0
  const stop = turns.deadline(ms)
  do {
    const step = iterator.next()
    if (step.done) return { pieces, size, done: true }
    pieces.push(step.value)
    size += step.value.length
  } while (size < max && turns.now() < stop)
  return { pieces, size, done: false }
}
