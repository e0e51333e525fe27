/**
 * @module The HTTP suite (issue 7's measures): the real `entistore serve` process on a socket
 * against a raw node:http server, both driven by the same load generator in the same run, and the
 * CLI's start-up time and settled RSS next to a process that only reads and JSON.parse-s the same
 * data file.
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
import { count, mb, ms, ratio, sizeLabel, table } from '../report.ts'
import { median } from '../timing.ts'

/** One line of the closing goal table: size, measure, implementation, value, goal, verdict. */
export type GoalRow = [string, string, string, string, string, 'PASS' | 'MISS']

export interface HttpOptions {
  /** Item rows of the server the load measures run against. */
  readonly rows: number
  /** Item rows of the start-up and memory measures (memory per row: first to last). */
  readonly startupSizes: readonly number[]
  /** Start-ups per size and process (fewer when one takes over 10 s). */
  readonly startupReps: number
  readonly startupTimeoutMs: number
  readonly load: LoadOptions
}

const CLI = fileURLToPath(new URL('../../packages/entistore/bin/entistore.js', import.meta.url))
export const CHILD = (name: string): string =>
  fileURLToPath(new URL(`../child/${name}`, import.meta.url))
export const ORIGIN = /https?:\/\/[^\s/]+/
/** A start-up slower than this is not repeated: one sample says enough, and time is short. */
const REPEAT_BELOW_MS = 10_000

const GOAL = {
  rps: { min: 0.75, label: '≥0.75× raw req/s' },
  p25: { max: 1.5, label: '≤1.5× raw p25' },
  startup: { max: 2, label: '≤2× JSON.parse' },
  memory: { max: 1.5, label: '≤1.5× JSON.parse' },
} as const

// ---------------------------------------------------------------- start-up and memory

export interface Proc {
  readonly label: string
  readonly args: (f: DataFiles) => string[]
  readonly ready: RegExp
}

const JSON_PARSE: Proc = {
  label: 'node: readFileSync + JSON.parse',
  args: (f) => [CHILD('json-parse.mjs'), f.data],
  ready: /^parsed /,
}
export const ENTISTORE: Proc = {
  label: 'entistore serve',
  args: (f) => [CLI, 'serve', '--model', f.model, '--data', f.data, '--port', '0'],
  ready: ORIGIN,
}

interface Startup {
  readonly proc: Proc
  readonly files: DataFiles
  readonly ms: number[]
  rss?: Settled
  error?: string
  /** The last entistore server started, left running for the load measures. */
  child?: Child
  origin?: string
}

/**
 * Starts each process `reps` times on `files`, alternating (baseline, entistore, baseline…), and
 * reads the settled RSS after the last start. The last entistore server is kept running (in
 * `child`) for the load measures.
 */
async function measureStartups(files: DataFiles, o: HttpOptions) {
  const runs: Startup[] = [JSON_PARSE, ENTISTORE].map((proc) => ({ proc, files, ms: [] }))
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
        if (last && s.proc === ENTISTORE) {
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

function printStartups(all: Startup[][], o: HttpOptions): GoalRow[] {
  console.log('\n### start-up (spawn → ready line) and settled RSS')
  const rows: string[][] = []
  for (const [base, ent] of all as [Startup, Startup][]) {
    for (const s of [base, ent]) {
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
      'loading the files and listening). RSS = /proc/<pid>/status VmRSS after two full GCs ' +
      '(SIGUSR2 to a preload, see bench/processes.ts) and five samples within 1 %.',
  )

  const goals: GoalRow[] = []
  const [firstBase, firstEnt] = all[0] as [Startup, Startup]
  const [lastBase, lastEnt] = all[all.length - 1] as [Startup, Startup]
  const big = sizeLabel(lastEnt.files.rows)
  const x = startMs(lastEnt) / startMs(lastBase)
  const timedOut = lastEnt.error !== undefined && /no ready line/.test(lastEnt.error)
  goals.push([
    big,
    'start-up',
    ENTISTORE.label,
    Number.isFinite(x)
      ? ratio(x)
      : timedOut
        ? `> ${ratio(o.startupTimeoutMs / startMs(lastBase))}`
        : 'failed',
    GOAL.startup.label,
    x <= GOAL.startup.max ? 'PASS' : 'MISS',
  ])

  if (all.length > 1) {
    const rowsGrowth = lastEnt.files.rows - firstEnt.files.rows
    const perRow = (a: Startup, b: Startup): number =>
      ((rssMb(b) - rssMb(a)) * 2 ** 20) / rowsGrowth
    const basePer = perRow(firstBase, lastBase)
    const entPer = perRow(firstEnt, lastEnt)
    const span = `${sizeLabel(firstEnt.files.rows)}→${big}`
    console.log(`\n### memory per row and start-up growth, ${span} rows`)
    const line = (a: Startup, b: Startup, per: number, isBase: boolean): string[] => [
      a.proc.label,
      mb(rssMb(a)),
      mb(rssMb(b)),
      Number.isFinite(per) ? count(Math.round(per)) : 'n/a',
      isBase ? '1.00×' : ratio(per / basePer),
      ratio(startMs(b) / startMs(a)),
      isBase ? '' : `${per / basePer <= GOAL.memory.max ? 'PASS' : 'MISS'} ${GOAL.memory.label}`,
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
    goals.push([
      span,
      'memory per row',
      ENTISTORE.label,
      Number.isFinite(entPer / basePer) ? ratio(entPer / basePer) : 'n/a',
      GOAL.memory.label,
      entPer / basePer <= GOAL.memory.max ? 'PASS' : 'MISS',
    ])
  }
  return goals
}

// ---------------------------------------------------------------- load

const byKeyPath = (n: number) => (r: () => number) => `/rest/Item(${1 + Math.floor(r() * n)})`
// As a browser sends `$filter="groupID=17"`: quotes percent-encoded, the rest as typed.
const filterPath = (r: () => number): string =>
  `/rest/Item?$filter=%22groupID=${1 + Math.floor(r() * GROUPS)}%22&$top=50`

/**
 * A typical reply of `origin` for paths from `next`: the median-size body of 15, checked to be a
 * 200 with JSON (a broken server must not be "measured").
 */
async function typicalReply(origin: string, make: (r: () => number) => string): Promise<string> {
  const random = prng(1)
  const bodies: string[] = []
  for (let i = 0; i < 15; i++) {
    const path = make(random)
    const res = await fetch(origin + path, { signal: AbortSignal.timeout(30_000) })
    const text = await res.text()
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${text.slice(0, 200)}`)
    JSON.parse(text)
    bodies.push(text)
  }
  bodies.sort((a, b) => Buffer.byteLength(a) - Buffer.byteLength(b))
  return bodies[bodies.length >> 1]!
}

interface Measure {
  readonly id: string
  readonly title: string
  readonly path: (r: () => number) => string
  readonly goals: boolean
}

/**
 * The table of one load measure: each server's req/s and latency, × the first one (raw node:http).
 * `versus` adds a column of req/s × the second server (the adapters suite: × `entistore serve`);
 * `p25: false` leaves the p25 columns out.
 */
export function loadTable(
  results: readonly LoadResult[],
  options: { readonly versus?: string; readonly p25?: boolean } = {},
): string {
  const [raw, second] = results as [LoadResult, LoadResult | undefined]
  const p25 = options.p25 ?? true
  const rows = results.map((x, i) => {
    const rel = (a: number, b: number): string => (i === 0 ? '1.00×' : ratio(a / b))
    const row = [x.label, count(Math.round(x.rps)), rel(x.rps, raw.rps)]
    if (options.versus !== undefined) row.push(i === 0 || !second ? '' : ratio(x.rps / second.rps))
    if (p25) row.push(ms(x.p25), rel(x.p25, raw.p25))
    row.push(ms(x.p50), rel(x.p50, raw.p50), ms(x.p99), rel(x.p99, raw.p99), count(x.ok))
    row.push(x.non2xx || x.errors ? `${count(x.non2xx)} / ${count(x.errors)}` : '')
    return row
  })
  const head = ['server', 'req/s', '× raw']
  if (options.versus !== undefined) head.push(options.versus)
  if (p25) head.push('p25 ms', '× raw')
  head.push('p50 ms', '× raw', 'p99 ms', '× raw', '2xx replies', 'non-2xx / errors')
  return table(
    head,
    rows,
    head.map((_, i) => (i === 0 ? 'l' : 'r')),
  )
}

function printLoad(m: Measure, rows: number, raw: LoadResult, ent: LoadResult): GoalRow[] {
  console.log(`\n### ${m.title} — ${sizeLabel(rows)} rows`)
  console.log(loadTable([raw, ent]))
  if (ent.non2xx || ent.errors)
    console.log(
      '- WARNING: entistore answered non-2xx replies or dropped connections (not counted)',
    )
  if (!m.goals) {
    console.log('- no goal: shown for the cost of a read that serializes 50 entities')
    return []
  }
  const rps = ent.rps / raw.rps
  const p25 = ent.p25 / raw.p25
  return [
    [
      sizeLabel(rows),
      m.id,
      'throughput',
      ratio(rps),
      GOAL.rps.label,
      rps >= GOAL.rps.min ? 'PASS' : 'MISS',
    ],
    [
      sizeLabel(rows),
      m.id,
      'latency p25',
      ratio(p25),
      GOAL.p25.label,
      p25 <= GOAL.p25.max ? 'PASS' : 'MISS',
    ],
  ]
}

async function measureLoad(origin: string, rows: number, o: HttpOptions): Promise<GoalRow[]> {
  const measures: Measure[] = [
    {
      id: 'GET Item(key)',
      title: 'GET /rest/Item(key), random keys',
      path: byKeyPath(rows),
      goals: true,
    },
    {
      id: '50-row filter',
      title: 'GET /rest/Item?$filter="groupID=<g>"&$top=50, random groups',
      path: filterPath,
      goals: false,
    },
  ]
  // The raw server answers each kind with a typical entistore reply of that kind, byte for byte.
  const entityBody = await typicalReply(origin, measures[0]!.path)
  const listBody = await typicalReply(origin, measures[1]!.path)
  const entityFile = join(CACHE_DIR, 'raw-entity.json')
  const listFile = join(CACHE_DIR, 'raw-list.json')
  writeFileSync(entityFile, entityBody)
  writeFileSync(listFile, listBody)
  const raw = await startNode(
    'raw node:http',
    [CHILD('raw-server.mjs'), entityFile, listFile],
    /^raw node:http at /,
    10_000,
  )
  const rawOrigin = ORIGIN.exec(raw.line)![0]
  console.log(
    `\nload: autocannon, ${o.load.connections} keep-alive connections, ${o.load.warmupSeconds} s ` +
      `warm-up each, then ${o.load.rounds} × ${o.load.seconds} s per server, alternating ` +
      `(raw, entistore, raw…). Raw node:http answers a fixed body: a median-size entistore reply ` +
      `(${count(Buffer.byteLength(entityBody))} B for an entity, ${count(Buffer.byteLength(listBody))} B ` +
      'for 50 rows). Latency: per reply, request written → reply read, in the load generator.',
  )
  const goals: GoalRow[] = []
  try {
    for (const m of measures) {
      const targets: LoadTarget[] = [
        { label: 'raw node:http, fixed body', origin: rawOrigin, path: m.path },
        { label: 'entistore serve', origin, path: m.path },
      ]
      const [r, e] = await compareLoad(targets, o.load)
      goals.push(...printLoad(m, rows, r!, e!))
    }
  } finally {
    await raw.child.stop()
  }
  return goals
}

// ---------------------------------------------------------------- the suite

/** Runs the suite, prints its tables, returns its goal rows. */
export async function runHttpSuite(o: HttpOptions): Promise<GoalRow[]> {
  const sizes = [...new Set([...o.startupSizes, o.rows])].sort((a, b) => a - b)
  const t0 = Date.now()
  const files = new Map(sizes.map((n) => [n, itemFiles(n)]))
  const written = [...files.values()].filter((f) => f.written)
  console.log(
    `data: ${sizes.map((n) => `${sizeLabel(n)} Items`).join(', ')} with ${GROUPS} Groups` +
      (written.length
        ? `; generated ${written.map((f) => sizeLabel(f.rows)).join(', ')} in ${ms(Date.now() - t0)} ms`
        : ' (cached)') +
      ` → ${CACHE_DIR}`,
  )

  const goals: GoalRow[] = []
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
      const ent = runs[1]!
      if (ent.child) await keep(ent.child, ent.origin!, n)
    }
    if (startups.length) goals.push(...printStartups(startups, o))

    if (!o.startupSizes.includes(o.rows) && (!server || server.rows < o.rows)) {
      try {
        const s = await startNode(
          `${ENTISTORE.label} (${sizeLabel(o.rows)} rows)`,
          ENTISTORE.args(files.get(o.rows)!),
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
      goals.push([sizeLabel(o.rows), 'GET Item(key)', 'throughput', 'n/a', GOAL.rps.label, 'MISS'])
    } else goals.push(...(await measureLoad(server.origin, server.rows, o)))
  } finally {
    await server?.child.stop()
  }
  return goals
}
