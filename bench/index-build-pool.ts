/**
 * What a worker pool gives a large index build (issue 65): a datastore of `rows` rows with a
 * sorted index over a number (and its integer key's), loaded, then built in the background as
 * `serve` builds it (slices of 4 ms, `setImmediate` between them) on the serving thread alone, and
 * with the sorts on pools of 1 and 2 threads (the rows are still read here, in slices). Prints
 * each build's time, the serving thread's time in the build's slices, and the longest turn of its
 * event loop meanwhile (a timer every millisecond: what a GET arriving then waits at most); then the sort of the number's
 * keys alone: the sliced sort's steps one after the other, the kernels in one call here, and the
 * pools. Runs the built worker: `npm run build` first.
 *
 *   npx tsx --conditions=source bench/index-build-pool.ts [rows] [rounds] [sorts]
 */
import { createDatastore, type ParallelPool } from '@entistore/core'
import { createWorkerPool } from 'entistore'
import { SlicedSort } from '../packages/core/src/indexes/sliced-sort.js'
import { PoolSort } from '../packages/core/src/indexes/pool-sort.js'
import { sharedFloat64, sharedInt32 } from '../packages/core/src/parallel/shared-arrays.js'
import { HandPool } from '../packages/core/src/parallel/hand-pool.fixture.js'
import { scoredItems } from '../packages/core/src/indexes/scored-items.fixture.js'

const N = Number(process.argv[2] ?? 10_000_000)
const ROUNDS = Number(process.argv[3] ?? 3)
const now = () => performance.now()

const MODEL = scoredItems()
// A number with ties and 5% nulls, in no order.
const scoreOf = (i: number) => (i % 20 === 7 ? null : ((i * 2_654_435_761) % 1_000_003) / 8)

/**
 * Builds a loaded datastore's indexes in the background: its time, its slices' time, and the
 * longest turn of the event loop meanwhile (what a GET arriving then waits at most, plus 1 ms).
 */
async function backgroundBuild(parallel: ParallelPool | undefined) {
  const ds = createDatastore(MODEL, parallel ? { parallel } : {})
  const BATCH = 1_000_000
  ds.loadData({
    Item: Array.from({ length: Math.min(N, BATCH) }, (_, i) => ({ ID: i + 1, score: scoreOf(i) })),
  })
  for (let from = BATCH; from < N; from += BATCH)
    ds.loadData({
      Item: Array.from({ length: Math.min(N - from, BATCH) }, (_, i) => ({
        ID: from + i + 1,
        score: scoreOf(from + i),
      })),
    })
  let busy = 0
  const turns: number[] = []
  let last = now()
  let building = true
  const tick = () => {
    const at = now()
    turns.push(at - last)
    last = at
    // A timer, not setImmediate: a probe turning without a pause would take a core from the
    // workers (2 cores here), as no idle server does.
    if (building) setTimeout(tick, 1)
  }
  setTimeout(tick, 1)
  const start = now()
  await ds.buildIndexesInBackground({
    schedule: (slice) =>
      setImmediate(() => {
        const at = now()
        slice()
        busy += now() - at
      }),
  })
  const ms = now() - start
  building = false
  return { ms, busy, longest: Math.max(0, ...turns) }
}

/** The keys a build reads of the score: shared, NaN for null, with their row ids. */
function buildKeys() {
  const keys = sharedFloat64(N)
  const rows = sharedInt32(N)
  let nulls = 0
  for (let i = 0; i < N; i++) {
    const v = scoreOf(i)
    keys[i] = v ?? NaN
    if (v === null) nulls++
    rows[i] = i
  }
  return { keys, rows, known: { nulls, ints: false } }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!
const pools = [1, 2].map((threads) => createWorkerPool({ threads }))

console.log(
  `${N.toLocaleString('en')} rows, median of ${ROUNDS} rounds, the cases of a round in turn`,
)
// `sorts` as a third argument: the sorts alone.
const builders = process.argv[4] === 'sorts' ? [] : [undefined, ...pools]
const builds = builders.map((): Awaited<ReturnType<typeof backgroundBuild>>[] => [])
for (let r = 0; r < ROUNDS; r++)
  for (const [at, parallel] of builders.entries()) builds[at]!.push(await backgroundBuild(parallel))
if (builders.length > 0) console.log('background build (the key and the number), as serve runs it:')
for (const [at, parallel] of builders.entries()) {
  const runs = builds[at]!
  const name = parallel ? `sorts on a pool of ${parallel.threads}` : 'serving thread alone'
  console.log(
    `  ${name.padEnd(26)} build ${median(runs.map((x) => x.ms)).toFixed(0)} ms, ` +
      `its slices ${median(runs.map((x) => x.busy)).toFixed(0)} ms, ` +
      `longest turn ${median(runs.map((x) => x.longest)).toFixed(1)} ms`,
  )
}

console.log("the number's sort alone:")
type Keys = ReturnType<typeof buildKeys>
const sorts: [string, (k: Keys) => Promise<unknown>][] = [
  [
    'sliced sort, every step',
    async ({ keys, rows, known }) => {
      const sort = new SlicedSort(
        keys,
        rows as Int32Array<ArrayBuffer>,
        false,
        undefined,
        undefined,
        known,
      )
      while (!sort.step(() => true));
    },
  ],
  [
    'kernels here, one call each',
    async ({ keys, rows, known }) => {
      const pool = new HandPool(1, 1 << 18)
      const sort = new PoolSort(keys, rows, known, pool)
      while (!sort.done) if (!pool.next()) await Promise.resolve()
    },
  ],
  ...pools.map((pool): [string, (k: Keys) => Promise<unknown>] => [
    `kernels on a pool of ${pool.threads}`,
    ({ keys, rows, known }) => new PoolSort(keys, rows, known, pool).waiting,
  ]),
]
const sortTimes = sorts.map((): number[] => [])
for (let r = 0; r < ROUNDS; r++)
  for (const [at, [, once]] of sorts.entries()) {
    const keys = buildKeys()
    const start = now()
    await once(keys)
    sortTimes[at]!.push(now() - start)
  }
for (const [at, [name]] of sorts.entries())
  console.log(`  ${name.padEnd(30)} ${median(sortTimes[at]!).toFixed(0)} ms`)
await Promise.all(pools.map((pool) => pool.close()))
