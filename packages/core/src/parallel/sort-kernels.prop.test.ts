/**
 * The index sort's kernels against the sliced sort they stand for (indexes/sliced-sort.ts): any
 * keys (null as NaN, -0, infinities, ties), any part boundaries give the same content bit for bit,
 * and a raised flag stops them with their input as it was.
 */
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { SlicedSort, type NumberStats, type SortedContent } from '../indexes/sliced-sort.js'
import { cancelFlag, KernelStopped } from './kernels.js'
import { partsOf, type KernelPart } from './parallel-pool.js'
import { sharedFloat64, sharedInt32 } from './shared-arrays.js'
import { mergeSortedParts, partBounds, sortNumbersPart } from './sort-kernels.js'

const value = fc.oneof(
  fc.constantFrom(Number.NaN, -0, 0, Infinity, -Infinity),
  fc.integer({ min: -5, max: 5 }),
  fc.integer(),
  fc.double({ noNaN: true }),
)

/** The build's keys as it reads them: shared, NaN for null, with increasing row ids. */
function readKeys(values: readonly number[]) {
  const keys = sharedFloat64(values.length)
  keys.set(values)
  const rows = sharedInt32(values.length)
  for (let i = 0; i < rows.length; i++) rows[i] = 3 * i + 1
  let nulls = 0
  let ints = true
  for (const k of values)
    if (k !== k) nulls++
    else if ((k | 0) !== k || Object.is(k, -0)) ints = false
  return { keys, rows, stats: { nulls, ints } as NumberStats }
}

/** What a pool does with them: each part sorted, then one merge. */
function onParts(
  keys: Float64Array,
  rows: Int32Array,
  stats: NumberStats,
  parts: KernelPart[],
): SortedContent {
  const n = keys.length
  const sortedKeys = sharedFloat64(n)
  const sortedRows = sharedInt32(n)
  const nulls = parts.map((p) =>
    sortNumbersPart({ keys, rows, sortedKeys, sortedRows }, p.from, p.to, cancelFlag()),
  )
  const out = sharedInt32(Math.max(16, n))
  const numbers = stats.ints ? sharedInt32(out.length) : sharedFloat64(out.length)
  const args = { sortedKeys, sortedRows, parts: partBounds(parts, nulls), rows: out, numbers }
  const allNulls = mergeSortedParts(args, 0, n, cancelFlag())
  return { kind: 'numbers', size: n, rows: out, numbers, nulls: allNulls }
}

function sliced(keys: Float64Array, rows: Int32Array, stats: NumberStats): SortedContent {
  const sort = new SlicedSort(keys.slice(), rows.slice(), false, 4, 3, stats)
  while (!sort.step(() => true));
  return sort.result()
}

/** The content a sorted index takes: its `size` first entries, and their kind. */
const content = (c: SortedContent) => {
  if (c.kind !== 'numbers') throw new TypeError(c.kind)
  return {
    nulls: c.nulls,
    rows: [...c.rows.subarray(0, c.size)],
    numbers: [...c.numbers.subarray(0, c.size)],
    int32: c.numbers instanceof Int32Array,
  }
}

describe('sortNumbersPart and mergeSortedParts', () => {
  test.prop([
    fc.array(value, { maxLength: 400 }),
    fc.integer({ min: 1, max: 8 }),
    fc.integer({ min: 1, max: 120 }),
  ])('sort a build part by part as the sliced sort does, bit for bit', (values, threads, min) => {
    const { keys, rows, stats } = readKeys(values)
    const parts = partsOf(values.length, threads, min)
    expect(content(onParts(keys, rows, stats, parts))).toEqual(content(sliced(keys, rows, stats)))
  })

  it('sort parts of many keys (the radix sort, not the small one), ties in row order', () => {
    const values = Array.from({ length: 20_000 }, (_, i) => (i % 7 === 0 ? NaN : (i * 7919) % 997))
    const { keys, rows, stats } = readKeys(values)
    const got = content(onParts(keys, rows, stats, partsOf(values.length, 3, 2500)))
    expect(got).toEqual(content(sliced(keys, rows, stats)))
    expect(got.int32).toBe(true)
    expect(got.nulls).toBe(Math.ceil(20_000 / 7))
  })

  it('stop at a raised flag, the keys and rows they read as they were', () => {
    const { keys, rows, stats } = readKeys(Array.from({ length: 5000 }, (_, i) => 5000 - i))
    const [before, beforeRows] = [keys.slice(), rows.slice()]
    const cancel = cancelFlag()
    Atomics.store(cancel, 0, 1)
    const args = { keys, rows, sortedKeys: sharedFloat64(5000), sortedRows: sharedInt32(5000) }
    expect(() => sortNumbersPart(args, 0, 5000, cancel)).toThrow(KernelStopped)
    const merge = {
      ...args,
      parts: partBounds(
        [
          { from: 0, to: 2500 },
          { from: 2500, to: 5000 },
        ],
        [0, 0],
      ),
      rows: sharedInt32(5000),
      numbers: sharedInt32(5000),
    }
    expect(() => mergeSortedParts(merge, 0, 5000, cancel)).toThrow(KernelStopped)
    expect(keys).toEqual(before)
    expect(rows).toEqual(beforeRows)
    expect(stats.nulls).toBe(0)
  })
})
