/**
 * What the worker pool (packages/entistore/src/parallel/worker-pool.ts) costs and gives (issue 65):
 * a run's round trip (one part of one row: the hop to a thread and back); the sum of 10M
 * doubles in a SharedArrayBuffer on the main thread (in one call, and in the pool's 4 parts one
 * after the other) and on pools of 1 and 2 threads; and the scan of an unindexed filter
 * (`compareNumbers`, `value > x`) against the plain `Float64Array` loop, here and on the pools,
 * with its time × the threads used over the plain loop's (issue 65's goal: ≤ 1.2×); `$distinct` of
 * a number and the AND of two large selections (bench/pool-kernels.ts). The cases are timed in rounds, one of each a
 * round, so that a drift of a busy machine hits them alike; prints medians. Runs the built
 * worker: `npm run build` first.
 *
 *   npx tsx --conditions=source bench/worker-pool.ts [rows] [rounds]
 */
import { partsOf } from '@entistore/core'
import { cancelFlag, KERNELS } from '@entistore/core/kernels'
import { createWorkerPool } from 'entistore'
import { dataCases } from './pool-kernels.ts'

const N = Number(process.argv[2] ?? 10_000_000)
const ROUNDS = Number(process.argv[3] ?? 21)
const WARM_UP = 10
const column = new Float64Array(new SharedArrayBuffer(N * 8))
for (let i = 0; i < N; i++) column[i] = i % 10 === 9 ? NaN : (i % 1000) + 0.5

const sumColumn = KERNELS['sumColumn']!
const compareNumbers = KERNELS['compareNumbers']!
// A threshold that a few hundred rows pass, as a selective filter's.
const scan = { column, op: 'gt', key: 999.45 }
/**
 * The plain loop the scan is measured against: the row ids of the values over the key, as a
 * function given its array and key (a loop over this module's own constants is compiled with the
 * array and key known, twice as fast as any function given them: measured 5.8 against 11.2 ms).
 */
function plainScan(values: Float64Array, key: number): number[] {
  const out: number[] = []
  for (let i = 0; i < values.length; i++) if (values[i]! > key) out.push(i)
  return out
}
const pools = [1, 2].map((threads) => createWorkerPool({ threads }))
const tiny = [{ from: 0, to: 1 }]
const TRIPS = 200

const cases: [string, () => unknown][] = [
  ['main thread, one call', () => sumColumn({ column } as never, 0, N, cancelFlag())],
  [
    'main thread, 4 parts',
    () =>
      partsOf(N, 1).map(({ from, to }) => sumColumn({ column } as never, from, to, cancelFlag())),
  ],
  ...pools.map((pool): [string, () => unknown] => [
    `pool of ${pool.threads}, ${partsOf(N, pool.threads).length} parts`,
    () => pool.run('sumColumn', { column }, partsOf(N, pool.threads)).result,
  ]),
  ['scan: plain Float64Array loop', () => plainScan(column, scan.key)],
  ['scan: kernel, one call', () => compareNumbers(scan as never, 0, N, cancelFlag())],
  ...pools.map((pool): [string, () => unknown] => [
    `scan: pool of ${pool.threads}`,
    () => pool.run('compareNumbers', scan, partsOf(N, pool.threads)).result,
  ]),
  ...pools.map((pool): [string, () => unknown] => [
    `pool of ${pool.threads}, ${TRIPS} round trips`,
    async () => {
      for (let i = 0; i < TRIPS; i++) await pool.run('sumColumn', { column }, tiny).result
    },
  ]),
  ...dataCases(N, pools),
]

const times = cases.map((): number[] => [])
for (let round = 0; round < WARM_UP + ROUNDS; round++)
  for (const [at, [, once]] of cases.entries()) {
    const start = performance.now()
    await once()
    if (round >= WARM_UP) times[at]!.push(performance.now() - start)
  }

const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1]!
console.log(`${N.toLocaleString('en')} doubles, median of ${ROUNDS} rounds:`)
const plain = median(times[cases.findIndex(([name]) => name.startsWith('scan: plain'))]!)
for (const [at, [name]] of cases.entries()) {
  const ms = median(times[at]!)
  const threads = Number(/pool of (\d+)/.exec(name)?.[1] ?? 1)
  const figure = name.endsWith('round trips')
    ? `${((ms * 1000) / TRIPS).toFixed(0)} µs a run`
    : `${ms.toFixed(1)} ms` +
      (name.startsWith('scan:') && !name.includes('plain')
        ? ` (× threads / plain loop: ${((ms * threads) / plain).toFixed(2)}×, goal ≤ 1.2×)`
        : '')
  console.log(`  ${name.padEnd(36)} ${figure}`)
}
await Promise.all(pools.map((pool) => pool.close()))
