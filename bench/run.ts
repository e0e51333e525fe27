/**
 * `npm run bench [-- options]`: Entistore against hand-written plain JS and peer libraries, in one
 * process and one run, with ratios to the plain baseline and PASS/MISS against the speed goals;
 * then folded text scans against a hand loop, and the real `entistore serve` process against raw
 * node:http. See bench/README.md. Never fails on a missed goal: the numbers are the output.
 */
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { arch, cpus, platform, release, totalmem } from 'node:os'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Datastore } from '@entistore/core'
import type { Person } from './data.ts'
import {
  BUILD_CHOICES,
  ENGINE_CHOICES,
  ensurePackagesBuilt,
  loadEngine,
  type BuildChoice,
  type EngineChoice,
} from './engine.ts'
import {
  count,
  indent,
  mb,
  ms,
  parseSize,
  perOp,
  ratio,
  sizeLabel,
  table,
  type Align,
} from './report.ts'
import { AGGREGATE_OPS, aggregateGroups } from './suites/aggregate.bench.ts'
import { runAdaptersSuite, type AdaptersOptions } from './suites/adapters.bench.ts'
import {
  runHttpSuite,
  SHAPES,
  type GoalRow,
  type HttpOptions,
  type MeasureRow,
  type ShapeId,
} from './suites/http.bench.ts'
import { addPeerCases, buildLoki, type LokiPeople } from './suites/peers.bench.ts'
import {
  loadCases,
  makeData,
  makeParams,
  queryGroups,
  shortGroups,
  type Group,
  type LoadCase,
  type PlainStore,
} from './suites/query.bench.ts'
import { SETS_OPS, setsGroups } from './suites/sets.bench.ts'
import { FIXTURE_OPS, fixtureGroups } from './suites/fixture.bench.ts'
import { runPicturesSuite } from './suites/pictures.bench.ts'
import { runJournalSuite } from './suites/journal.bench.ts'
import { runClusterSuite } from './suites/cluster.bench.ts'
import { runLogCost } from './log-cost.ts'
import { runClusterHttpSuite, type ClusterHttpOptions } from './suites/cluster-http.bench.ts'
import { runScaleSuite, SCALE_DATA, type ScaleOptions } from './suites/scale.bench.ts'
import { runContentionSuite, type ContentionOptions } from './suites/contention.bench.ts'
import { runCodeBesideSuite, type CodeBesideOptions } from './suites/code-beside.bench.ts'
import { RESTRICT_ON } from './views-data.ts'
import { runViewsSuite, THIS_TREE, type ViewsOptions } from './suites/views.bench.ts'
import { textGroups } from './suites/text.bench.ts'
import {
  timeVectorGroups,
  vectorFixture,
  vectorIndexMeasure,
  vectorReport,
  VECTOR_INDEX_OP,
  VECTOR_OPS,
  type VectorGroup,
} from './suites/vectors.bench.ts'
import { runNewcomerSuite } from './suites/newcomer.bench.ts'
import {
  compileReport,
  FOUR_D_DEFAULTS,
  FOUR_D_OPS,
  fourDGroups,
  measureCompile,
  type FourDOptions,
} from './suites/4d-language.bench.ts'
import { loadFourD } from './4d-code.ts'
import { CACHE_DIR } from './items.ts'
import { quickMinutes, quickVerdict } from './quick-figure.ts'
import { OWN_DATA_HELP } from './own-data.ts'
import { changesReport, runChangesSuite, type ChangesOptions } from './suites/changes.bench.ts'
import {
  atomicBatches,
  runWritesHttp,
  WRITE_OPS,
  writeGroups,
  type WriteGroup,
} from './suites/writes.bench.ts'
import {
  fullGc,
  heapMb,
  median,
  sinkValue,
  timeCases,
  timeOnce,
  type AnyCase,
  type Case,
  type Timed,
} from './timing.ts'

// ---------------------------------------------------------------- options

const SUITES = [
  'query',
  'text',
  'http',
  'writes',
  'aggregate',
  'sets',
  'fixture',
  'adapters',
  'pictures',
  'journal',
  'cluster',
  'cluster-http',
  'memory',
  'scale',
  'newcomer',
  'contention',
  'code-beside',
  'vectors',
  'changes',
  'views',
  '4d-language',
] as const
type Suite = (typeof SUITES)[number]
/** The operations of the query suite, for `--only`. */
const QUERY_OPS = [
  'eq',
  'get',
  'in',
  'range',
  'between',
  'range20',
  'begin',
  'scan',
  'top',
  'top-noindex',
  'load',
  'short-eq',
  'short-get',
  'short-range',
]
/** The operations of the vectors suite, for `--only`: its exact groups and the approximate top 10. */
const VECTOR_ONLY = [...VECTOR_OPS, VECTOR_INDEX_OP]
/** The query operations on issue 19's short rows (`--shapes=short`), the others on data.ts's. */
const SHORT_OPS = ['short-eq', 'short-get', 'short-range']

interface Options {
  suites: Suite[]
  sizes: number[]
  peers: boolean
  peersMax: number
  reps?: number
  warmup?: number
  only?: string[]
  json?: string
  quick: boolean
  engine: EngineChoice
  textRows: number
  aggregateRows: number
  setsSize: number
  fixtureRows: number
  journalRows: number
  http: HttpOptions
  writes: WritesOptions
  adapters: AdaptersOptions
  clusterHttp: ClusterHttpOptions
  build: BuildChoice
  /** Shapes of data of the query and http suites. */
  shapes: ShapeId[]
  /** Person rows of the memory breakdown, and of its heap snapshot. */
  memoryRows: number
  snapshotRows: number
  scale: ScaleOptions
  contention: ContentionOptions
  /** 4D code beside other clients (issue 78), on serve --project. */
  codeBeside: CodeBesideOptions
  /** Many sessions of one reader following a restricted dataclass (issue 61). */
  views: ViewsOptions
  /** Vectors of the vectors suite (issue 49), one size at a time. */
  vectorSizes: number[]
  /** Those of its sizes where the approximate index is built and measured (minutes each). */
  vectorIndexSizes: number[]
  /** The changes suite (issue 50): sync sizes, subscribers, writes, idle subscribers. */
  changes: ChangesOptions
  /** The 4D language suite (issue 62): loop passes, collection sizes, employees, saves. */
  fourD: FourDOptions
}

interface WritesOptions {
  /** Rows of the store the single writes and batches are timed on. */
  rows: number
  /** Rows of the store of the atomic-batch goal. */
  batchRows: number
  /** Timed batches per implementation on that store. */
  batches: number
}

const HELP = `usage: npm run bench -- [options]
  --report           the public benchmark (issue 22): Entistore against LokiJS, mingo, TinyBase,
                     alasql, NeDB in process and json-server, Express, node:http over HTTP, at
                     10k, 100k, 1M rows (HTTP 10k, 100k); writes docs/benchmarks.md and its charts
                     (--sizes=…, --http-sizes=…, --out=DIR, --json=FILE)
  --smoke            the same on 1k rows in seconds, into node_modules/.cache/entistore-bench/smoke
  --quick            fewer sizes and repetitions, shorter HTTP rounds (${quickMinutes()})
${OWN_DATA_HELP}
  --suite=query,text,http,writes,aggregate,sets,fixture,adapters,pictures,journal,cluster,
          cluster-http,memory,scale,newcomer,contention,code-beside,vectors,changes,views,
          4d-language
                     suites to run (default all but scale, newcomer, contention, code-beside and
                     views, which only run when named; newcomer: the CLI's start and usage errors,
                     the install footprint; contention: a cheap GET beside heavy reads, ≈1½ min
                     at 1M; code-beside: a cheap GET beside a 4D project's heavy code on serve
                     --project, ≈½ min at 200k;
                     views: writes beside 99 sessions of one reader following a restricted
                     dataclass, ≈½ min at 100k)
                     4d-language: 4D code compiled by @entistore/4d against the same logic in
                     TypeScript (a loop, collection functions, text, ORDA), and the car-rental
                     classes parsed and compiled; for --only: ${FOUR_D_OPS.join(' ')}
  --only=eq,scan     suites or operations to run: query (eq get in range between range20 begin
                     scan top top-noindex load, and on the short rows short-eq short-get
                     short-range), text (or text-begin text-contains text-in10 text-in100
                     text-in10-one, and on names text-names-in10-one text-names-in190
                     text-accents-in10-one text-accents-in190), http, memory, writes (or
                     write-update write-update-indexed write-update-hash write-create
                     write-drop write-batch write-batch-indexed write-atomic write-http write-log)
  --sizes=10k,100k   query suite sizes (default 10k,100k,1m; below 100k only the lookups run)
  --reps=N           timed samples per case (default 9, 5 at 1M and in writes; quick: 3)
  --warmup=N         untimed calls before calibration (default 2; quick: 1)
  --no-peers         skip lokijs and mingo
  --peers-max=1m     largest size the peers run at (default 100k)
  --engine=compiled  which build of the core: compiled (default: src through tsc into
                     node_modules/.cache), source (src via tsx, keepNames overhead), dist
  --json=FILE        also write every sample of the in-process suites to FILE
  --text-rows=100k   rows of the text suite (default 100k)
  --aggregate-rows=1m  rows of the aggregate suite (default 1m; quick: 100k); its operations
                     for --only: agg-compute agg-distinct agg-distinct-indexed
  --sets-size=100k   members of each entity set of the sets suite (default 100k); its
                     operations for --only: sets-keep sets-and sets-or sets-except
  --fixture-rows=100k  Items of the fixture suite (default 100k): the test fixture's reset
                     against loading again; for --only: fixture-reset
  --journal-rows=200k  Items of the journal suite's start-up (default 200k; quick: 20k): a
                     persistence folder's snapshot and journal against the data file
  --shapes=main,short  shapes of data of the query and http suites (default both): main = each
                     suite's own (data.ts's people in query, the Items in http), short = issue
                     19's short rows (short-rows.ts: Person, seven attributes, five indexes)
  --http-rows=200k   rows of the servers under load (default 200k; quick: 20k)
  --startup-sizes=20k,200k   start-up and memory sizes (default 20k,200k; quick: 2k,20k)
  --startup-reps=N   start-ups per size and process (default 3; one when a start takes > 10 s)
  --startup-timeout=S  seconds to wait for the URL line (default 90)
  --http-seconds=S   seconds per timed load round (default 3; quick: 2)
  --http-rounds=N    timed rounds per server, alternating (default 2; quick: 1)
  --connections=N    keep-alive connections (default 16)
  --writes-rows=200k rows of the writes suite's in-process store (default 200k; quick: 20k)
  --batch-rows=1m    rows of the store of the atomic-batch goal (default 1m; quick: 100k)
  --batches=N        timed atomic batches per implementation there (default 500; quick: 200)
  --adapters-rows=20k  Item rows of the adapters suite's servers (default 20k); its load rounds
                     are 2 × 1.5 s (quick: 1 × 1 s) unless --http-seconds, --http-rounds say
  --lag-samples=N    writes timed between two processes in each pass of the cluster-http suite's
                     lag (default 200; quick: 50); its load rounds are 4 × 1.5 s after 1 s of
                     warm-up (quick: 1 × 1 s after 0.5 s) unless --http-seconds, --http-rounds say
  --fresh-seconds=S  its writes on a new connection for every request, per server (default 2;
                     quick: 1)
  --memory-rows=200k   Person rows of the memory breakdown (default 200k; quick: 20k)
  --snapshot-rows=50k  rows of its heap snapshot by kind (default 50k; quick: 20k)
  --scale-sizes=1m,4m,10m  short rows of the scale suite (issue 30: start-up, restart, RSS per
                     row, GETs during an index build, a --save, a snapshot), one size at a time
  --scale-long=1m    long rows (the Items' text) of the scale suite, or none (default 1m)
  --scale-timeout=S  seconds a start-up of the scale suite may take (default 1200)
  --scale-writes=N   updates of its snapshot measure (default 10000: the default snapshotEvery)
  --scale-data=DIR   where its data files are kept (default /work/scale-data when it exists,
                     else node_modules/.cache/entistore-bench/data)
  --scale-chart=FILE write the chart of its slowest GETs there (docs/bench-charts/scale-stalls.svg)
  --contention-rows=1m  Person rows of the contention suite (issue 47; default 1m, 10m accepted)
  --contention-seconds=S  seconds of each of its measures (default 6; the slow readers: 4)
  --contention-threads=0,auto  serve's --threads of each of its runs, side by side (default
                     0,auto: no worker thread, then one per CPU but one)
  --contention-reads=scan,top,sum,count  the heavy reads its clients loop over (default those
                     four; also sort: a sort of every row, chain and groups: relation chains)
  --code-beside-rows=200k  Person rows of the code-beside suite (issue 78; default 200k)
  --code-beside-seconds=S  seconds of each of its measures (default 6)
  --views-rows=100k  Employee rows of the views suite (issue 61; default 100k): one server per
                     size and restrict (indexed, unindexed: --views-restrict=indexed)
  --views-subscribers=99  sessions of one reader reading Employee and following its feed
  --views-readers=N  those sessions spread over N readers of the same department (default 1):
                     N views, one restrict answer each at every write
  --views-writes=N   single writes a round (default 30); --views-deletes=N deletes of 10 and of
                     25 rows a round (default 3); --views-rounds=N rounds of each (default 3)
  --views-tree=DIR   the checkout whose built CLI the views suite serves (default this one):
                     a before/after of the same measures
  --views-cpu-prof=DIR  the views suite's servers write a CPU profile there, with each round's
                     span beside it (<profile>.windows.json)
  --vector-sizes=100k,1m  vectors of 256 dimensions of the vectors suite (issue 49; default
                     100k,1m, quick 100k): cosine filter and top 10 in process, against a plain
                     loop over Float32Arrays, over HTTP against raw node:http; memory a vector;
                     for --only: vec-filter vec-top vec-ann
  --vector-index-sizes=100k  of those sizes, where the approximate top 10 is measured (default
                     100k; 1m or none accepted): HNSW built in the datastore and by hnswlib-node
                     directly (≈2 min CPU a 100k each), recall@10, build time, memory a vector
  --change-sizes=1m  rows of the changes suite's sync (issue 50; default 1m, quick 100k): a
                     tracked dataclass, 1,000 changes, a sync from a recent stamp and from 0 in
                     process and over REST against a plain loop; the live feed runs on the last
  --change-subscribers=1,100,1000  subscriber counts of its live feed latency
  --change-writes=N  writes timed at each subscriber count (default 200; quick 50)
  --idle-subscribers=N  idle subscribers of its memory measure (default 1000)
  --4d-loop=5m       passes of the 4d-language suite's loop (default 5m; quick 1m)
  --4d-elements=100k elements of its collections, appends of its text, rows of its computed read (default 100k)
  --4d-employees=20k employees of its ORDA groups, half matching the query (default 20k)
  --build=auto       before the HTTP suite: auto (npm run build if dist is older than src),
                     always, never`

/** `value` if it is one of `choices`; otherwise the usage error, and exit 2. */
function choice<T extends string>(option: string, value: string, choices: readonly T[]): T {
  if ((choices as readonly string[]).includes(value)) return value as T
  console.error(`${option}: one of ${choices.join(', ')}, not ${value}`)
  process.exit(2)
}

function parseArgs(argv: string[]): Options {
  let suites: Suite[] | undefined
  let aggregateRows: number | undefined
  const o: Options = {
    // The scale suite runs only when named: at 10M rows it takes many minutes and gigabytes; the
    // newcomer suite too: it packs and installs from the npm registry.
    // The contention suite too: ≈1½ min at its 1M rows, a large server each time; and the views
    // suite: two servers with a hundred open streams, its figures for issue 61's question alone.
    suites: SUITES.filter(
      (x) =>
        x !== 'scale' &&
        x !== 'newcomer' &&
        x !== 'contention' &&
        x !== 'code-beside' &&
        x !== 'views',
    ),
    sizes: [10_000, 100_000, 1_000_000],
    peers: true,
    peersMax: 100_000,
    quick: false,
    engine: 'compiled',
    textRows: 100_000,
    aggregateRows: 1_000_000,
    setsSize: 100_000,
    fixtureRows: 100_000,
    journalRows: 0,
    http: {
      rows: 200_000,
      startupSizes: [20_000, 200_000],
      startupReps: 3,
      startupTimeoutMs: 90_000,
      load: { connections: 16, seconds: 3, rounds: 2, warmupSeconds: 1, pathsPerConnection: 4096 },
      shapes: [...SHAPES],
    },
    writes: { rows: 200_000, batchRows: 1_000_000, batches: 500 },
    adapters: {
      rows: 20_000,
      startupTimeoutMs: 90_000,
      load: {
        connections: 16,
        seconds: 1.5,
        rounds: 2,
        warmupSeconds: 0.5,
        pathsPerConnection: 2048,
      },
    },
    clusterHttp: {
      // Shorter rounds, more of them: the servers take turns more often, so that a burst of the
      // shared machine's other work weighs on every row alike.
      load: {
        connections: 16,
        seconds: 1.5,
        rounds: 4,
        warmupSeconds: 1,
        pathsPerConnection: 2048,
      },
      writeWarmupSeconds: 4,
      freshSeconds: 2,
      lagSamples: 200,
      startupTimeoutMs: 90_000,
    },
    build: 'auto',
    shapes: [...SHAPES],
    memoryRows: 200_000,
    snapshotRows: 50_000,
    scale: {
      shortSizes: [1_000_000, 4_000_000, 10_000_000],
      longSizes: [1_000_000],
      startupTimeoutMs: 1_200_000,
      idleSeconds: 3,
      writes: 10_000,
      dataDir: SCALE_DATA,
    },
    contention: {
      rows: 1_000_000,
      seconds: 6,
      slowSeconds: 4,
      dataDir: SCALE_DATA,
      startupTimeoutMs: 1_200_000,
    },
    codeBeside: {
      rows: 200_000,
      seconds: 6,
      dataDir: SCALE_DATA,
      startupTimeoutMs: 600_000,
    },
    views: {
      rows: [100_000],
      on: ['indexed', 'unindexed'],
      subscribers: 99,
      readers: 1,
      writes: 30,
      deletes: 3,
      deleteSizes: [10, 25],
      rounds: 3,
      tree: THIS_TREE,
      startupTimeoutMs: 120_000,
    },
    vectorSizes: [],
    vectorIndexSizes: [100_000],
    changes: {
      sizes: [],
      changes: 1000,
      syncReps: 100,
      fullReps: 3,
      subscribers: [1, 100, 1000],
      writes: 0,
      idle: 1000,
      // The feed over HTTP: both servers on the data cache's file of 10k Items (the feed's cost
      // does not grow with the rows; the sync's is measured at its own sizes).
      http: { rows: 10_000, dir: CACHE_DIR, startupTimeoutMs: 90_000 },
      // And across three workers, where PostgreSQL and Redis are installed (as cluster-http).
      cluster: true,
    },
    fourD: FOUR_D_DEFAULTS,
  }
  let fourDLoop: number | undefined
  let changeSizes: number[] | undefined
  let changeWrites: number | undefined
  let vectorSizes: number[] | undefined
  let memoryRows: number | undefined
  let snapshotRows: number | undefined
  let lagSamples: number | undefined
  let freshSeconds: number | undefined
  // Set from the options below, applied at the end so that their order does not matter.
  const http: { -readonly [K in keyof HttpOptions]?: HttpOptions[K] } = {}
  const writes: Partial<WritesOptions> = {}
  const load: { -readonly [K in keyof HttpOptions['load']]?: HttpOptions['load'][K] } = {}
  const num = (name: string, value: string): number => {
    const x = Number(value)
    if (!Number.isFinite(x) || x <= 0) {
      console.error(`${name}: a positive number, not ${value}`)
      process.exit(2)
    }
    return x
  }
  for (const arg of argv) {
    const [name, value = ''] = arg.split('=', 2) as [string, string?]
    switch (name) {
      case '--quick':
        o.quick = true
        o.sizes = [100_000]
        break
      case '--suite':
        suites = value.split(',').map((x) => {
          if ((SUITES as readonly string[]).includes(x)) return x as Suite
          console.error(`--suite: one or more of ${SUITES.join(', ')}, not ${x}`)
          process.exit(2)
        })
        break
      case '--sizes':
        o.sizes = value.split(',').map(parseSize)
        break
      case '--reps':
        o.reps = Number(value)
        break
      case '--warmup':
        o.warmup = Number(value)
        break
      case '--only':
        o.only = value.split(',')
        break
      case '--no-peers':
        o.peers = false
        break
      case '--peers-max':
        o.peersMax = parseSize(value)
        break
      case '--engine':
        o.engine = choice(name, value, ENGINE_CHOICES)
        break
      case '--build':
        o.build = choice(name, value, BUILD_CHOICES)
        break
      case '--json':
        o.json = value
        break
      case '--text-rows':
        o.textRows = parseSize(value)
        break
      case '--aggregate-rows':
        aggregateRows = parseSize(value)
        break
      case '--sets-size':
        o.setsSize = parseSize(value)
        break
      case '--fixture-rows':
        o.fixtureRows = parseSize(value)
        break
      case '--journal-rows':
        o.journalRows = parseSize(value)
        break
      case '--http-rows':
        http.rows = parseSize(value)
        break
      case '--startup-sizes':
        http.startupSizes = value.split(',').map(parseSize)
        break
      case '--startup-reps':
        http.startupReps = num(name, value)
        break
      case '--startup-timeout':
        http.startupTimeoutMs = num(name, value) * 1000
        break
      case '--http-seconds':
        load.seconds = num(name, value)
        break
      case '--http-rounds':
        load.rounds = num(name, value)
        break
      case '--connections':
        load.connections = num(name, value)
        break
      case '--writes-rows':
        writes.rows = parseSize(value)
        break
      case '--batch-rows':
        writes.batchRows = parseSize(value)
        break
      case '--batches':
        writes.batches = num(name, value)
        break
      case '--shapes':
        o.shapes = value.split(',').map((x) => choice(name, x, SHAPES))
        break
      case '--scale-sizes':
        o.scale = { ...o.scale, shortSizes: value.split(',').filter(Boolean).map(parseSize) }
        break
      case '--scale-long':
        o.scale = {
          ...o.scale,
          longSizes: value === 'none' ? [] : value.split(',').filter(Boolean).map(parseSize),
        }
        break
      case '--scale-timeout':
        o.scale = { ...o.scale, startupTimeoutMs: num(name, value) * 1000 }
        break
      case '--scale-writes':
        o.scale = { ...o.scale, writes: num(name, value) }
        break
      case '--scale-data':
        o.scale = { ...o.scale, dataDir: value }
        break
      case '--scale-chart':
        o.scale = { ...o.scale, chart: value }
        break
      case '--vector-sizes':
        vectorSizes = value.split(',').map(parseSize)
        break
      case '--vector-index-sizes':
        o.vectorIndexSizes = value === 'none' ? [] : value.split(',').map(parseSize)
        break
      case '--change-sizes':
        changeSizes = value.split(',').map(parseSize)
        break
      case '--change-subscribers':
        o.changes = { ...o.changes, subscribers: value.split(',').map(parseSize) }
        break
      case '--change-writes':
        changeWrites = num(name, value)
        break
      case '--idle-subscribers':
        o.changes = { ...o.changes, idle: num(name, value) }
        break
      case '--contention-rows':
        o.contention = { ...o.contention, rows: parseSize(value) }
        break
      case '--contention-reads':
        o.contention = { ...o.contention, reads: value.split(',') }
        break
      case '--contention-threads':
        o.contention = {
          ...o.contention,
          threads: value
            .split(',')
            .map((t) => (t === 'auto' ? 'auto' : t === '0' ? 0 : num(name, t))),
        }
        break
      case '--code-beside-rows':
        o.codeBeside = { ...o.codeBeside, rows: parseSize(value) }
        break
      case '--code-beside-seconds':
        o.codeBeside = { ...o.codeBeside, seconds: num(name, value) }
        break
      case '--contention-seconds':
        o.contention = {
          ...o.contention,
          seconds: num(name, value),
          slowSeconds: Math.min(o.contention.slowSeconds, num(name, value)),
        }
        break
      case '--4d-loop':
        fourDLoop = parseSize(value)
        break
      case '--4d-elements':
        o.fourD = { ...o.fourD, elements: parseSize(value) }
        break
      case '--4d-employees':
        o.fourD = { ...o.fourD, employees: parseSize(value) }
        break
      case '--views-rows':
        o.views = { ...o.views, rows: value.split(',').map(parseSize) }
        break
      case '--views-restrict':
        o.views = { ...o.views, on: value.split(',').map((x) => choice(name, x, RESTRICT_ON)) }
        break
      case '--views-subscribers':
        o.views = { ...o.views, subscribers: num(name, value) }
        break
      case '--views-readers':
        o.views = { ...o.views, readers: num(name, value) }
        break
      case '--views-writes':
        o.views = { ...o.views, writes: num(name, value) }
        break
      case '--views-deletes':
        o.views = { ...o.views, deletes: num(name, value) }
        break
      case '--views-rounds':
        o.views = { ...o.views, rounds: num(name, value) }
        break
      case '--views-tree':
        o.views = { ...o.views, tree: resolve(value) }
        break
      case '--views-cpu-prof':
        o.views = { ...o.views, cpuProfDir: resolve(value) }
        break
      case '--memory-rows':
        memoryRows = parseSize(value)
        break
      case '--snapshot-rows':
        snapshotRows = parseSize(value)
        break
      case '--adapters-rows':
        o.adapters = { ...o.adapters, rows: parseSize(value) }
        break
      case '--lag-samples':
        lagSamples = num(name, value)
        break
      case '--fresh-seconds':
        freshSeconds = num(name, value)
        break
      case '--help':
      case '-h':
        console.log(HELP)
        process.exit(0)
        break
      default:
        console.error(`unknown option ${arg}\n${HELP}`)
        process.exit(2)
    }
  }
  if (o.quick)
    o.http = {
      ...o.http,
      rows: 20_000,
      startupSizes: [2_000, 20_000],
      startupReps: 1,
      load: { ...o.http.load, seconds: 2, rounds: 1, warmupSeconds: 0.5 },
    }
  if (o.quick) o.writes = { rows: 20_000, batchRows: 100_000, batches: 200 }
  o.http = { ...o.http, ...http, load: { ...o.http.load, ...load }, shapes: o.shapes }
  o.memoryRows = memoryRows ?? (o.quick ? 20_000 : 200_000)
  if (o.journalRows === 0) o.journalRows = o.quick ? 20_000 : 200_000
  o.snapshotRows = Math.min(o.memoryRows, snapshotRows ?? (o.quick ? 20_000 : 50_000))
  o.writes = { ...o.writes, ...writes }
  // The adapters suite has shorter rounds of its own (six servers, three requests), but takes the
  // load options given.
  o.adapters = {
    ...o.adapters,
    startupTimeoutMs: o.http.startupTimeoutMs,
    load: {
      ...o.adapters.load,
      ...(o.quick ? { seconds: 1, rounds: 1 } : {}),
      ...load,
    },
  }
  // The cluster-http suite too: its own rounds, the load options given.
  o.clusterHttp = {
    load: {
      ...o.clusterHttp.load,
      ...(o.quick ? { seconds: 1, rounds: 1, warmupSeconds: 0.5 } : {}),
      ...load,
    },
    writeWarmupSeconds: o.quick ? 1 : o.clusterHttp.writeWarmupSeconds,
    freshSeconds: freshSeconds ?? (o.quick ? 1 : o.clusterHttp.freshSeconds),
    lagSamples: lagSamples ?? (o.quick ? 50 : o.clusterHttp.lagSamples),
    startupTimeoutMs: o.http.startupTimeoutMs,
  }
  // --only names suites, or operations of a suite (which select that suite).
  if (o.only) {
    const only = o.only
    const known = [...SUITES, ...QUERY_OPS, ...WRITE_OPS]
    for (const x of only)
      if (
        !known.includes(x) &&
        !x.startsWith('text-') &&
        !AGGREGATE_OPS.includes(x) &&
        !SETS_OPS.includes(x) &&
        !FIXTURE_OPS.includes(x) &&
        !VECTOR_ONLY.includes(x) &&
        !FOUR_D_OPS.includes(x)
      ) {
        console.error(`--only: unknown suite or operation ${x}\n${HELP}`)
        process.exit(2)
      }
    o.suites = SUITES.filter(
      (s) =>
        only.includes(s) ||
        (s === 'query' && only.some((x) => QUERY_OPS.includes(x))) ||
        (s === 'aggregate' && only.some((x) => AGGREGATE_OPS.includes(x))) ||
        (s === 'sets' && only.some((x) => SETS_OPS.includes(x))) ||
        (s === 'fixture' && only.some((x) => FIXTURE_OPS.includes(x))) ||
        (s === 'text' && only.some((x) => x.startsWith('text-'))) ||
        (s === 'vectors' && only.some((x) => VECTOR_ONLY.includes(x))) ||
        (s === '4d-language' && only.some((x) => FOUR_D_OPS.includes(x))) ||
        (s === 'writes' && only.some((x) => WRITE_OPS.includes(x))),
    )
  }
  o.aggregateRows = aggregateRows ?? (o.quick ? 100_000 : 1_000_000)
  o.fourD = { ...o.fourD, loop: fourDLoop ?? (o.quick ? 1_000_000 : o.fourD.loop) }
  o.vectorSizes = vectorSizes ?? (o.quick ? [100_000] : [100_000, 1_000_000])
  o.changes = {
    ...o.changes,
    sizes: changeSizes ?? (o.quick ? [100_000] : [1_000_000]),
    writes: changeWrites ?? (o.quick ? 50 : 200),
    ...(o.quick ? { syncReps: 30 } : {}),
  }
  if (suites) o.suites = suites
  return o
}

// One's own model and data (issue 52) has options of its own: see own-data.ts.
if (process.argv.some((a) => a === '--model' || a.startsWith('--model='))) {
  const { runOwnData } = await import('./own-data.ts')
  await runOwnData(process.argv.slice(2))
  process.exit(0)
}
// The public benchmark against the peers (issue 22) has options of its own: see public.ts.
if (process.argv.some((a) => a === '--report' || a === '--smoke')) {
  const { runPublic } = await import('./public.ts')
  await runPublic(process.argv.slice(2))
  process.exit(0)
}
const opts = parseArgs(process.argv.slice(2))
/** A text-scan case whose first call takes longer is timed by that call alone (see timing.ts). */
const SLOW_CALL_MS = 2000
const runs = (suite: Suite): boolean => opts.suites.includes(suite)
// An operation runs unless --only names other operations of its suite (`--only=http,text` runs
// every text scan; `--only=scan,top` two query operations, and no load repeated).
const wanted = (id: string): boolean => {
  if (!opts.only) return true
  const suite = id.startsWith('text-')
    ? 'text'
    : WRITE_OPS.includes(id)
      ? 'writes'
      : VECTOR_ONLY.includes(id)
        ? 'vectors'
        : FOUR_D_OPS.includes(id)
          ? '4d-language'
          : 'query'
  const named = opts.only.filter((x) =>
    suite === 'text'
      ? x.startsWith('text-')
      : suite === 'writes'
        ? WRITE_OPS.includes(x)
        : suite === 'vectors'
          ? VECTOR_ONLY.includes(x)
          : suite === '4d-language'
            ? FOUR_D_OPS.includes(x)
            : QUERY_OPS.includes(x),
  )
  return opts.only.includes(suite) || named.length === 0 || named.includes(id)
}

// ---------------------------------------------------------------- header

const started = Date.now()
// The HTTP suite runs the CLI from dist/: no in-process engine to compile for it alone.
const engine =
  runs('query') ||
  runs('text') ||
  runs('aggregate') ||
  runs('writes') ||
  runs('sets') ||
  runs('fixture') ||
  runs('vectors') ||
  runs('changes')
    ? await loadEngine(opts.engine)
    : undefined
const cpu = cpus()
console.log(`# Entistore benchmarks — ${new Date().toISOString()}`)
console.log(
  `node ${process.version} · ${platform()} ${release()} ${arch()} · ${cpu[0]?.model ?? '?'} · ` +
    `${cpu.length} cores · ${(totalmem() / 2 ** 30).toFixed(0)} GB RAM`,
)
const suiteText: Record<Suite, string> = {
  query:
    `query (sizes ${opts.sizes.map(sizeLabel).join(', ')}; shapes ${opts.shapes.join(', ')}; ` +
    `peers ${opts.peers ? `up to ${sizeLabel(opts.peersMax)}` : 'off'})`,
  text: `text (${sizeLabel(opts.textRows)} rows)`,
  aggregate: `aggregate (${sizeLabel(opts.aggregateRows)} rows)`,
  sets: `sets (${sizeLabel(opts.setsSize)} members a set)`,
  fixture: `fixture (${sizeLabel(opts.fixtureRows)} rows)`,
  http:
    `http (shapes ${opts.shapes.join(', ')}; ${sizeLabel(opts.http.rows)} rows under load; ` +
    `start-up at ${opts.http.startupSizes.map(sizeLabel).join(', ')})`,
  writes:
    `writes (${sizeLabel(opts.writes.rows)} rows; atomic batches at ` +
    `${sizeLabel(opts.writes.batchRows)}; HTTP at ${sizeLabel(opts.http.rows)})`,
  adapters: `adapters (${sizeLabel(opts.adapters.rows)} rows)`,
  pictures: 'pictures (a page of 48 thumbnails and a photo, converted by $imageformat)',
  journal: `journal (writes with and without it; start-up at ${sizeLabel(opts.journalRows)} Items)`,
  cluster: 'cluster (writes through a throwaway PostgreSQL; replication lag)',
  'cluster-http':
    'cluster-http (16 clients over HTTP: in memory, journal, PostgreSQL, 2 and 3 workers, PostgreSQL alone; reads, through a follower too; lag)',
  memory: `memory (heap per row of the short rows, ${sizeLabel(opts.memoryRows)})`,
  scale:
    `scale (short rows ${opts.scale.shortSizes.map(sizeLabel).join(', ') || 'none'}; long rows ` +
    `${opts.scale.longSizes.map(sizeLabel).join(', ') || 'none'})`,
  newcomer: `newcomer (the command's start, usage errors; the footprint${opts.quick ? '' : ', with a clone'})`,
  contention: `contention (${sizeLabel(opts.contention.rows)} short rows; ${opts.contention.seconds} s a measure)`,
  'code-beside': `code-beside (${sizeLabel(opts.codeBeside.rows)} short rows; ${opts.codeBeside.seconds} s a measure)`,
  views:
    `views (${opts.views.rows.map(sizeLabel).join(', ')} rows, restrict ${opts.views.on.join(' and ')}; ` +
    `${opts.views.subscribers} subscribers of ${opts.views.readers} reader${opts.views.readers === 1 ? '' : 's'})`,
  '4d-language':
    `4d-language (a loop of ${sizeLabel(opts.fourD.loop)}, collections of ${sizeLabel(opts.fourD.elements)}, ` +
    `ORDA on ${sizeLabel(opts.fourD.employees)} employees, a restrict on ${sizeLabel(opts.fourD.restrictRows)} rows, the car-rental classes compiled)`,
  vectors: `vectors (${opts.vectorSizes.map(sizeLabel).join(', ')} × 256 dimensions)`,
  changes:
    `changes (sync at ${opts.changes.sizes.map(sizeLabel).join(', ')} rows; live feed at ` +
    `${opts.changes.subscribers.join(', ')} subscribers)`,
}
console.log(
  `suites: ${opts.suites.map((x) => suiteText[x]).join(', ')}${opts.quick ? ' · quick' : ''}` +
    ' · in-process times are medians of interleaved samples; ratio = median / baseline median',
)
if (engine) console.log(`engine: ${engine.label}`)

// ---------------------------------------------------------------- loads

interface LoadResult {
  readonly case: LoadCase
  readonly samples: number[]
  readonly median: number
  readonly heldMb: number
  store: object | undefined
}

/** Each load case in turn: warm-up, `reps` timed builds from fresh data, heap held by the last one. */
function runLoads(n: number, cases: readonly LoadCase[], warmup: number, reps: number) {
  const out: LoadResult[] = []
  for (const c of cases) {
    let store: object | undefined
    const h0 = heapMb()
    const samples: number[] = []
    for (let i = 0; i < warmup + reps; i++) {
      store = undefined
      let input: Person[] | undefined = makeData(n)
      fullGc()
      const t = timeOnce(() => c.build(input!))
      input = undefined
      store = t.value
      if (i >= warmup) samples.push(t.ms)
    }
    const heldMb = heapMb() - h0
    out.push({ case: c, samples, median: median(samples), heldMb, store })
  }
  return out
}

function printLoads(n: number, rawMb: number, results: readonly LoadResult[]): void {
  const base = results.find((r) => r.case.kind === 'baseline')!
  console.log(`\n### bulk load ${sizeLabel(n)} rows, and JS heap held after load`)
  const rows = results.map((r) => [
    r.case.impl,
    ms(r.median),
    ratio(r.median / base.median),
    mb(r.heldMb),
    ratio(r.heldMb / base.heldMb),
    r.samples.length.toString(),
    r.case.note ?? '',
  ])
  console.log(
    table(
      ['implementation', 'median ms', '× plain', 'heap held MB', '× plain', 'n', 'what it builds'],
      rows,
      ['l', 'r', 'r', 'r', 'r', 'r', 'l'],
    ),
  )
  console.log(
    `raw input rows alone: ${mb(rawMb)} MB. Heap held = heap after the last build (fresh input ` +
      `copy, input reference dropped, full GC) minus before: rows the store keeps count in.`,
  )
}

// ---------------------------------------------------------------- groups

interface GroupResult {
  readonly size: number
  readonly group: Group | VectorGroup
  readonly timed: Timed<AnyCase>[]
}

const allResults: GroupResult[] = []
const plansShown = new Set<string>()

function printGroup(
  n: number,
  g: Group | WriteGroup | VectorGroup,
  timed: readonly Timed<AnyCase>[],
): void {
  // A write group shows throughput too: calls × writes per call per second.
  const rate = 'rate' in g && g.rate
  const base = timed.find((t) => t.case.kind === 'baseline')!
  console.log(`\n### ${g.title} — ${sizeLabel(n)} rows`)
  const rows = timed.map((t) => {
    const c = t.case
    if (t.error !== undefined)
      return [
        c.impl,
        'ERROR',
        '',
        '',
        ...(rate ? [''] : []),
        '',
        g.target && c.targeted ? 'MISS (error)' : '',
        t.error,
      ]
    const r = t.median / base.median
    const expected = c.expectCheck ?? base.check
    const verdict = g.target && c.targeted ? (r <= g.target.max ? 'PASS' : 'MISS') : ''
    const note = [
      c.note,
      t.slow ? `one cold call (over ${SLOW_CALL_MS / 1000} s): not repeated` : '',
    ]
    return [
      c.impl,
      count(t.check) + (t.check === expected ? '' : ' ≠'),
      ms(t.median),
      c.opsPerCall && c.opsPerCall > 1 ? perOp(t.median / c.opsPerCall) : '',
      ...(rate ? [count(Math.round(((c.opsPerCall ?? 1) * 1000) / t.median))] : []),
      ratio(r),
      verdict ? `${verdict} ${g.target!.label}` : '',
      note.filter(Boolean).join('; '),
    ]
  })
  const headers = ['implementation', 'check', 'ms/call', 'per op', '× baseline', 'goal', 'note']
  const align: Align[] = ['l', 'r', 'r', 'r', 'r', 'l', 'l']
  if (rate) {
    headers.splice(4, 0, 'ops/s')
    align.splice(4, 0, 'r')
  }
  console.log(table(headers, rows, align))
  for (const note of g.notes) console.log(`- ${note}`)
  if (g.plan && !plansShown.has(g.id)) {
    let plan: string
    try {
      plan = g.plan().trim()
      plansShown.add(g.id)
    } catch (e) {
      plan = `(explain failed: ${e instanceof Error ? e.message : String(e)})`
    }
    console.log('- engine plan:\n' + indent(plan))
  }
}

// ---------------------------------------------------------------- run

/**
 * A suite that throws (the engine or the CLI broken mid-edit, a child that would not start) is
 * reported and the run goes on: the other suites' numbers are still worth having.
 */
/** Seconds each suite took, for the closing line. */
const suiteSeconds: string[] = []
let suiteStart = Date.now()
function suiteDone(suite: Suite): void {
  suiteSeconds.push(`${suite} ${((Date.now() - suiteStart) / 1000).toFixed(0)} s`)
  suiteStart = Date.now()
}

/** Runs one suite if it was asked for: a failure is reported and the run goes on to the next. */
async function runSuite(suite: Suite, body: () => Promise<void> | void): Promise<void> {
  if (!runs(suite)) return
  try {
    await body()
  } catch (e) {
    suiteFailed(suite, e)
  }
  suiteDone(suite)
}

function suiteFailed(suite: Suite, e: unknown): void {
  const msg = e instanceof Error ? (e.stack ?? e.message) : String(e)
  console.log(
    `\n**${suite} suite FAILED**, the run goes on:\n${indent(msg.split('\n').slice(0, 6).join('\n'))}`,
  )
}

// The query suite's shapes: data.ts's people (`main`) unless only short-row operations are
// named, and issue 19's short rows (`short`) unless only operations of the other are.
const queryMain =
  opts.shapes.includes('main') && QUERY_OPS.some((x) => !SHORT_OPS.includes(x) && wanted(x))
const queryShort = opts.shapes.includes('short') && SHORT_OPS.some(wanted)
try {
  for (const n of runs('query') ? opts.sizes : []) {
    const lookupsOnly = n < 100_000
    const peers = opts.peers && n <= opts.peersMax
    const big = n >= 1_000_000
    const timing = suiteTiming(opts.quick ? 1 : 2, { quick: 3, full: big ? 5 : 9 })
    if (queryMain) queryMainShape(n, lookupsOnly, peers, big, timing)
    if (queryShort) {
      const fx = shortGroups(engine!.core, n)
      console.log(
        `\n## ${sizeLabel(n)} short rows (Person, five indexes; loaded in ` +
          `${ms(fx.loadMs)} ms)`,
      )
      timeGroups(
        n,
        fx.groups.filter((g) => wanted(g.id) && (!lookupsOnly || g.lookupOnly)),
        timing,
      )
    }
  }
} catch (e) {
  suiteFailed('query', e)
}
if (runs('query')) suiteDone('query')

/** The query suite at `n` rows on data.ts's people: loads, then the operations asked for. */
function queryMainShape(
  n: number,
  lookupsOnly: boolean,
  peers: boolean,
  big: boolean,
  timing: Parameters<typeof timeCases>[1],
): void {
  console.log(
    `\n## ${sizeLabel(n)} rows${lookupsOnly ? ' (lookups only)' : ''}${peers ? '' : ' (no peers)'}`,
  )

  // Heap of the input rows alone (kept alive across the measurement, then dropped).
  const h0 = heapMb()
  let raw: Person[] | undefined = makeData(n)
  const rawMb = heapMb() - h0 + (raw.length - n)
  raw = undefined

  const cases: LoadCase[] = loadCases(engine!.core).filter(
    (c) => c.kind !== 'plain' || wanted('load'),
  )
  if (peers)
    cases.push({
      kind: 'peer',
      impl: 'lokijs insert + ensureAllIndexes',
      build: (input) => buildLoki(input),
    })
  const loads = runLoads(
    n,
    cases,
    wanted('load') ? (big ? 0 : 1) : 0,
    wanted('load') ? (big ? 2 : opts.quick ? 3 : 5) : 1,
  )
  if (wanted('load')) printLoads(n, rawMb, loads)

  const plain = loads.find((l) => l.case.kind === 'baseline')!.store as PlainStore
  const ds = loads.find((l) => l.case.kind === 'entistore')!.store as Datastore
  const loki = loads.find((l) => l.case.kind === 'peer')?.store as LokiPeople | undefined
  for (const l of loads) l.store = undefined

  const params = makeParams(n)
  const groups = queryGroups({ core: engine!.core, n, plain, ds, params }).filter(
    (g) => wanted(g.id) && (!lookupsOnly || g.lookupOnly),
  )
  if (loki) addPeerCases(groups, params, loki, plain.rows)
  timeGroups(n, groups, timing)
}

/**
 * Timing settings of an in-process suite: its own warm-up and repetitions (quick and full), unless
 * --warmup / --reps say otherwise; samples of at least 40 ms (10 ms with --quick).
 */
function suiteTiming(
  warmup: number,
  reps: { readonly quick: number; readonly full: number },
): Parameters<typeof timeCases>[1] {
  return {
    warmup: opts.warmup ?? warmup,
    reps: opts.reps ?? (opts.quick ? reps.quick : reps.full),
    minSampleMs: opts.quick ? 10 : 40,
  }
}

/** Times each group's cases, keeps and prints the results, then collects the garbage they left. */
function timeGroups(
  n: number,
  groups: readonly (Group | WriteGroup)[],
  timing: Parameters<typeof timeCases>[1],
): void {
  for (const g of groups) {
    const timed = timeCases(g.cases, timing)
    allResults.push({ size: n, group: g, timed })
    printGroup(n, g, timed)
  }
  fullGc()
}

// ---------------------------------------------------------------- text scans

await runSuite('text', async () => {
  const n = opts.textRows
  const text = textGroups(engine!.core, n, wanted)
  console.log(
    `\n## Folded text scans — ${sizeLabel(n)} rows ` +
      `(loaded: ${text.loaded}; a call over ${SLOW_CALL_MS / 1000} s is timed once, cold)`,
  )
  const timing = { ...suiteTiming(1, { quick: 3, full: 5 }), slowCallMs: SLOW_CALL_MS }
  timeGroups(n, text.groups, timing)
})

// ---------------------------------------------------------------- aggregates

await runSuite('aggregate', async () => {
  const n = opts.aggregateRows
  // --only=agg-compute…: those groups; otherwise all of them.
  const only = opts.only?.filter((x) => AGGREGATE_OPS.includes(x)) ?? []
  const fx = await aggregateGroups(engine!.core, n, { rest: true })
  console.log(
    `\n## Aggregates — ${sizeLabel(n)} rows (loaded in ${ms(fx.loadMs)} ms; the REST rows ` +
      'call respond in process, on a datastore of the sources @entistore/rest imports)',
  )
  timeGroups(
    n,
    fx.groups.filter((g) => only.length === 0 || only.includes(g.id)),
    suiteTiming(2, { quick: 3, full: 7 }),
  )
})

// ---------------------------------------------------------------- entity sets

await runSuite('sets', async () => {
  const n = opts.setsSize
  // --only=sets-and…: those groups; otherwise all of them.
  const only = opts.only?.filter((x) => SETS_OPS.includes(x)) ?? []
  const fx = setsGroups(engine!.core, n)
  console.log(
    `\n## Entity sets — ${sizeLabel(n)} members a set, over ${sizeLabel(2 * n)} rows ` +
      `(loaded in ${ms(fx.loadMs)} ms)`,
  )
  timeGroups(
    // The size shown is the dataclass's rows, as in the other suites.
    2 * n,
    fx.groups.filter((g) => only.length === 0 || only.includes(g.id)),
    suiteTiming(2, { quick: 3, full: 9 }),
  )
})

// ---------------------------------------------------------------- the test fixture's reset

await runSuite('fixture', async () => {
  const n = opts.fixtureRows
  const fx = fixtureGroups(engine!.core, n)
  console.log(
    `\n## Test fixture reset — ${sizeLabel(n)} Items and 200 Groups (loaded in ` +
      `${ms(fx.loadMs)} ms; the snapshot reset restores took ${ms(fx.snapshotMs)} ms, once)`,
  )
  timeGroups(n, fx.groups, suiteTiming(1, { quick: 3, full: 7 }))
})

// ---------------------------------------------------------------- HTTP

const httpGoals: GoalRow[] = []
const issue19: MeasureRow[] = []
await runSuite('http', async () => {
  console.log('\n## HTTP: entistore serve against raw node:http')
  console.log(ensurePackagesBuilt(opts.build))
  const r = await runHttpSuite(opts.http)
  httpGoals.push(...r.goals)
  issue19.push(...r.issue19)
})

// ---------------------------------------------------------------- memory breakdown

await runSuite('memory', async () => {
  console.log(
    `\n## Memory: where the bytes of a short row go (a child process, ${sizeLabel(opts.memoryRows)} rows)`,
  )
  // Its own process, so that the heap it reads holds nothing of this run's other suites.
  const script = fileURLToPath(new URL('./memory.ts', import.meta.url))
  const args = ['--expose-gc', '--import', 'tsx', '--conditions=source', script]
  args.push(`--rows=${opts.memoryRows}`, `--snapshot-rows=${opts.snapshotRows}`)
  args.push(`--engine=${opts.engine}`)
  const child = spawnSync(process.execPath, args, {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  if (child.status !== 0)
    throw new Error(`bench/memory.ts exited with ${child.signal ?? `code ${child.status}`}`)
})

// ---------------------------------------------------------------- vectors

const vectorGoals: GoalRow[] = []
await runSuite('vectors', async () => {
  for (const n of opts.vectorSizes) {
    const big = n >= 1_000_000
    const indexed = opts.vectorIndexSizes.includes(n) && wanted(VECTOR_INDEX_OP)
    console.log(
      `\n## Vectors — ${sizeLabel(n)} × 256 dimensions (exact scans${
        indexed ? ', then the ' + 'approximate top 10 once its HNSW indexes are built' : ''
      }; HTTP: both servers in ` + 'this process, one request at a time)',
    )
    const fx = await vectorFixture(engine!.core, n, wanted)
    try {
      const timing = suiteTiming(big ? 1 : 2, { quick: 3, full: big ? 5 : 9 })
      const results = await timeVectorGroups(fx, timing, ({ group, timed }) => {
        allResults.push({ size: n, group, timed })
        printGroup(n, group, timed)
      })
      const index = indexed ? await vectorIndexMeasure(fx, timing) : undefined
      const report = vectorReport(fx, results, index)
      console.log(report.text)
      vectorGoals.push(...report.goals)
    } finally {
      fx.close()
    }
    fullGc()
  }
})

// ---------------------------------------------------------------- change tracking, live feed

const changesGoals: GoalRow[] = []
await runSuite('changes', async () => {
  console.log(
    '\n## Change tracking and the live feed: a sync from a stamp, in process and over REST; ' +
      "the feed's latency and idle subscribers",
  )
  // The feed over HTTP runs the CLI from dist/.
  console.log(ensurePackagesBuilt(opts.build))
  const report = changesReport(await runChangesSuite(engine!.core, opts.changes))
  console.log(report.text)
  changesGoals.push(...report.goals)
  fullGc()
})

// ---------------------------------------------------------------- writes

const writesGoals: GoalRow[] = []
await runSuite('writes', async () => {
  const w = opts.writes
  const inProcess = WRITE_OPS.filter(
    (x) => x !== 'write-atomic' && x !== 'write-http' && x !== 'write-log',
  )
  const fx = inProcess.some(wanted) ? writeGroups(engine!.core, w.rows) : undefined
  const groups = fx ? fx.groups.filter((g) => wanted(g.id)) : []
  if (fx && groups.length) {
    console.log(
      `\n## Writes — ${sizeLabel(w.rows)} rows of the query suite's Person ` +
        `(loaded in ${ms(fx.loadMs)} ms; the hand-indexed store built in ${ms(fx.handMs)} ms)`,
    )
    timeGroups(w.rows, groups, suiteTiming(opts.quick ? 1 : 2, { quick: 3, full: 5 }))
    console.log(
      `\nhand-indexed store after the run: ${fx.handConsistent() ? 'indexes in order, same row count as the engine' : 'INCONSISTENT (a bug in the baseline: its rows are not comparable)'}`,
    )
  }
  if (wanted('write-atomic'))
    writesGoals.push(...atomicBatches(engine!.core, w.batchRows, w.batches))
  fullGc()
  if (wanted('write-http')) {
    console.log('\n## Writes through HTTP: entistore serve against raw node:http over a Map')
    console.log(ensurePackagesBuilt(opts.build))
    await runWritesHttp({
      rows: opts.http.rows,
      startupTimeoutMs: opts.http.startupTimeoutMs,
      load: opts.http.load,
    })
  }
  if (wanted('write-log')) {
    console.log('\n## The request log: entistore serve with its log against --quiet')
    console.log(ensurePackagesBuilt(opts.build))
    writesGoals.push(
      ...(await runLogCost({
        rows: opts.http.rows,
        startupTimeoutMs: opts.http.startupTimeoutMs,
        load: opts.http.load,
      })),
    )
  }
})

// ---------------------------------------------------------------- framework adapters

const adaptersGoals: GoalRow[] = []
await runSuite('adapters', async () => {
  console.log('\n## Framework adapters: node:http, Express, Fastify, Hono against raw node:http')
  console.log(ensurePackagesBuilt(opts.build))
  adaptersGoals.push(...(await runAdaptersSuite(opts.adapters)))
})

// ---------------------------------------------------------------- pictures

await runSuite('pictures', async () => {
  console.log(
    '\n## Pictures: $imageformat conversions through the REST handler, with and without the cache, against sharp directly',
  )
  await runPicturesSuite({ reps: opts.reps ?? (opts.quick ? 3 : 7) })
})

// ---------------------------------------------------------------- the local journal

await runSuite('journal', async () => {
  console.log(
    '\n## Local journal: writes in memory, fsync per commit and batched; start-up from a folder against the data file',
  )
  await runJournalSuite({ rows: opts.journalRows, reps: opts.reps ?? (opts.quick ? 1 : 3) })
})

// ---------------------------------------------------------------- many processes on PostgreSQL

await runSuite('cluster', async () => {
  console.log(
    '\n## PostgreSQL: writes through its log against in memory and the journal; replication lag',
  )
  await runClusterSuite({ writes: opts.quick ? 1000 : 3000, lagSamples: opts.quick ? 100 : 300 })
})

// ---------------------------------------------------------------- many processes over HTTP

await runSuite('cluster-http', async () => {
  console.log(
    '\n## Many processes: writes and reads over HTTP, 16 clients (PostgreSQL with fsync on)',
  )
  console.log(ensurePackagesBuilt(opts.build))
  await runClusterHttpSuite(opts.clusterHttp)
})

// ---------------------------------------------------------------- the 4D language

const fourDGoals: string[][] = []
await runSuite('4d-language', async () => {
  console.log(
    '\n## The 4D language: @entistore/4d (its dist) against the same logic in TypeScript, on the ' +
      'same engine (the @entistore/core both import)',
  )
  const { fd, build } = await loadFourD()
  console.log(build)
  // Warm for 200 ms as well: the 4D side's closures (the runtime, the bridge) reach the optimizer
  // later than the plain loop, and two calls left the ORDA groups' samples 1.0–2.3× apart run to run.
  const timing = { ...suiteTiming(2, { quick: 3, full: 7 }), warmupMs: opts.quick ? 50 : 200 }
  // Each group's size: the loop's passes, the employees, the restricted rows, the elements.
  const size = (id: string): number =>
    id === '4d-loop'
      ? opts.fourD.loop
      : id.startsWith('4d-orda')
        ? opts.fourD.employees
        : id === '4d-restrict'
          ? opts.fourD.restrictRows
          : opts.fourD.elements
  for (const g of fourDGroups(fd, opts.fourD, wanted)) timeGroups(size(g.id), [g], timing)
  if (wanted('4d-compile')) {
    const report = compileReport(measureCompile(fd, opts.quick ? 5 : opts.fourD.compileReps))
    console.log(report.line)
    fourDGoals.push(report.goal)
  }
})

// ---------------------------------------------------------------- a newcomer's first minutes

await runSuite('newcomer', async () => {
  console.log(
    "\n## A newcomer's first minutes: the command's start and usage errors, the install footprint",
  )
  // --quick leaves out the clone's npm ci (half a minute of installing).
  await runNewcomerSuite({ reps: opts.reps ?? (opts.quick ? 5 : 15), clone: !opts.quick })
})

// ---------------------------------------------------------------- ten million rows

await runSuite('scale', async () => {
  console.log(
    '\n## Scale: start-up, restart, RSS per row, and GETs during an index build, a --save and a snapshot',
  )
  console.log(ensurePackagesBuilt(opts.build))
  await runScaleSuite(opts.scale)
})

// ---------------------------------------------------------------- nothing waits in line

await runSuite('contention', async () => {
  console.log(
    '\n## Contention: a cheap GET beside heavy reads, on serve and in a host server; slow readers',
  )
  console.log(ensurePackagesBuilt(opts.build))
  await runContentionSuite(opts.contention)
})

// ---------------------------------------------------------------- 4D code beside clients

await runSuite('code-beside', async () => {
  console.log("\n## 4D code beside clients: a cheap GET beside a 4D project's heavy code, on serve")
  console.log(ensurePackagesBuilt(opts.build))
  await runCodeBesideSuite(opts.codeBeside)
})

// ---------------------------------------------------------------- many sessions of one reader

await runSuite('views', async () => {
  console.log(
    '\n## Many sessions of one reader: writes and deletes beside sessions following a restricted dataclass',
  )
  if (opts.views.tree === THIS_TREE) console.log(ensurePackagesBuilt(opts.build))
  else console.log(`serving the CLI of ${opts.views.tree} (built there: npm run build)`)
  await runViewsSuite(opts.views)
})

// ---------------------------------------------------------------- summaries

const summaryRows: string[][] = []
for (const r of allResults) {
  const base = r.timed.find((t) => t.case.kind === 'baseline')!
  const cell = (kind: Case['kind'], short: (impl: string) => string): string =>
    r.timed
      .filter((t) => t.case.kind === kind)
      .map((t) => {
        const x = t.error !== undefined ? 'error' : ratio(t.median / base.median)
        const name = short(t.case.impl)
        return name ? `${x} ${name}` : x
      })
      .join(' / ')
  summaryRows.push([
    sizeLabel(r.size),
    r.group.id,
    `${ms(base.median)} ms`,
    cell('entistore', (impl) =>
      impl.includes('index layer')
        ? 'index'
        : impl.endsWith('.at(0)')
          ? 'query+at(0)'
          : impl.includes("'name = :1'")
            ? 'query'
            : impl.startsWith('HTTP')
              ? 'http'
              : '',
    ),
    cell('peer', (impl) => (impl.startsWith('lokijs') ? 'loki' : 'mingo')),
    r.group.target ? r.group.target.label : '',
  ])
}
if (summaryRows.length) {
  console.log('\n## Summary: × the plain baseline (median of each)')
  console.log(
    table(['size', 'op', 'baseline ms/call', 'entistore', 'peers', 'goal'], summaryRows, [
      'l',
      'l',
      'r',
      'l',
      'l',
      'l',
    ]),
  )
}

const goalRows: string[][] = []
for (const r of allResults) {
  if (!r.group.target) continue
  const base = r.timed.find((t) => t.case.kind === 'baseline')!
  for (const t of r.timed) {
    if (!t.case.targeted) continue
    if (t.error !== undefined) {
      goalRows.push([
        sizeLabel(r.size),
        r.group.id,
        t.case.impl,
        'error',
        r.group.target.label,
        'MISS',
      ])
      continue
    }
    const x = t.median / base.median
    goalRows.push([
      sizeLabel(r.size),
      r.group.id,
      t.case.impl,
      ratio(x),
      r.group.target.label,
      x <= r.group.target.max ? 'PASS' : 'MISS',
    ])
  }
}
// The HTTP suite's rows: × raw node:http or × the JSON.parse process, as each goal says.
goalRows.push(...httpGoals)
// The writes suite's: the time of an atomic batch (× the Map in brackets).
goalRows.push(...writesGoals)
// The adapters suite's: entistore serve × raw node:http, each framework × entistore serve.
goalRows.push(...adaptersGoals)
// The vectors suite's memory and approximate top 10 (its scans are groups above, held to the plain
// loop).
goalRows.push(...vectorGoals.filter((g) => !VECTOR_OPS.includes(g[1])))
// The changes suite's: sync and feed times in ms, memory in bytes (no baseline ratio).
goalRows.push(...changesGoals)
// The 4D language suite's compile measure: ms, against its bound.
goalRows.push(...fourDGoals)
if (goalRows.length) {
  console.log('\n## Goals')
  console.log(
    table(['size', 'op', 'implementation', '× baseline', 'goal', 'verdict'], goalRows, [
      'l',
      'l',
      'l',
      'r',
      'l',
      'l',
    ]),
  )
  const passed = goalRows.filter((r) => r[5] === 'PASS').length
  console.log(`${passed} of ${goalRows.length} goal rows pass.`)
}

// Issue 19's table: the short rows through HTTP (memory, start-up, GET by key, the code filter, the
// range), then the text suite's IN of 10 patterns against one.
const in10 = allResults.find((r) => r.group.id === 'text-in10-one')
if (in10) {
  const [base, ent] = in10.timed as [Timed, Timed]
  const x = ent.median / base.median
  const max = in10.group.target!.max
  issue19.push([
    `\`body IN [10 '@…@' patterns]\` / one pattern, full scans (${sizeLabel(in10.size)} rows)`,
    ent.error !== undefined ? 'error' : `${ms(ent.median)} ms`,
    `${ms(base.median)} ms (one pattern)`,
    ratio(x),
    `≤ ${max}× (one pass over each text for all patterns)`,
    x <= max ? 'PASS' : 'MISS',
  ])
}
if (issue19.length) {
  console.log("\n## The short rows' measures")
  console.log(
    table(['measure', 'Entistore', 'baseline', 'ratio', 'goal', 'verdict'], issue19, [
      'l',
      'r',
      'r',
      'r',
      'l',
      'l',
    ]),
  )
  const passed = issue19.filter((r) => r[5] === 'PASS').length
  console.log(`${passed} of ${issue19.length} pass.`)
}

// Lookup flatness: per-op time at each size.
const lookupSizes = [...new Set(allResults.filter((r) => r.group.id === 'eq').map((r) => r.size))]
if (lookupSizes.length > 1) {
  console.log('\n## Lookup time across sizes (per lookup)')
  const first = lookupSizes[0]!
  const last = lookupSizes[lookupSizes.length - 1]!
  const rows: string[][] = []
  for (const id of ['eq', 'get']) {
    const bySize = allResults.filter((r) => r.group.id === id)
    const impls = bySize[0]?.timed.map((t) => t.case) ?? []
    const per = (size: number, impl: string): number => {
      const t = bySize.find((r) => r.size === size)?.timed.find((x) => x.case.impl === impl)
      return t ? t.median / (t.case.opsPerCall ?? 1) : NaN
    }
    const baseImpl = impls.find((c) => c.kind === 'baseline')!.impl
    for (const c of impls) {
      const growth = per(last, c.impl) / per(first, c.impl)
      // Flat: the cost relative to a Map of the same size grows by at most 25 % (a ratio under 1×
      // at the smallest size counts as 1×: timer noise at 0.1 µs). In µs nothing is flat: a
      // 1M-entry Map misses the caches that a 10k one fits in.
      const rel = (s: number): number => per(s, c.impl) / per(s, baseImpl)
      const verdict = c.targeted
        ? rel(last) <= 1.25 * Math.max(1, rel(first))
          ? 'PASS'
          : 'MISS'
        : ''
      const cell = (s: number): string =>
        c.kind === 'baseline'
          ? perOp(per(s, c.impl))
          : `${perOp(per(s, c.impl))} (${ratio(per(s, c.impl) / per(s, baseImpl))})`
      rows.push([c.impl, ...lookupSizes.map(cell), ratio(growth), verdict])
    }
  }
  console.log(
    table(
      [
        'implementation',
        ...lookupSizes.map(sizeLabel),
        `${sizeLabel(last)}/${sizeLabel(first)}`,
        'flat?',
      ],
      rows,
      ['l', ...lookupSizes.map((): Align => 'r'), 'r', 'l'],
    ),
  )
  console.log(
    '- (×) = ratio to the plain baseline at that size. flat = that ratio grows by ≤ 25 % from ' +
      `${sizeLabel(first)} to ${sizeLabel(last)} (a ratio < 1× counts as 1×). In µs no lookup is ` +
      'flat: a 1M-entry Map misses the caches a 10k one fits in (see the baseline row)',
  )
}

if (opts.json) {
  writeFileSync(
    opts.json,
    JSON.stringify(
      allResults.map((r) => ({
        size: r.size,
        op: r.group.id,
        cases: r.timed.map((t) => ({
          impl: t.case.impl,
          kind: t.case.kind,
          check: t.check,
          inner: t.inner,
          medianMs: t.median,
          samplesMs: t.samples,
        })),
      })),
      null,
      1,
    ),
  )
}
console.log(
  `\ndone in ${((Date.now() - started) / 1000).toFixed(0)} s (${suiteSeconds.join(', ')}; ` +
    `sink ${sinkValue()})`,
)
// The one figure the docs give for `--quick` holds for the plain command only.
if (process.argv.slice(2).join(' ') === '--quick')
  console.log(quickVerdict((Date.now() - started) / 1000))
