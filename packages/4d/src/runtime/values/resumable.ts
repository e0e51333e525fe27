/**
 * @module A builtin's loop over many elements or characters, written as a plain function that
 * gives way when the budget's ticks run out, and the two ways to run it: at once (`runAll`) or as
 * steps (`runSteps`, work.ts), stopping where it gives way. V8 runs a loop inside a generator
 * several times slower than the same loop in a plain function (a sum over ten million elements:
 * 65 ms against 16, Node 20), so a long builtin's hot loop is such a function, and its steps only
 * the driver that stops between two of its runs.
 */
import type { Passes } from './passes.js'
import type { Work } from './work.js'

/**
 * Goes on with its work, each element or character counted as the budget's passes: true when
 * the work is done, false when the ticks ran out (the clock to read, `rt.tick()`, and the work to
 * call again, where it left off).
 */
export type Resumable = (rt: Passes) => boolean

/**
 * `work` that, once done, answers true at once when it is called again: the first of two run one
 * after the other (`andThen`) is called again each time the second gives way.
 */
export function settled(work: Resumable): Resumable {
  let done = false
  return (rt) => done || (done = work(rt))
}

/** `work` run to its end at once, the clock read each time it gives way. */
export function runAll(work: Resumable, rt: Passes): void {
  while (!work(rt)) rt.tick()
}

/** `work` as steps: a stop each time it gives way. */
export function* runSteps(work: Resumable, rt: Passes): Work<void> {
  while (!work(rt)) {
    rt.tick()
    yield
  }
}

/**
 * Work over `[0, length)` a piece at a time: `cut(from)` is where the piece from `from` ends, its
 * size (`weight` of it) counted as passes before `each(from, to)` does it, and the work gives way
 * before a piece when the ticks run out (that piece done at the next call, not counted again).
 */
export function inPieces(
  length: number,
  cut: (from: number) => number,
  each: (from: number, to: number) => void,
  weight: (size: number) => number = (size) => size,
): Resumable {
  let from = 0
  let counted = false
  return (rt) => {
    while (from < length) {
      const to = cut(from)
      if (!counted) {
        counted = true
        if ((rt.ticks -= weight(to - from)) < 0) return false
      }
      each(from, to)
      counted = false
      from = to
    }
    return true
  }
}

/** Work that is done already. */
export const DONE: Resumable = () => true

/** `first` run to its end, then the work `next` makes (once `first` is done). */
export function andThen(first: Resumable, next: () => Resumable): Resumable {
  const firstDone = settled(first)
  let second: Resumable | undefined
  return (rt) => firstDone(rt) && (second ??= next())(rt)
}

/** What a work makes, whole once the work is done. */
export interface Made<T> {
  value: T
}

/** What `work` makes, made at once. */
export function madeAll<T>([made, work]: readonly [Made<T>, Resumable], rt: Passes): T {
  runAll(work, rt)
  return made.value
}

/** What `work` makes, as steps (work.ts): a stop each time it gives way. */
export function* madeSteps<T>([made, work]: readonly [Made<T>, Resumable], rt: Passes): Work<T> {
  yield* runSteps(work, rt)
  return made.value
}
