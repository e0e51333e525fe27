/**
 * @module The size check a reply passes before its status is sent. A reply past `maxReplyBytes`
 * is refused with ReplyTooLarge (9091, a 400) rather than cut short once its status is out:
 *
 * - a reply that writes relations out (`nested`) is measured whole first (reply-parts.ts): its
 *   size multiplies level by level, so it cannot be told from its rows. It is also refused
 *   (ReplyRepeatsTooLarge, 9093) when the related entities that write relations out that it
 *   writes again pass `maxRepeatedBytes`. Measuring goes in slices, which share the turn's
 *   `SLICE_MS` with every other reply's (slices/turns.ts): when it takes longer, the reply is
 *   answered later (a Promise, which every transport awaits), and other requests are served
 *   between the slices. The measure counts against the request's time budget, the time of its
 *   slices; past it, ReplyTooSlow (9092).
 * - any other reply grows with the rows it reads, which are alike: it is estimated from its first
 *   piece, in proportion of the items that piece holds.
 *
 * Every piece after the first is still counted (json-chunks.ts), so a reply whose data grew
 * between the check and its last piece is cut at the limit.
 */
import {
  currentBudget,
  DatastoreError,
  datastoreError,
  sliceLine,
  spendBudget,
  withQueryBudget,
  type QueryBudget,
} from '@entistore/core'
import { tooLarge, tooRepetitive, type JsonChunks } from './json-chunks.js'
import type { PartsSize, ReplyLimits } from './reply-parts.js'
import { eachSlice, LOOP_CLOCK, type SliceClock } from '../slices/turns.js'

/** The most parts measured between two readings of the clock (strings: no related entity). */
const STEP = 1024

/**
 * The first piece of `chunks` once the reply is known to be within `limit` bytes, or a Promise of
 * it when measuring takes more than one slice (the event loop's: what is left of the turn's
 * `SLICE_MS`; or slices of a number of milliseconds, or on the clock given: tests pass 0, or a
 * clock of their own, to go through several). Throws (or rejects with) ReplyTooLarge or
 * ReplyTooSlow.
 */
export function firstPiece(
  chunks: JsonChunks,
  limits: number | ReplyLimits,
  slice: number | SliceClock = LOOP_CLOCK,
): string | Promise<string> {
  const limit = typeof limits === 'number' ? limits : limits.bytes
  const repeats = typeof limits === 'number' ? Infinity : limits.repeatedBytes
  chunks.limitTo(limit)
  if (!chunks.nested || (limit === Infinity && repeats === Infinity))
    return estimated(chunks, limit)
  const clock = typeof slice === 'number' ? eachSlice(LOOP_CLOCK.now, slice) : slice
  const measuring = new Measuring(chunks.measure(limits), clock)
  let measured: boolean
  try {
    measured = measuring.slice()
  } catch (error) {
    chunks.release()
    throw error
  }
  if (measured) return checked(chunks, measuring.size)
  // The budget in force now (the request's), restored around each later slice; the clock is read
  // at the first part of each (`expired`), since a slice may measure fewer parts than the engine
  // counts between two readings. Once measured, the first piece is written in a turn of its own.
  // The later slices wait in the process's line (core's sliceLine), one slice of any work a turn,
  // which keeps each a share of its turn (slices/turns.ts): in immediates of their own, they came
  // after the turn's new requests, which had taken the turn, and measured one part a turn.
  const inSlices = sliceBudget(currentBudget())
  return new Promise((resolve, reject) => {
    let measured = false
    const step = (): void => {
      try {
        if (measured) resolve(inSlices(() => checked(chunks, measuring.size)))
        else {
          measured = inSlices(measuring.slice, true)
          sliceLine.later(step)
        }
      } catch (error) {
        chunks.release()
        reject(error)
      }
    }
    sliceLine.later(step)
  })
}

/**
 * Runs each later slice of a measure under what is left of `budget`: the time of its slices
 * counts, not the turns it waits between them (while other replies take theirs), as for a query's
 * slices (the handler's `timed`).
 */
function sliceBudget(budget: QueryBudget | undefined): <T>(fn: () => T, expired?: boolean) => T {
  if (budget === undefined) return (fn) => fn()
  let left = budget.deadline - budget.clock.now()
  return (fn, expired) => {
    const start = budget.clock.now()
    try {
      return withQueryBudget({ ...budget, deadline: start + left }, fn, expired)
    } finally {
      left -= budget.clock.now() - start
    }
  }
}

/** A measure in slices. */
class Measuring {
  readonly size: PartsSize
  readonly #clock: SliceClock

  constructor(size: PartsSize, clock: SliceClock) {
    this.size = size
    this.#clock = clock
  }

  /**
   * Measures on for one slice; true once the measure is done or over the limit. The clock is read
   * after each related entity begun or measured whole, and every `STEP` parts: a related entity
   * may read a relation of a whole table (a scan of 100,000 rows, 2 ms and more), and steps of
   * 1,024 parts between two readings held the loop for 400 ms in one slice. The request's time
   * budget is read then too, whatever the units the parts counted (`spendBudget`: one a part,
   * however many rows it scanned).
   */
  readonly slice = (): boolean => {
    const { now } = this.#clock
    const deadline = this.#clock.deadline()
    let over = false
    const more = (): boolean => {
      // Units past any step: the budget reads its clock now.
      spendBudget(Number.POSITIVE_INFINITY)
      over = now() >= deadline
      return !over
    }
    try {
      for (;;) {
        if (this.size.run(STEP, more)) return true
        // `run` went through its parts, or stopped where `more` said no (read once).
        if (over || !more()) return false
      }
    } catch (error) {
      if (DatastoreError.is(error) && error.name === 'QueryBudgetExceeded')
        throw datastoreError('ReplyTooSlow', [currentBudget()?.ms ?? 0], { cause: error })
      throw error
    }
  }
}

function checked(chunks: JsonChunks, size: PartsSize): string {
  if (size.over) {
    chunks.release()
    const { bytes, repeatedBytes } = size.limits
    throw size.repeatsOver
      ? tooRepetitive(size.repeated, repeatedBytes)
      : tooLarge(`at least ${size.bytes}`, bytes)
  }
  return chunks.take()
}

function estimated(chunks: JsonChunks, limit: number): string {
  const first = chunks.take()
  if (!chunks.done) {
    const about = chunks.estimatedBytes()
    if (about > limit) {
      chunks.release()
      throw tooLarge(`about ${about}`, limit)
    }
  }
  return first
}
