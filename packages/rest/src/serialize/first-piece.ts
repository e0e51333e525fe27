/**
 * @module The size check a reply passes before its status is sent. A reply past `maxReplyBytes`
 * is refused with ReplyTooLarge (9091, a 400) rather than cut short once its status is out:
 *
 * - a reply that writes relations out (`nested`) is measured whole first (reply-parts.ts): its
 *   size multiplies level by level, so it cannot be told from its rows. Measuring goes in slices
 *   of at most `SLICE_MS`: when it takes longer, the reply is answered later (a Promise, which
 *   every transport awaits), and other requests are served between the slices. The measure
 *   counts against the request's time budget, kept across the slices; past it, ReplyTooSlow (9092).
 * - any other reply grows with the rows it reads, which are alike: it is estimated from its first
 *   piece, in proportion of the items that piece holds.
 *
 * Every piece after the first is still counted (json-chunks.ts), so a reply whose data grew
 * between the check and its last piece is cut at the limit.
 */
import { currentBudget, DatastoreError, datastoreError, withQueryBudget } from '@entistore/core'
import { tooLarge, type JsonChunks } from './json-chunks.js'
import type { PartsSize } from './reply-parts.js'

/** The longest one slice of a measure holds the event loop, in milliseconds. */
export const SLICE_MS = 10

/** Parts measured between two readings of the clock that ends a slice. */
const STEP = 1024

/**
 * Runs `fn` in another turn of the event loop, after the I/O that came in meanwhile: setImmediate
 * where there is one (Node, Bun, Deno), else a timer.
 */
export const nextTurn: (fn: () => void) => void =
  typeof setImmediate === 'function' ? (fn) => setImmediate(fn) : (fn) => setTimeout(fn, 0)

/**
 * The first piece of `chunks` once the reply is known to be within `limit` bytes, or a Promise of
 * it when measuring takes more than one slice (of `sliceMs`; tests pass 0 to go through several).
 * Throws (or rejects with) ReplyTooLarge or ReplyTooSlow.
 */
export function firstPiece(
  chunks: JsonChunks,
  limit: number,
  sliceMs = SLICE_MS,
): string | Promise<string> {
  chunks.limitTo(limit)
  if (!chunks.nested || limit === Infinity) return estimated(chunks, limit)
  const size = chunks.measure(limit)
  const slice = (): boolean => measureFor(size, sliceMs)
  if (slice()) return checked(chunks, size, limit)
  // The budget in force now (the request's), restored around each later slice; the clock is read
  // at the first part of each (`expired`), since a slice may measure fewer parts than the engine
  // counts between two readings.
  const budget = currentBudget()
  return new Promise((resolve, reject) => {
    const step = (): void => {
      try {
        if (withQueryBudget(budget, slice, true))
          resolve(withQueryBudget(budget, () => checked(chunks, size, limit)))
        else nextTurn(step)
      } catch (error) {
        reject(error)
      }
    }
    nextTurn(step)
  })
}

/** Measures on for one slice of `ms`; true once the measure is done or over the limit. */
function measureFor(size: PartsSize, ms: number): boolean {
  const start = performance.now()
  try {
    while (!size.run(STEP)) if (performance.now() - start >= ms) return false
    return true
  } catch (error) {
    if (DatastoreError.is(error) && error.name === 'QueryBudgetExceeded')
      throw datastoreError('ReplyTooSlow', [currentBudget()?.ms ?? 0], { cause: error })
    throw error
  }
}

function checked(chunks: JsonChunks, size: PartsSize, limit: number): string {
  if (size.over) throw tooLarge(`at least ${size.bytes}`, limit)
  return chunks.take()
}

function estimated(chunks: JsonChunks, limit: number): string {
  const first = chunks.take()
  if (!chunks.done) {
    const about = chunks.estimatedBytes()
    if (about > limit) throw tooLarge(`about ${about}`, limit)
  }
  return first
}
