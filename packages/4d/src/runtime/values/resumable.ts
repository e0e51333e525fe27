/**
 * @module A builtin's long loop (over many elements, characters or bytes) written once, as a plain
 * function that gives way when the budget's ticks run out, and the two ways to run it: at once
 * (`runAll`), or as steps (`runSteps`, work.ts) that stop where it gives way, so that a call in
 * slices may end its slice there. V8 runs a loop inside a generator several times slower than the
 * same loop in a plain function (a sum over ten million elements: 65 ms against 16, Node 20), so
 * a long builtin's hot loop is such a function, and its steps only the driver that stops between
 * two of its runs.
 *
 * The work goes a piece at a time (`inPieces`: a piece of a text, some bytes), or a block of
 * BLOCK positions at a time (`inBlocks`, the cheap loops over elements: a search by `=`, a count,
 * a copy), each counted as passes before it runs. The plain call of a small value (a block at
 * most) goes through it at once (`atOnce`): a closure and its driver cost more than the search of
 * a few elements (`.indexOf()` of three elements in a loop took three times as long with a
 * generator).
 */
import { BLOCK, spend, type Passes } from './passes.js'
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

// A piece weighs its size unless said.
const same = (size: number): number => size

/**
 * Work over `[0, length)` a piece at a time: `cut(from)` is where the piece from `from` ends, its
 * size (`weight` of it) counted as passes before `each(from, to)` does it, and the work gives way
 * before a piece when the ticks run out (that piece done at the next call, not counted again).
 */
export function inPieces(
  length: number,
  cut: (from: number) => number,
  each: (from: number, to: number) => void,
  weight: (size: number) => number = same,
): Resumable {
  return piecesOf(0, length, cut, each, weight)
}

/**
 * `inPieces` over `[from, length)`, `each` ending the work where it answers true (what it looked
 * for is found).
 */
function piecesOf(
  from: number,
  length: number,
  cut: (from: number) => number,
  each: (from: number, to: number) => boolean | void,
  weight: (size: number) => number,
): Resumable {
  let counted = false
  return (rt) => {
    while (from < length) {
      const to = cut(from)
      if (!counted) {
        counted = true
        if ((rt.ticks -= weight(to - from)) < 0) return false
      }
      counted = false
      if (each(from, to) === true) from = length
      else from = to
    }
    return true
  }
}

/**
 * What a block does with the positions from `start` to `end` (not included): the position where
 * the work is over (what it looked for), or -1 to go on.
 */
export type Block = (start: number, end: number) => number

/** A block that does nothing: the blocks only count work done after them, in one piece. */
export const NOTHING: Block = () => -1

/**
 * Work over the positions from `from` to `to` (not included), `block` going through BLOCK of them
 * at a time, each block counted as passes before it runs (counting each element doubled the cost
 * of a cheap loop, a block at a time adds a few percent). What it makes is the position a block
 * ended the work at, or -1 when the blocks went through.
 */
export function inBlocks(
  from: number,
  to: number,
  block: Block,
): readonly [Made<number>, Resumable] {
  const ended = { value: -1 }
  const cut = (start: number): number => Math.min(to, start + BLOCK)
  const each = (start: number, end: number): boolean => (ended.value = block(start, end)) >= 0
  return [ended, piecesOf(from, to, cut, each, same)]
}

/** `inBlocks` as steps (work.ts): the position the blocks ended at, or -1. */
export const byBlocks = (rt: Passes, from: number, to: number, block: Block): Work<number> =>
  madeSteps(inBlocks(from, to, block), rt)

/**
 * `inBlocks` run at once, for a plain call: a block at most goes through at once, counted, with
 * no closure made (`atOnce`).
 */
export function byBlocksNow(rt: Passes, from: number, to: number, block: Block): number {
  if (!atOnce(rt, to - from)) return madeAll(inBlocks(from, to, block), rt)
  return to > from ? block(from, to) : -1
}

/**
 * `n` passes counted by a plain call whose work is one native call after them (a copy, a change
 * in place): a block at most at once, more a block at a time, the clock read between.
 */
export function countNow(rt: Passes, n: number): void {
  if (!atOnce(rt, n)) runAll(inBlocks(0, n, NOTHING)[1], rt)
}

/**
 * The pieces of a copy made a block at a time, one after the other: a copy of native slices (a
 * loop of pushes took twice as long), joined at its last step.
 */
export const joinedPieces = (pieces: readonly unknown[][]): unknown[] =>
  pieces.length === 1 ? pieces[0]! : ([] as unknown[]).concat(...pieces)

/**
 * Work over one range of positions gone through a block at a time (`inBlocks`), and what it gives
 * once they are gone through.
 */
export interface Scan<T = unknown> {
  readonly from: number
  readonly to: number
  readonly block: Block
  /** What the work gives, from where the blocks ended (-1: they went through); its last step. */
  readonly done: (ended: number) => T
}

/** `scan` run at once, for a plain call (`byBlocksNow`). */
export const scanNow = <T>(rt: Passes, scan: Scan<T>): T =>
  scan.done(byBlocksNow(rt, scan.from, scan.to, scan.block))

/** `scan` as steps (work.ts): a stop possible before each block. */
export function* scanSteps<T>(rt: Passes, scan: Scan<T>): Work<T> {
  return scan.done(yield* byBlocks(rt, scan.from, scan.to, scan.block))
}

/**
 * Whether a plain call goes through its `n` passes at once: a block at most (a small value, most
 * calls), counted now, with no generator nor closure made; a larger one goes by blocks.
 */
export function atOnce(rt: Passes, n: number): boolean {
  if (n > BLOCK) return false
  if (n > 0) spend(rt, n)
  return true
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
