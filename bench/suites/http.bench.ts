/**
 * @module The HTTP suite (issue 7's measures, and issue 19's on short rows): the real `entistore
 * serve` process on a socket against a raw node:http server, both driven by the same load generator
 * in the same run, and the CLI's start-up time and settled RSS next to a process that only reads and
 * JSON.parse-s the same data file.
 *
 * Two shapes of data, each with its own files and servers: `main`, the Items of items.ts (≈250-
 * character bodies, five indexes), and `short`, the Persons of short-rows.ts (seven short
 * attributes, five indexes, a relation). The same start-up and memory measures run on both; the
 * load measures differ: on `main` a read by key and a 50-row filter, each against raw node:http; on
 * `short` a read by key against raw node:http, and a unique-code `$filter` and a 20-row indexed
 * range against that read by key on the same server, all four in one interleaved set of rounds.
 *
 * Everything measured is a child process started with `--port 0` (its printed URL is read back), so
 * the bench process only generates load; it shares the machine's cores with the server it loads,
 * and so does the raw baseline, which keeps the ratios fair.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { prng } from '../data.ts'
import { compareLoad, type LoadOptions, type LoadResult, type LoadTarget } from '../http-load.ts'
import { CACHE_DIR, GROUPS, itemFiles, type DataFiles } from '../items.ts'
import { settledRss, startNode, type Child, type Settled } from '../processes.ts'
import { sessionCookies } from '../session-cookies.ts'
import { count, mb, ms, ratio, sizeLabel, table } from '../report.ts'
import { codeOf, makeShortRows, shortFiles } from '../short-rows.ts'
import { median } from '../timing.ts'

/** One line of the closing goal table: size, measure, implementation, value, goal, verdict. */
export type GoalRow = [string, string, string, string, string, 'PASS' | 'MISS']
/** One line of an issue's table: measure, Entistore, baseline, ratio, goal, verdict. */
export type MeasureRow = [string, string, string, string, string, 'PASS' | 'MISS']

/** The shapes of data the suite runs on (`--shapes`): see the module note. */
export const SHAPES = ['main', 'short'] as const
export type ShapeId = (typeof SHAPES)[number]

export interface HttpOptions {
  /** Rows of the main dataclass of the server the load measures run against. */
  readonly rows: number
  /** Rows of the start-up and memory measures (memory per row: first to last). */
  readonly startupSizes: readonly number[]
  /** Start-ups per size and process (fewer when one takes over 10 s). */
  readonly startupReps: number
  readonly startupTimeoutMs: number
  readonly load: LoadOptions
  /** Which shapes of data, in this order. */
  readonly shapes: readonly ShapeId[]
}

export interface HttpResult {
  /** Rows of the closing goal table, every shape. */
  readonly goals: GoalRow[]
  /** Issue 19's rows (the short shape): absolute figures, baselines, ratios. */
  readonly issue19: MeasureRow[]
}

/**
 * The built CLI. Every `serve` the bench starts runs with `--quiet`: the request log, on by default,
 * writes a line a request (about 5 µs each, docs/cli.md), which measures the terminal, not the
 * server; a server in production logs to a file or not at all.
 */
export const CLI = fileURLToPath(
  new URL('../../packages/entistore/bin/entistore.js', import.meta.url),
)
export const CHILD = (name: string): string =>
  fileURLToPath(new URL(`../child/${name}`, import.meta.url))
/** `entistore serve` of a model and a data file on a free port, quiet (see CLI), and `more`. */
export const serveArgs = (
  f: { readonly model: string; readonly data: string },
  ...more: string[]
): string[] => [
  CLI,
  'serve',
  '--quiet',
  '--model',
  f.model,
  '--data',
  f.data,
  '--port',
  '0',
  ...more,
]

export const ORIGIN = /https?:\/\/[^\s/]+/

/**
 * A raw node:http server answering every request with the body `url` answers now (kept in
 * `file`): a server's own reply, so that both send as many bytes.
 */
export async function rawAnswering(
  url: string,
  file: string,
): Promise<{ readonly child: Child; readonly origin: string; readonly body: string }> {
  const body = await (await fetch(url)).text()
  writeFileSync(file, body)
  const raw = await startNode(
    'raw node:http',
    [CHILD('raw-server.mjs'), file, file],
    /^raw node:http at /,
    10_000,
  )
  return { child: raw.child, origin: ORIGIN.exec(raw.line)![0], body }
}
/** A start-up slower than this is not repeated: one sample says enough, and time is short. */
const REPEAT_BELOW_MS = 10_000

const GOAL = {
  rps: { min: 0.75, label: '≥0.75× raw req/s' },
  p25: { max: 1.5, label: '≤1.5× raw p25' },
  startup: { max: 2, label: '≤2× JSON.parse' },
  memory: { max: 1.5, label: '≤1.5× JSON.parse' },
} as const

const verdict = (ok: boolean): 'PASS' | 'MISS' => (ok ? 'PASS' : 'MISS')

// ---------------------------------------------------------------- shapes

/** One kind of request: a random GET target drawn from `random`, for a server of `rows` rows. */
interface Request {
  readonly id: string
  readonly title: string
  readonly path: (rows: number) => (random: () => number) => string
  /** Entities a reply must hold (checked on the replies sampled before the load). */
  readonly entities?: number
}

/**
 * A ratio held to a goal: `metric` of the request `of` on entistore, × the raw server on the same
 * request (`versus: 'raw'`), × the plain-JS server on the same request (`'plain'`) or × entistore
 * on another request of the same set of rounds. `cost` is the CPU a request takes when the
 * server is saturated: 1 / req/s, so its ratio is the other's req/s over this one's.
 */
interface LoadGoal {
  readonly of: string
  readonly metric: 'rps' | 'p25' | 'cost'
  readonly versus: 'raw' | 'plain' | string
  readonly min?: number
  readonly max?: number
  readonly label: string
  /**
   * A `cost` ratio net of the raw server's: its CPU a request (the HTTP floor every request pays)
   * taken off both sides first, so that the ratio says what the index saves of the work above it
   * (issue 53's "net of raw").
   */
  readonly net?: true
  /** Its line in issue 19's table: the measure's name and the goal as the issue words it. */
  readonly issue?: { readonly measure: string; readonly goal: string; readonly baseline: string }
}

export interface Shape {
  readonly id: ShapeId
  /** The dataclass measured, in titles and paths. */
  readonly dataclass: string
  readonly what: string
  readonly files: (n: number) => DataFiles
  /**
   * Sets of requests, each run in one `compareLoad`: raw node:http on the first request of the
   * set (it answers with a typical entistore reply to it), then entistore on each request.
   */
  readonly loads: readonly (readonly Request[])[]
  readonly goals: readonly LoadGoal[]
  /** Whether its start-up, memory and load figures are issue 19's table. */
  readonly issue19: boolean
  /**
   * A hand-written node:http server (a child script given the data file) that answers the same
   * requests with the same JSON, built per request from Maps and arrays: the plain-JS limit of
   * each request, loaded in the same rounds.
   */
  readonly plain?: string
}

const byKey = (dc: string): Request => ({
  id: `GET ${dc}(key)`,
  title: `GET /rest/${dc}(key), random keys`,
  path: (n) => (r) => `/rest/${dc}(${1 + Math.floor(r() * n)})`,
})

const keyGoals = (dc: string): LoadGoal[] => [
  {
    of: `GET ${dc}(key)`,
    metric: 'rps',
    versus: 'raw',
    ...GOAL.rps,
    issue: {
      measure: 'GET by key, req/s (16 keep-alive connections)',
      goal: '≥ 0.75×',
      baseline: 'raw',
    },
  },
  { of: `GET ${dc}(key)`, metric: 'p25', versus: 'raw', ...GOAL.p25 },
]

/**
 * The plain-JS server's own floor (issue 31): a GET by key at ≥ 0.95× its req/s. Only on shapes
 * with a plain server.
 */
const plainKeyGoal = (dc: string): LoadGoal => ({
  of: `GET ${dc}(key)`,
  metric: 'rps',
  versus: 'plain',
  min: 0.95,
  label: '≥0.95× plain JS req/s',
  issue: {
    measure: 'GET by key, req/s × the plain-JS server (16 keep-alive connections)',
    goal: '≥ 0.95×',
    baseline: 'plain JS',
  },
})

// Paths are written as a browser sends them: `"`, `<`, `>` and spaces percent-encoded, the rest
// (quotes `'`, `=`) as typed.
const MAIN: Shape = {
  id: 'main',
  dataclass: 'Item',
  what: `Items with ${GROUPS} Groups (≈250-character bodies, five indexes)`,
  files: itemFiles,
  loads: [
    [byKey('Item')],
    [
      {
        id: '50-row filter',
        title: 'GET /rest/Item?$filter="groupID=<g>"&$top=50, random groups',
        path: () => (r) =>
          `/rest/Item?$filter=%22groupID=${1 + Math.floor(r() * GROUPS)}%22&$top=50`,
        entities: 50,
      },
    ],
  ],
  goals: [...keyGoals('Item'), plainKeyGoal('Item')],
  issue19: false,
  plain: 'plain-item-server.mjs',
}

/** 20 codes in a row: a range on the unique code's sorted index, 20 rows found. */
const RANGE = 20

/**
 * Salaries held by one row each at `n` rows (salary has no index): the full scan's targets, so
 * that it finds one row, as the code filter does, and the two replies weigh the same.
 */
const loneSalaries = (() => {
  const cache = new Map<number, number[]>()
  return (n: number): number[] => {
    let out = cache.get(n)
    if (!out) {
      const seen = new Map<number, number>()
      for (const p of makeShortRows(n)) seen.set(p.salary, (seen.get(p.salary) ?? 0) + 1)
      out = [...seen].filter(([, c]) => c === 1).map(([s]) => s)
      cache.set(n, out)
    }
    return out
  }
})()

const SCAN = 'full scan'

const SHORT: Shape = {
  id: 'short',
  dataclass: 'Person',
  what: `Persons with ${GROUPS} Groups (short rows: seven attributes, five indexes, a relation)`,
  files: shortFiles,
  loads: [
    [
      byKey('Person'),
      {
        id: 'code filter',
        title: `GET /rest/Person?$filter="code='C…'", random codes (unique index)`,
        path: (n) => (r) => `/rest/Person?$filter=%22code='${codeOf(Math.floor(r() * n))}'%22`,
        entities: 1,
      },
      {
        id: `${RANGE}-row range`,
        title: `GET /rest/Person?$filter="code>='C…' AND code<'C…'", ${RANGE} codes from a random one`,
        path: (n) => (r) => {
          const from = Math.floor(r() * (n - RANGE))
          return (
            `/rest/Person?$filter=%22code%3E='${codeOf(from)}'%20AND%20` +
            `code%3C'${codeOf(from + RANGE)}'%22`
          )
        },
        entities: RANGE,
      },
      {
        id: SCAN,
        title:
          'GET /rest/Person?$filter="salary=<s>" (no index: every row compared), one row found',
        path: (n) => {
          const salaries = loneSalaries(n)
          return (r) =>
            `/rest/Person?$filter=%22salary=${salaries[Math.floor(r() * salaries.length)]}%22`
        },
        entities: 1,
      },
    ],
  ],
  goals: [
    ...keyGoals('Person'),
    plainKeyGoal('Person'),
    {
      of: 'code filter',
      metric: 'p25',
      versus: 'GET Person(key)',
      max: 1.3,
      label: '≤1.3× GET by key p25',
      issue: {
        measure: `\`$filter="code='C…'"\` (unique index), p25`,
        goal: '≤ 1.3× a GET by key',
        baseline: 'GET Person(key)',
      },
    },
    {
      of: `${RANGE}-row range`,
      metric: 'p25',
      versus: 'GET Person(key)',
      max: 1.5,
      label: '≤1.5× GET by key p25',
      issue: {
        measure: `indexed range of ${RANGE} rows (\`code>=… AND code<…\`), p25`,
        goal: '≤ 1.5× a GET by key',
        baseline: 'GET Person(key)',
      },
    },
    // Issue 31: what an index saves, seen from outside: the CPU of an indexed request against
    // a full scan of the same 200k rows, on the same server in the same rounds.
    {
      of: 'code filter',
      metric: 'cost',
      versus: SCAN,
      max: 0.1,
      net: true,
      label: '≤0.1× a full scan, net of raw',
      issue: {
        measure: `\`$filter="code='C…'"\` (unique index), CPU a request (1 / req/s) net of raw's`,
        goal: '≤ 0.1× a full scan',
        baseline: SCAN,
      },
    },
    {
      of: `${RANGE}-row range`,
      metric: 'cost',
      versus: SCAN,
      max: 0.25,
      net: true,
      label: '≤0.25× a full scan, net of raw',
      issue: {
        measure: `indexed range of ${RANGE} rows, CPU a request (1 / req/s) net of raw's`,
        goal: '≤ 0.25× a full scan',
        baseline: SCAN,
      },
    },
  ],
  issue19: true,
  plain: 'plain-short-server.mjs',
}

export const SHAPE: Record<ShapeId, Shape> = { main: MAIN, short: SHORT }

// ---------------------------------------------------------------- start-up and memory

export interface Proc {
  readonly label: string
  readonly args: (f: DataFiles) => string[]
  readonly ready: RegExp
}

export const JSON_PARSE: Proc = {
  label: 'node: readFileSync + JSON.parse',
  args: (f) => [CHILD('json-parse.mjs'), f.data],
  ready: /^parsed /,
}
export const ENTISTORE: Proc = {
  label: 'entistore serve',
  args: (f) => serveArgs(f),
  ready: ORIGIN,
}
// Every index built before the URL line: what memory is measured on (the default builds each on
// its first use, so a server nobody queried would look smaller than one in use), and the start-up
// of a server that pays for all its indexes at once.
const ENTISTORE_EAGER: Proc = {
  label: 'entistore serve --eager-indexes',
  args: (f) => [...ENTISTORE.args(f), '--eager-indexes'],
  ready: ORIGIN,
}

// A test suite's fake backend: `startFixture` in a process of its own, ready once it prints its URL
// (what a test file waits for before its first request; bench/child/fixture-start.mjs).
const FIXTURE: Proc = {
  label: 'startFixture (entistore/fixture)',
  args: (f) => [CHILD('fixture-start.mjs'), f.model, f.data],
  ready: ORIGIN,
}

interface Startup {
  readonly proc: Proc
  readonly files: DataFiles
  readonly ms: number[]
  rss?: Settled
  error?: string
  /** The last entistore server started with every index built, left running for the load measures. */
  child?: Child
  origin?: string
}

/**
 * Starts each process `reps` times on `files`, alternating (baseline, entistore, entistore with
 * --eager-indexes, startFixture, baseline…), and reads the settled RSS after the last start. The last eager
 * server is kept running (in `child`) for the load measures: their samples never include an
 * index's build.
 */
async function measureStartups(files: DataFiles, o: HttpOptions) {
  const runs: Startup[] = [JSON_PARSE, ENTISTORE, ENTISTORE_EAGER, FIXTURE].map((proc) => ({
    proc,
    files,
    ms: [],
  }))
  for (let r = 0; r < o.startupReps; r++) {
    for (const s of runs) {
      const prev = s.ms[s.ms.length - 1]
      if (s.error !== undefined || s.rss || (prev !== undefined && prev > REPEAT_BELOW_MS)) continue
      try {
        const started = await startNode(
          `${s.proc.label} (${sizeLabel(files.rows)} rows)`,
          s.proc.args(files),
          s.proc.ready,
          o.startupTimeoutMs,
        )
        s.ms.push(started.ms)
        const last = r === o.startupReps - 1 || started.ms > REPEAT_BELOW_MS
        if (last) s.rss = await settledRss(started.child)
        if (last && s.proc === ENTISTORE_EAGER) {
          s.child = started.child
          s.origin = ORIGIN.exec(started.line)![0]
        } else await started.child.stop()
      } catch (e) {
        s.error = (e as Error).message
      }
    }
  }
  return runs
}

const startMs = (s: Startup): number => (s.ms.length ? median(s.ms) : NaN)
const rssMb = (s: Startup): number => (s.rss ? s.rss.bytes / 2 ** 20 : NaN)

function startupCell(s: Startup, timeoutMs: number): string {
  if (s.error !== undefined && s.ms.length === 0)
    return /no ready line/.test(s.error) ? `> ${ms(timeoutMs)}` : 'failed'
  return ms(startMs(s))
}

/** Prints the start-up and memory tables of one shape; returns its goal rows and issue rows. */
function printStartups(shape: Shape, all: Startup[][], o: HttpOptions): HttpResult {
  const of = shape.id === 'main' ? '' : `, ${shape.dataclass}`
  console.log(`\n### start-up (spawn → ready line) and settled RSS${of}`)
  const rows: string[][] = []
  for (const [base, ...ents] of all as [Startup, ...Startup[]][]) {
    for (const s of [base, ...ents]) {
      const note = [
        s.ms.length > 1 ? `median of ${s.ms.length}` : '',
        s.rss && !s.rss.stable ? 'RSS still moving after 10 s' : '',
        s.error ?? '',
      ]
        .filter(Boolean)
        .join('; ')
      rows.push([
        sizeLabel(s.files.rows),
        mb(s.files.bytes / 2 ** 20),
        s.proc.label,
        startupCell(s, o.startupTimeoutMs),
        s === base ? '1.00×' : ratio(startMs(s) / startMs(base)),
        mb(rssMb(s)),
        s === base ? '1.00×' : ratio(rssMb(s) / rssMb(base)),
        note,
      ])
    }
  }
  console.log(
    table(
      [
        'rows',
        'file MB',
        'process',
        'start-up ms',
        '× JSON.parse',
        'RSS MB',
        '× JSON.parse',
        'note',
      ],
      rows,
      ['l', 'r', 'l', 'r', 'r', 'r', 'r', 'l'],
    ),
  )
  console.log(
    '- start-up = from spawn to the line the process prints once ready (entistore: its URL, after ' +
      'loading the files and listening; by default each index is built on its first use, with ' +
      '--eager-indexes all of them before the URL line). RSS = /proc/<pid>/status VmRSS after two ' +
      'full GCs (SIGUSR2 to a preload, see bench/processes.ts) and five samples within 1 %; the ' +
      "memory per row below is the eager server's, every index counted.",
  )

  const goals: GoalRow[] = []
  const issue19: MeasureRow[] = []
  const [firstBase, , firstEnt] = all[0] as [Startup, Startup, Startup]
  const [lastBase, lastLazy, lastEnt, lastFixture] = all[all.length - 1] as Startup[] as [
    Startup,
    Startup,
    Startup,
    Startup,
  ]
  const big = sizeLabel(lastEnt.files.rows)
  for (const [ent, what] of [
    [lastLazy, 'start-up to the URL line'],
    [lastEnt, 'start-up with every index built (`--eager-indexes`)'],
    [lastFixture, '`startFixture` until ready (its URL)'],
  ] as const) {
    const x = startMs(ent) / startMs(lastBase)
    const timedOut = ent.error !== undefined && /no ready line/.test(ent.error)
    const startupRatio = Number.isFinite(x)
      ? ratio(x)
      : timedOut
        ? `> ${ratio(o.startupTimeoutMs / startMs(lastBase))}`
        : 'failed'
    goals.push([
      big,
      `start-up${of}`,
      ent.proc.label,
      startupRatio,
      GOAL.startup.label,
      verdict(x <= GOAL.startup.max),
    ])
    issue19.push([
      `${what}, ${big} rows`,
      `${ms(startMs(ent) / 1000)} s`,
      `${ms(startMs(lastBase) / 1000)} s (node + read + parse)`,
      startupRatio,
      '≤ 2×',
      verdict(x <= GOAL.startup.max),
    ])
  }

  if (all.length > 1) {
    const rowsGrowth = lastEnt.files.rows - firstEnt.files.rows
    // Bytes a further row costs, by a reading of each process: RSS (the goal's), or V8's heap.
    const growth =
      (bytes: (s: Startup) => number) =>
      (a: Startup, b: Startup): number =>
        (bytes(b) - bytes(a)) / rowsGrowth
    const perRow = growth((s) => rssMb(s) * 2 ** 20)
    const basePer = perRow(firstBase, lastBase)
    const entPer = perRow(firstEnt, lastEnt)
    const span = `${sizeLabel(firstEnt.files.rows)}→${big}`
    console.log(`\n### memory per row and start-up growth, ${span} rows${of}`)
    const line = (a: Startup, b: Startup, per: number, isBase: boolean): string[] => [
      a.proc.label,
      mb(rssMb(a)),
      mb(rssMb(b)),
      Number.isFinite(per) ? count(Math.round(per)) : 'n/a',
      isBase ? '1.00×' : ratio(per / basePer),
      ratio(startMs(b) / startMs(a)),
      isBase ? '' : `${verdict(per / basePer <= GOAL.memory.max)} ${GOAL.memory.label}`,
    ]
    console.log(
      table(
        [
          'process',
          `RSS ${sizeLabel(firstEnt.files.rows)} MB`,
          `RSS ${big} MB`,
          'bytes per row',
          '× JSON.parse',
          `start-up ${big} / ${sizeLabel(firstEnt.files.rows)}`,
          'goal',
        ],
        [line(firstBase, lastBase, basePer, true), line(firstEnt, lastEnt, entPer, false)],
        ['l', 'r', 'r', 'r', 'r', 'r', 'l'],
      ),
    )
    console.log(
      `- bytes per row = RSS growth ÷ ${count(rowsGrowth)} rows (what each further row costs, ` +
        `the process's fixed size cancelled out). Linear loading: start-up growth ≈ ` +
        `${ratio(lastEnt.files.rows / firstEnt.files.rows)} or less.`,
    )
    // What the data itself holds, beside RSS (the goal's measure): V8's heap used plus external
    // memory, whose growth leaves out what malloc and V8 keep committed after the load.
    const heapPer = growth((s) => s.rss?.heap ?? NaN)
    const [baseHeap, entHeap] = [heapPer(firstBase, lastBase), heapPer(firstEnt, lastEnt)]
    if (Number.isFinite(baseHeap) && Number.isFinite(entHeap))
      console.log(
        `- V8's heap used + external memory, the same growth ÷ rows: ${lastEnt.proc.label} ` +
          `${count(Math.round(entHeap))} B a row, JSON.parse ${count(Math.round(baseHeap))} B ` +
          `(${ratio(entHeap / baseHeap)}): the rows and indexes themselves; RSS adds what the ` +
          `allocators keep.`,
      )
    const m = entPer / basePer
    goals.push([
      span,
      `memory per row${of}`,
      lastEnt.proc.label,
      Number.isFinite(m) ? ratio(m) : 'n/a',
      GOAL.memory.label,
      verdict(m <= GOAL.memory.max),
    ])
    issue19.unshift([
      `memory per row (RSS growth ${span.replace('→', ' → ')}, settled)`,
      `${count(Math.round(entPer))} B`,
      `${count(Math.round(basePer))} B (\`JSON.parse\`)`,
      Number.isFinite(m) ? ratio(m) : 'n/a',
      '≤ 1.5× (moonshot ≤ 1.0×)',
      verdict(m <= GOAL.memory.max),
    ])
  }
  return { goals, issue19: shape.issue19 ? issue19 : [] }
}

// ---------------------------------------------------------------- load

/**
 * `n` replies of `origin` to paths from `make` (seed 1), each checked to be a 200 with JSON (a
 * broken server must not be "measured") holding `entities` entities when that is given. Sorted by
 * size: the middle one is a typical reply.
 */
async function sampleReplies(
  origin: string,
  make: (r: () => number) => string,
  n: number,
  entities?: number,
): Promise<string[]> {
  const random = prng(1)
  const bodies: string[] = []
  for (let i = 0; i < n; i++) {
    const path = make(random)
    const res = await fetch(origin + path, { signal: AbortSignal.timeout(30_000) })
    const text = await res.text()
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${text.slice(0, 200)}`)
    const json = JSON.parse(text) as { __ENTITIES?: unknown[] }
    const found = json.__ENTITIES?.length
    if (entities !== undefined && found !== entities)
      throw new Error(`GET ${path}: ${found ?? 'no'} entities, not ${entities}`)
    bodies.push(text)
  }
  return bodies.sort((a, b) => Buffer.byteLength(a) - Buffer.byteLength(b))
}

/**
 * The table of one load measure: each server's req/s and latency, × the first one (raw node:http).
 * `versus` adds a column of req/s × the second server (the adapters suite: × `entistore serve`),
 * `p25Versus` one of p25 × the second server; `p25: false` leaves the p25 columns out.
 */
export function loadTable(
  results: readonly LoadResult[],
  options: { readonly versus?: string; readonly p25Versus?: string; readonly p25?: boolean } = {},
): string {
  const [raw, second] = results as [LoadResult, LoadResult | undefined]
  const p25 = options.p25 ?? true
  const rows = results.map((x, i) => {
    const rel = (a: number, b: number): string => (i === 0 ? '1.00×' : ratio(a / b))
    const row = [x.label, count(Math.round(x.rps)), rel(x.rps, raw.rps)]
    if (options.versus !== undefined) row.push(i === 0 || !second ? '' : ratio(x.rps / second.rps))
    if (p25) row.push(ms(x.p25), rel(x.p25, raw.p25))
    if (p25 && options.p25Versus !== undefined)
      row.push(i === 0 || !second ? '' : ratio(x.p25 / second.p25))
    row.push(ms(x.p50), rel(x.p50, raw.p50), ms(x.p99), rel(x.p99, raw.p99), count(x.ok))
    row.push(x.non2xx || x.errors ? `${count(x.non2xx)} / ${count(x.errors)}` : '')
    return row
  })
  const head = ['server', 'req/s', '× raw']
  if (options.versus !== undefined) head.push(options.versus)
  if (p25) head.push('p25 ms', '× raw')
  if (p25 && options.p25Versus !== undefined) head.push(options.p25Versus)
  head.push('p50 ms', '× raw', 'p99 ms', '× raw', '2xx replies', 'non-2xx / errors')
  return table(
    head,
    rows,
    head.map((_, i) => (i === 0 ? 'l' : 'r')),
  )
}

/** The load results of one shape: entistore's per request id, and raw node:http's. */
interface Measured {
  readonly ent: Map<string, LoadResult>
  readonly raw: Map<string, LoadResult>
  /** The plain-JS server's results, by request (shapes with a `plain` server). */
  readonly plain: Map<string, LoadResult>
}

/** The goal rows (and issue 19's rows) of `shape` from what was measured. */
function loadGoals(shape: Shape, rows: number, m: Measured): HttpResult {
  const goals: GoalRow[] = []
  const issue19: MeasureRow[] = []
  for (const g of shape.goals) {
    const ent = m.ent.get(g.of)
    const base =
      g.versus === 'raw'
        ? m.raw.get(g.of)
        : g.versus === 'plain'
          ? m.plain.get(g.of)
          : m.ent.get(g.versus)
    // The raw server's request cost, the floor a net ratio takes off (its one measured request).
    const floor = g.net ? 1 / ([...m.raw.values()][0]?.rps ?? NaN) : 0
    const of = (a: LoadResult, b: LoadResult): number =>
      g.metric === 'cost' ? (1 / a.rps - floor) / (1 / b.rps - floor) : a[g.metric] / b[g.metric]
    const x = ent && base ? of(ent, base) : NaN
    const ok = g.min !== undefined ? x >= g.min : x <= g.max!
    const what =
      g.metric === 'rps' ? 'throughput' : g.metric === 'cost' ? 'CPU a request' : 'latency p25'
    goals.push([
      sizeLabel(rows),
      g.of,
      g.versus === 'raw' ? what : `${what} × ${g.versus}`,
      ratio(x),
      g.label,
      verdict(ok),
    ])
    if (!g.issue || !shape.issue19) continue
    const value = (r: LoadResult | undefined): string =>
      !r
        ? 'n/a'
        : g.metric === 'rps'
          ? count(Math.round(r.rps))
          : g.metric === 'cost'
            ? `${ms(1000 / r.rps)} ms`
            : `${ms(r.p25)} ms`
    // The same ratio on the plain-JS server: how far the goal is from what plain JS reaches.
    const plainOf = m.plain.get(g.of)
    const plainBase = g.versus === 'plain' ? undefined : m.plain.get(g.versus)
    const plain = plainOf && plainBase ? `; plain JS: ${ratio(of(plainOf, plainBase))}` : ''
    issue19.push([
      g.issue.measure,
      value(ent),
      `${value(base)} (${g.issue.baseline}${plain})`,
      ratio(x),
      g.issue.goal,
      verdict(ok),
    ])
  }
  return { goals, issue19 }
}

/** The load measures of `shape` against its entistore server at `origin` (`rows` rows). */
async function measureLoad(
  shape: Shape,
  origin: string,
  rows: number,
  o: HttpOptions,
): Promise<HttpResult> {
  // The raw server answers a typical entistore reply to the first request of each set: the entity
  // body to a target without a query string, the list body to one with.
  const bodies = { entity: '', list: '' }
  for (const [first] of shape.loads) {
    const sample = await sampleReplies(origin, first!.path(rows), 15, first!.entities)
    const body = sample[sample.length >> 1]!
    bodies[first!.path(rows)(prng(1)).includes('?') ? 'list' : 'entity'] = body
  }
  const entityFile = join(CACHE_DIR, `raw-${shape.id}-entity.json`)
  const listFile = join(CACHE_DIR, `raw-${shape.id}-list.json`)
  writeFileSync(entityFile, bodies.entity)
  writeFileSync(listFile, bodies.list || bodies.entity)
  // The other requests are checked too (a filter that finds nothing must not be timed).
  for (const set of shape.loads)
    for (const r of set.slice(1)) await sampleReplies(origin, r.path(rows), 3, r.entities)
  const raw = await startNode(
    'raw node:http',
    [CHILD('raw-server.mjs'), entityFile, listFile],
    /^raw node:http at /,
    10_000,
  )
  const rawOrigin = ORIGIN.exec(raw.line)![0]
  const plain = shape.plain
    ? await startNode(
        'plain JS',
        [CHILD(shape.plain), shape.files(rows).data],
        /^plain JS at /,
        60_000,
      )
    : undefined
  const plainOrigin = plain && ORIGIN.exec(plain.line)![0]
  const sizes = [
    bodies.entity && `${count(Buffer.byteLength(bodies.entity))} B for an entity`,
    bodies.list && `${count(Buffer.byteLength(bodies.list))} B for a list`,
  ].filter(Boolean)
  console.log(
    `\nload: autocannon, ${o.load.connections} keep-alive connections, ${o.load.warmupSeconds} s ` +
      `warm-up each, then ${o.load.rounds} × ${o.load.seconds} s per server and request, ` +
      `alternating (raw, entistore, raw…). Raw node:http answers a fixed body: a median-size ` +
      `entistore reply (${sizes.join(', ')}). Latency: per reply, request written → reply read, ` +
      'in the load generator. Each connection to entistore sends back the cookie of a session ' +
      'of its own, as a REST client does.' +
      (plain
        ? ' Plain JS (a hand-written node:http server over Maps and a sorted array, ' +
          `bench/child/${shape.plain}) answers the same requests with the same JSON, built per ` +
          'request: its ratios are the plain-JS limit of each goal.'
        : ''),
  )
  const measured: Measured = { ent: new Map(), raw: new Map(), plain: new Map() }
  // Each connection sends its session's cookie back, as a REST client does (session-cookies.ts).
  const cookies = await sessionCookies('entistore serve', origin, o.load.connections)
  try {
    for (const set of shape.loads) {
      const single = set.length === 1
      const targets: LoadTarget[] = [
        {
          label: single ? 'raw node:http, fixed body' : `raw node:http: ${set[0]!.id}`,
          origin: rawOrigin,
          path: set[0]!.path(rows),
        },
        ...set.map((r) => ({
          label: single ? 'entistore serve' : `entistore serve: ${r.id}`,
          origin,
          path: r.path(rows),
          connectionHeaders: cookies,
        })),
        ...(plainOrigin === undefined
          ? []
          : set.map((r) => ({
              label: `plain JS: ${r.id}`,
              origin: plainOrigin,
              path: r.path(rows),
            }))),
      ]
      const results = await compareLoad(targets, o.load)
      measured.raw.set(set[0]!.id, results[0]!)
      set.forEach((r, i) => measured.ent.set(r.id, results[i + 1]!))
      if (plainOrigin !== undefined)
        set.forEach((r, i) => measured.plain.set(r.id, results[set.length + i + 1]!))
      console.log(`\n### ${set.map((r) => r.title).join('; ')} — ${sizeLabel(rows)} rows`)
      console.log(loadTable(results, single ? {} : { p25Versus: `× ${set[0]!.id}` }))
      if (results.slice(1).some((x) => x.non2xx || x.errors))
        console.log(
          '- WARNING: entistore answered non-2xx replies or dropped connections (not counted)',
        )
      if (!shape.goals.some((g) => set.some((r) => r.id === g.of)))
        console.log(
          `- no goal: shown for the cost of a read that serializes ${set[0]!.entities} entities`,
        )
    }
  } finally {
    await raw.child.stop()
    await plain?.child.stop()
  }
  return loadGoals(shape, rows, measured)
}

// ---------------------------------------------------------------- the suite

/** One shape: start-ups and memory at each size, then the load measures. */
async function runShape(shape: Shape, o: HttpOptions): Promise<HttpResult> {
  const sizes = [...new Set([...o.startupSizes, o.rows])].sort((a, b) => a - b)
  const t0 = Date.now()
  const files = new Map(sizes.map((n) => [n, shape.files(n)]))
  const written = [...files.values()].filter((f) => f.written)
  console.log(
    `\n## HTTP, ${shape.id} shape: ${sizes.map(sizeLabel).join(', ')} ${shape.what}` +
      (written.length
        ? `; generated ${written.map((f) => sizeLabel(f.rows)).join(', ')} in ${ms(Date.now() - t0)} ms`
        : ' (cached)') +
      ` → ${CACHE_DIR}`,
  )

  const result: HttpResult = { goals: [], issue19: [] }
  const add = (r: HttpResult): void => {
    result.goals.push(...r.goals)
    result.issue19.push(...r.issue19)
  }
  const startups: Startup[][] = []
  // The entistore server of the largest size started so far: the one the load measures use
  // (`rows` if it starts within the time-out, else the largest size that did).
  let server: { child: Child; origin: string; rows: number } | undefined
  const keep = async (child: Child, origin: string, rows: number): Promise<void> => {
    if (server && server.rows >= rows) return child.stop()
    await server?.child.stop()
    server = { child, origin, rows }
  }
  try {
    for (const n of o.startupSizes) {
      const runs = await measureStartups(files.get(n)!, o)
      startups.push(runs)
      const ent = runs[2]!
      if (ent.child) await keep(ent.child, ent.origin!, n)
    }
    if (startups.length) add(printStartups(shape, startups, o))

    if (!o.startupSizes.includes(o.rows) && (!server || server.rows < o.rows)) {
      try {
        const s = await startNode(
          `${ENTISTORE_EAGER.label} (${sizeLabel(o.rows)} rows)`,
          ENTISTORE_EAGER.args(files.get(o.rows)!),
          ORIGIN,
          o.startupTimeoutMs,
        )
        await keep(s.child, ORIGIN.exec(s.line)![0], o.rows)
      } catch (e) {
        console.log(`- ${(e as Error).message}`)
      }
    }
    if (server && server.rows !== o.rows)
      console.log(
        `\nNOTE: the load measures run on ${sizeLabel(server.rows)} rows: entistore did not start ` +
          `with ${sizeLabel(o.rows)} rows (time-out ${ms(o.startupTimeoutMs / 1000)} s, see above).`,
      )
    if (!server) {
      console.log('\nNOTE: no entistore server started: no load measures.')
      const g = shape.goals[0]!
      result.goals.push([sizeLabel(o.rows), g.of, 'throughput', 'n/a', g.label, 'MISS'])
    } else add(await measureLoad(shape, server.origin, server.rows, o))
  } finally {
    await server?.child.stop()
  }
  return result
}

/** Runs the suite on each shape asked for, prints its tables, returns its goal and issue rows. */
export async function runHttpSuite(o: HttpOptions): Promise<HttpResult> {
  const result: HttpResult = { goals: [], issue19: [] }
  for (const id of o.shapes) {
    const r = await runShape(SHAPE[id], o)
    result.goals.push(...r.goals)
    result.issue19.push(...r.issue19)
  }
  return result
}
