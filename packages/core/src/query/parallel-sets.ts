/**
 * @module The set algebra of large selections (AND, OR, EXCEPT, INTERSECT) by the kernels of
 * parallel/set-kernels.ts: on worker threads when the work runs in slices on a datastore with a
 * pool and both lists are in shared memory (kept sets, index ranges and scans make them so), else
 * the same kernels here, in steps. The other list is a bitmap of its row ids (one byte a row id,
 * made by the parts at once), and each part of the first writes what it keeps at its own place in
 * one output, laid end to end after: the answer is the per-row path's (sets/set-algebra.ts), in
 * the same order, as an Int32Array (shared when large) rather than an array of numbers.
 *
 * Small lists, and lists naming rows by negative ids (a set adopted from another process: no bit
 * of a bitmap), take the per-row path.
 */
import * as algebra from '../sets/set-algebra.js'
import type { RowIds } from '../sets/row-ids.js'
import { isShared, rowIdBuffer, SHARED_ROWS, sharedBytes } from '../parallel/shared-arrays.js'
import { kernelWork } from './parallel-work.js'
import { BUDGET_STEP } from './budget.js'
import type { Work } from './slices.js'

/**
 * `a AND b`, `a OR b`, `a EXCEPT b`, in `a`'s order (then `b`'s, for OR). `min`: the length of
 * the longer list from which the kernels answer (a test's smaller one runs them on small lists).
 */
export function* combineWork(
  operator: 'AND' | 'OR' | 'EXCEPT',
  a: RowIds,
  b: RowIds,
  min = SHARED_ROWS,
): Work<RowIds> {
  // The list looked up is b, but for OR, which adds b's members not in a.
  const [looked, walked] = operator === 'OR' ? [a, b] : [b, a]
  const mark = large(a, b, min) && looked.length > 0 ? yield* bitmapOf(looked) : undefined
  if (mark === undefined)
    return yield* operator === 'AND'
      ? algebra.andWork(a, b)
      : operator === 'OR'
        ? algebra.orWork(a, b)
        : algebra.exceptWork(a, b)
  const kept = yield* keep(walked, mark, operator === 'AND')
  if (operator !== 'OR') return kept
  const out = rowIdBuffer(a.length + kept.length)
  out.set(a)
  out.set(kept, a.length)
  return out
}

/** Whether `a` and `b` have a member in common (INTERSECT); `min` as for combineWork. */
export function* intersectsWork(a: RowIds, b: RowIds, min = SHARED_ROWS): Work<boolean> {
  if (a.length === 0 || b.length === 0) return false
  const [small, big] = a.length <= b.length ? [a, b] : [b, a]
  const mark = large(a, b, min) ? yield* bitmapOf(small) : undefined
  if (mark === undefined) return yield* algebra.intersectsWork(a, b)
  let any = false
  yield* kernelWork<number>('anyMarked', { rows: big, mark }, big.length, shared(big), (hit) => {
    if (hit === 1) any = true
  })
  return any
}

const large = (a: RowIds, b: RowIds, min: number): boolean => Math.max(a.length, b.length) >= min

// A plain array is copied to each worker: only typed arrays over shared memory go to the pool.
const shared = (rows: RowIds): boolean => rows instanceof Int32Array && isShared(rows)

/** A bitmap of `rows` (1 at each member's row id), or undefined if one of them is negative. */
function* bitmapOf(rows: RowIds): Work<Uint8Array | undefined> {
  let min = Infinity
  let max = -Infinity
  yield* kernelWork<[number, number]>('rowIdBounds', { rows }, rows.length, shared(rows), (b) => {
    if (b[0] < min) min = b[0]
    if (b[1] > max) max = b[1]
  })
  if (min < 0) return undefined
  const mark = sharedBytes(max + 1)
  yield* kernelWork('markRows', { rows, mark }, rows.length, shared(rows), () => {})
  return mark
}

/** The members of `rows` that `mark` holds (`hold`) or not, in their order. */
function* keep(rows: RowIds, mark: Uint8Array, hold: boolean): Work<Int32Array> {
  const out = rowIdBuffer(rows.length)
  const parts: [number, number][] = []
  let found = 0
  yield* kernelWork<[number, number]>(
    'keepRows',
    { rows, mark, keep: hold, out },
    rows.length,
    shared(rows) && isShared(out),
    (part) => {
      parts.push(part)
      found += part[1]
    },
  )
  if (found === rows.length) return out
  // The parts laid end to end in a list of their length, a step a large part.
  const kept = rowIdBuffer(found)
  let at = 0
  for (const [from, n] of parts) {
    kept.set(out.subarray(from, from + n), at)
    at += n
    if (n > BUDGET_STEP) yield
  }
  return kept
}
