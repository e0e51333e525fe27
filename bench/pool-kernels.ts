/**
 * The cases of bench/worker-pool.ts for `$distinct` of a number and the set algebra of large
 * selections (issue 65): the per-row path the serving thread ran before the kernels, the kernels
 * on this thread, and the kernels on pools (their parts' answers merged or laid end to end here).
 */
import { partsOf, type ParallelPool } from '@entistore/core'
import { cancelFlag, KERNELS } from '@entistore/core/kernels'
import { DistinctMerge } from '../packages/core/src/parallel/distinct-numbers.ts'
import { and } from '../packages/core/src/sets/set-algebra.ts'
import { combineWork } from '../packages/core/src/query/parallel-sets.ts'
import { finish } from '../packages/core/src/query/slices.ts'

type Case = [string, () => unknown]

const sharedInt32 = (values: ArrayLike<number>): Int32Array => {
  const out = new Int32Array(new SharedArrayBuffer(values.length * 4))
  out.set(values)
  return out
}

/** The per-row path of `$distinct` before its kernel (query/aggregate.ts): a Set, then a sort. */
function perRowDistinct(column: Float64Array, rows: Int32Array): number[] {
  const seen = new Set<number>()
  for (let i = 0; i < rows.length; i++) {
    const v = column[rows[i]!]!
    if (v === v) seen.add(v)
  }
  return Array.from(Float64Array.from(seen).sort())
}

/** `kernel` over [0, length) on `pool` in its parts: the results, in row order. */
const onPool = <R>(pool: ParallelPool, kernel: string, args: unknown, length: number) =>
  pool.run<R>(kernel, args, partsOf(length, pool.threads)).result

async function poolDistinct(pool: ParallelPool, args: { column: Float64Array }, length: number) {
  const merged = new DistinctMerge()
  for (const part of await onPool<Float64Array>(pool, 'distinctNumbers', args, length))
    merged.add(part)
  return merged.values()
}

/** AND of `a` and `b` by the set kernels on `pool`, as query/parallel-sets.ts runs them. */
async function poolAnd(pool: ParallelPool, a: Int32Array, b: Int32Array) {
  const bounds = await onPool<[number, number]>(pool, 'rowIdBounds', { rows: b }, b.length)
  const mark = new Uint8Array(new SharedArrayBuffer(Math.max(...bounds.map(([, hi]) => hi)) + 1))
  await onPool(pool, 'markRows', { rows: b, mark }, b.length)
  const out = new Int32Array(new SharedArrayBuffer(a.length * 4))
  const parts = await onPool<[number, number]>(
    pool,
    'keepRows',
    { rows: a, mark, keep: true, out },
    a.length,
  )
  const kept = new Int32Array(new SharedArrayBuffer(parts.reduce((n, [, k]) => n + k, 0) * 4))
  let at = 0
  for (const [from, n] of parts) {
    kept.set(out.subarray(from, from + n), at)
    at += n
  }
  return kept
}

/** The cases over `n` rows: `$distinct` of 100 values and of a value a row, AND of two halves. */
export function dataCases(n: number, pools: readonly ParallelPool[]): Case[] {
  // Ages: 100 values, a null every 10 rows. Prices: a value a row (1M rows at most: a Set of 10M
  // values is seconds a round).
  const ages = new Float64Array(new SharedArrayBuffer(n * 8))
  for (let i = 0; i < n; i++) ages[i] = i % 10 === 9 ? NaN : (i * 7919) % 100
  const m = Math.min(n, 1_000_000)
  const prices = new Float64Array(new SharedArrayBuffer(m * 8))
  for (let i = 0; i < m; i++) prices[i] = (i * 7919) % m
  const every = (length: number) => sharedInt32(Int32Array.from({ length }, (_, i) => i))
  // Two selections of half the rows each, a third of them in common: every other row, and rows
  // 1/3 … 5/6 of the table, as two filters give them (ascending).
  const a = sharedInt32(Int32Array.from({ length: n >> 1 }, (_, i) => 2 * i))
  const b = sharedInt32(Int32Array.from({ length: n >> 1 }, (_, i) => Math.floor(n / 3) + i))
  const distinct = (name: string, column: Float64Array): Case[] => {
    const rows = every(column.length)
    const args = { column }
    return [
      [`${name}: per-row path`, () => perRowDistinct(column, rows)],
      [
        `${name}: kernel here`,
        () => {
          const merged = new DistinctMerge()
          merged.add(
            KERNELS['distinctNumbers']!(
              args as never,
              0,
              column.length,
              cancelFlag(),
            ) as Float64Array,
          )
          return merged.values()
        },
      ],
      ...pools.map((pool): Case => [
        `${name}: pool of ${pool.threads}`,
        () => poolDistinct(pool, args, column.length),
      ]),
    ]
  }
  return [
    ...distinct('distinct, 100 values', ages),
    ...distinct(`distinct, ${m / 1e6}M values`, prices),
    ['AND: per-row path', () => and(a, b)],
    ['AND: kernels here, in steps', () => finish(combineWork('AND', a, b))],
    ...pools.map((pool): Case => [`AND: pool of ${pool.threads}`, () => poolAnd(pool, a, b)]),
  ]
}
