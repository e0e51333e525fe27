/**
 * @module A stable sort written as steps (work.ts): a merge sort of a copy of the items, each
 * comparison a pass of the budget's (passes.ts), stopping where the budget's check falls, so that
 * a sort of millions of elements in a call in slices holds no other client. The caller puts the
 * sorted copy in place at the end: a sort the budget ended leaves the value as it was.
 *
 * A stable sort gives one order for a given comparison (equal elements keep their order), so this
 * one gives what V8's `Array.prototype.sort`, stable too, gives with the same comparison.
 *
 * It is TimSort's plan, simplified: runs of 32 to 64 elements, each sorted by binary insertion
 * after the ordered stretch it starts with (few comparisons: a callback's are costly), then
 * merged in pairs, level by level, a run that starts after the one before it ends copied without
 * merging, a merge "galloping" through long stretches of one run. It makes as many comparisons as
 * V8's sort on shuffled numbers, texts or many equal keys (0 to 1 % more) and as few on a sorted
 * input, and ran as fast on 100,000 elements. The comparison is only ever asked whether an element
 * that comes later goes strictly before one that comes earlier, `compare(later, earlier) < 0`: a
 * callback that tells whether its first value goes before its second is called once a comparison.
 */
import type { Passes } from './passes.js'
import type { Work } from './work.js'

/**
 * The order of two values: below 0 when `a` goes before `b`. Or, for a comparison that is itself
 * steps (a callback of 4D code), the steps that give it.
 */
export type SortCompare<T> = (a: T, b: T) => number | Work<number>

/**
 * `items` sorted (a new array, `items` unchanged) by `compare`, stably: a pass of `rt`'s budget a
 * comparison, and a stop where the budget's check falls.
 */
export function* sortSteps<T>(rt: Passes, items: readonly T[], compare: SortCompare<T>): Work<T[]> {
  const n = items.length
  let from = items.slice()
  if (n < 2) return from
  const run = runLength(n)
  for (let lo = 0; lo < n; lo += run) yield* sortRun(rt, from, lo, Math.min(lo + run, n), compare)
  let to = new Array<T>(n)
  for (let width = run; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n)
      const hi = Math.min(lo + 2 * width, n)
      if (mid < hi) {
        if (--rt.ticks < 0) {
          rt.tick()
          yield
        }
        let c = compare(from[mid]!, from[mid - 1]!)
        if (typeof c !== 'number') c = yield* c
        // Runs that overlap are merged; a run that starts after the one before ends is copied.
        if (c < 0) {
          yield* merge(rt, from, to, lo, mid, hi, compare)
          continue
        }
      }
      for (let m = lo; m < hi; m++) to[m] = from[m]!
    }
    const t = from
    from = to
    to = t
  }
  return from
}

/**
 * The length of the runs sorted before the merges, as TimSort chooses it: between 32 and 64,
 * such that the number of runs is a power of two or just below one, so that the merges stay
 * balanced.
 */
function runLength(n: number): number {
  let low = 0
  while (n >= 64) {
    low |= n & 1
    n >>= 1
  }
  return n + low
}

/**
 * `a[lo, hi)` sorted in place: the run it starts with (ascending, or strictly descending and then
 * reversed) kept, each element after it put in place by binary insertion (few comparisons: a
 * callback's are costly).
 */
function* sortRun<T>(
  rt: Passes,
  a: T[],
  lo: number,
  hi: number,
  compare: SortCompare<T>,
): Work<void> {
  let end = lo + 1
  let descending: boolean | undefined
  for (; end < hi; end++) {
    if (--rt.ticks < 0) {
      rt.tick()
      yield
    }
    let c = compare(a[end]!, a[end - 1]!)
    if (typeof c !== 'number') c = yield* c
    // Strictly descending, so that reversing it keeps equal elements in their order.
    if (descending === undefined) descending = c < 0
    else if (descending !== c < 0) break
  }
  if (descending === true)
    for (let l = lo, r = end - 1; l < r; l++, r--) {
      const t = a[l]!
      a[l] = a[r]!
      a[r] = t
    }
  for (let i = end; i < hi; i++) {
    const x = a[i]!
    // `x` goes after every element it does not go before.
    let left = lo
    let right = i
    while (left < right) {
      const mid = (left + right) >>> 1
      if (--rt.ticks < 0) {
        rt.tick()
        yield
      }
      let c = compare(x, a[mid]!)
      if (typeof c !== 'number') c = yield* c
      if (c < 0) right = mid
      else left = mid + 1
    }
    for (let j = i; j > left; j--) a[j] = a[j - 1]!
    a[left] = x
  }
}

// The wins in a row of one run after which the merge looks for how far the run goes.
const MIN_GALLOP = 7

/**
 * The runs `from[lo, mid)` and `from[mid, hi)` merged into `to[lo, hi)`, stably. As in TimSort,
 * once one run has given MIN_GALLOP elements in a row, the merge finds how many more it gives by
 * a search that doubles its step ("galloping"), then by halves: with many equal keys, or runs
 * that barely overlap, whole stretches are copied for a few comparisons.
 */
function* merge<T>(
  rt: Passes,
  from: T[],
  to: T[],
  lo: number,
  mid: number,
  hi: number,
  compare: SortCompare<T>,
): Work<void> {
  let i = lo
  let j = mid
  let k = lo
  let minGallop = MIN_GALLOP
  while (i < mid && j < hi) {
    let wonA = 0
    let wonB = 0
    while (wonA < minGallop && wonB < minGallop) {
      if (--rt.ticks < 0) {
        rt.tick()
        yield
      }
      let c = compare(from[j]!, from[i]!)
      if (typeof c !== 'number') c = yield* c
      if (c < 0) {
        to[k++] = from[j++]!
        wonB++
        wonA = 0
        if (j === hi) break
      } else {
        to[k++] = from[i++]!
        wonA++
        wonB = 0
        if (i === mid) break
      }
    }
    if (i === mid || j === hi) break
    // Galloping: the elements of the first run that `from[j]` does not go before, then
    // `from[j]`; those of the second that go before `from[i]`, then `from[i]`.
    for (;;) {
      const a = (yield* gallop(rt, from, i, mid, from[j]!, true, compare)) - i
      for (const end = i + a; i < end;) to[k++] = from[i++]!
      if (i === mid) break
      to[k++] = from[j++]!
      if (j === hi) break
      const b = (yield* gallop(rt, from, j, hi, from[i]!, false, compare)) - j
      for (const end = j + b; j < end;) to[k++] = from[j++]!
      if (j === hi) break
      to[k++] = from[i++]!
      if (i === mid) break
      if (minGallop > 1) minGallop--
      if (a < MIN_GALLOP && b < MIN_GALLOP) break
    }
    minGallop += 2
  }
  while (i < mid) to[k++] = from[i++]!
  while (j < hi) to[k++] = from[j++]!
}

/**
 * The first position of `run[lo, hi)` (sorted) where `key`, from the later run, goes before the
 * element (`later`), or, `key` from the earlier run, where the element does not go before `key`:
 * looked for at lo, lo + 1, lo + 3, lo + 7…, then by halves.
 */
function* gallop<T>(
  rt: Passes,
  run: readonly T[],
  lo: number,
  hi: number,
  key: T,
  later: boolean,
  compare: SortCompare<T>,
): Work<number> {
  let left = lo
  let right = hi
  let step = 1
  let doubling = true
  while (left < right) {
    let probe = lo + step - 1
    if (!doubling || probe >= right) {
      doubling = false
      probe = (left + right) >>> 1
    }
    if (--rt.ticks < 0) {
      rt.tick()
      yield
    }
    let c = later ? compare(key, run[probe]!) : compare(run[probe]!, key)
    if (typeof c !== 'number') c = yield* c
    if (later ? c < 0 : c >= 0) {
      right = probe
      doubling = false
    } else {
      left = probe + 1
      step *= 2
    }
  }
  return left
}
