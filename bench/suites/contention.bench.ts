/**
 * @module Nothing waits in line (issue 47): how long a cheap request waits behind heavy ones, on
 * the real `entistore serve` (the built CLI) and on Entistore embedded in a host's node:http server,
 * black-box, from clients of their own.
 *
 * Data: the short rows (short-rows.ts: `Person`, ID, code, name, city, age, salary, groupID; five
 * indexes: code, name, city, age, groupID; salary has none), the scale suite's files (`SHORT`),
 * 1M rows by default. The issue calls the dataclass `Item`; the short rows are the same shape.
 *
 * Latency: GETs one at a time every 10 ms on one keep-alive connection of their own, from a
 * process of their own (child/prober.mjs, through the scale suite's `during`): a GET held 300 ms
 * is one sample of 300 ms, not thirty. Heavy reads: 4 clients in the bench process, each on a
 * keep-alive connection of its own, each sending the next of four reads as soon as the last
 * answered: an unindexed `$filter` on salary that finds a few dozen rows, every row sorted on
 * salary for a top 10, `$compute=sum` of salary over every row, and the count of half the rows (an
 * indexed range on age, `$top=0`). Measures, in this order:
 *
 * 1. serve: the first `code=` equality right after the URL line (its index not yet built: serve
 *    builds them in the background from that line on), its time and the GETs meanwhile;
 * 2. serve, every index built: GETs alone; the heavy reads alone (replies/s); GETs under the heavy
 *    reads (and the heavy reads' replies/s meanwhile, × alone);
 * 3. serve: 10 clients that ask `$top=100000` and never read their socket: the server's RSS
 *    growth (its peak against its settled RSS before) and GETs meanwhile;
 * 4. a host's node:http server (child/adapter-server.mjs `node`: `toNodeListener(rest)` beside a
 *    route `/ping` of its own, answered `ok`): the first `code=` there (no background build: the
 *    index is built on that query), then `/ping` alone and under the same heavy reads.
 *
 * Goals: GET p99 ≤ 10 ms and slowest ≤ 50 ms under the heavy reads, on serve and on the host's
 * route; the heavy reads under GETs ≥ 0.8× their replies/s alone; 10 slow readers ≤ +64 MB of RSS,
 * with no GET over 100 ms meanwhile.
 */
import { Agent, request } from 'node:http'
import { connect, type Socket } from 'node:net'
import { loadavg } from 'node:os'
import { prng } from '../data.ts'
import { quantile } from '../http-load.ts'
import { rssBytes, settledRss, startNode, type Child } from '../processes.ts'
import { count, mb, ms, ratio, sizeLabel, table } from '../report.ts'
import { codeOf } from '../short-rows.ts'
import { CHILD, ORIGIN, serveArgs as serveArgsOf } from './http.bench.ts'
import {
  during,
  heapFlagFor,
  INDEXES_BUILT,
  SHORT,
  type ProbeTarget,
  type Stall,
} from './scale.bench.ts'

export interface ContentionOptions {
  /** Person rows. @default 1M */
  readonly rows: number
  /** Seconds of each measure of GETs and heavy reads. @default 6 */
  readonly seconds: number
  /** Seconds the slow readers hold their replies. @default 4 */
  readonly slowSeconds: number
  /** Folder of the data files. @default the scale suite's */
  readonly dataDir: string
  /** How long a start-up may take, in ms. */
  readonly startupTimeoutMs: number
  /** serve's `--threads` of each of its runs, side by side. @default [0, 'auto'] */
  readonly threads?: readonly (number | 'auto')[]
  /** The heavy reads the clients loop over, by id of HEAVY_READS. @default HEAVY's */
  readonly reads?: readonly string[]
}

const GOAL = { p99Ms: 10, maxMs: 50, heavy: 0.8, slowRssMb: 64, slowGetMs: 100 } as const
/** Concurrent clients of the heavy reads. */
const HEAVY_CLIENTS = 4
/** Clients that ask for a large reply and never read it, and the rows each asks for. */
const SLOW_READERS = 10
const SLOW_TOP = 100_000
/** serve says when its background build is done from this many rows on (serve-run.ts). */
const BUILT_LINE_FROM = 1000

/**
 * One heavy request: a GET of `path`, or a POST of `body` to it (a 4D function's call, code-beside
 * suite). HEAVY's: every row of Person goes through it, none uses an index but `count`.
 */
export interface HeavyRead {
  readonly id: string
  readonly title: string
  readonly path: (rows: number, random: () => number) => string
  readonly body?: unknown
}

const filter = (f: string): string => `$filter=${encodeURIComponent(`"${f}"`)}`

export const HEAVY: readonly HeavyRead[] = [
  {
    id: 'scan',
    title: 'unindexed $filter "salary>x" (20–60 rows found)',
    // Salaries are spread evenly over 20,000–200,000: a threshold that leaves 20–60 rows.
    path: (n, r) =>
      `/rest/Person?${filter(`salary>${(200_000 - (180_000 * (20 + 40 * r())) / n).toFixed(2)}`)}`,
  },
  {
    id: 'top',
    title: '$orderby=salary desc&$top=10 (every row, no index)',
    path: () => '/rest/Person?$orderby=salary%20desc&$top=10',
  },
  {
    id: 'sum',
    title: '/Person/salary?$compute=sum (every row)',
    path: () => '/rest/Person/salary?$compute=sum',
  },
  {
    id: 'count',
    title: 'count of half the rows: $filter "age<44"&$top=0 (indexed)',
    path: () => `/rest/Person?${filter('age<44')}&$top=0`,
  },
]

/**
 * Heavy reads the default mix leaves out (`--contention-reads` adds them): a sort of every row
 * (the page of a middle rank: no top-k can serve it, every row's salary is ordered), and relation
 * chains (each row of a page reads its group's people, some 1/200 of the rows each; the groups' own
 * page reads every person once, and their group back).
 */
export const EXTRA_HEAVY: readonly HeavyRead[] = [
  {
    id: 'sort',
    title: '$orderby=salary&$skip=n/2&$top=10 (every row sorted, no index)',
    path: (n) => `/rest/Person?$orderby=salary&$skip=${Math.floor(n / 2)}&$top=10`,
  },
  {
    id: 'chain',
    title: "$top=2&$attributes=group.people.code (2 rows, their groups' people)",
    path: () => '/rest/Person?$top=2&$attributes=group.people.code',
  },
  {
    id: 'groups',
    title: "Group?$top=5&$attributes=people.group.name (5 groups' people and their group)",
    path: () => '/rest/Group?$top=5&$attributes=people.group.name',
  },
]

/** Every heavy read the suite knows, by id. */
export const HEAVY_READS: readonly HeavyRead[] = [...HEAVY, ...EXTRA_HEAVY]

/** The reads of `ids` (HEAVY without them); throws on an id HEAVY_READS does not have. */
export function heavyReads(ids: readonly string[] | undefined): readonly HeavyRead[] {
  if (ids === undefined) return HEAVY
  return ids.map((id) => {
    const read = HEAVY_READS.find((r) => r.id === id)
    if (!read)
      throw new Error(
        `--contention-reads: no heavy read "${id}" (${HEAVY_READS.map((r) => r.id).join(', ')})`,
      )
    return read
  })
}

/** The heavy reads of one measure: replies/s of all, the median time of each. */
export interface HeavyRun {
  readonly ok: number
  readonly failed: number
  readonly seconds: number
  readonly rps: number
  /** Median ms of each heavy read of the run, in its order (NaN if none answered). */
  readonly medianMs: readonly number[]
  /** The times of each heavy read of the run, in its order. */
  readonly times: readonly (readonly number[])[]
  readonly error?: string
}

/** The runs as one: their replies and seconds added, the medians of all their times. */
export function heavyRun(
  runs: readonly Pick<HeavyRun, 'failed' | 'seconds' | 'times' | 'error'>[],
): HeavyRun {
  const times = runs[0]!.times.map((_, i) => runs.flatMap((r) => r.times[i]!))
  const ok = times.reduce((a, t) => a + t.length, 0)
  const seconds = runs.reduce((a, r) => a + r.seconds, 0)
  const error = runs.find((r) => r.error !== undefined)?.error
  return {
    ok,
    failed: runs.reduce((a, r) => a + r.failed, 0),
    seconds,
    rps: ok / seconds,
    medianMs: times.map((t) => quantile(Float64Array.from(t).sort(), 0.5)),
    times,
    ...(error === undefined ? {} : { error }),
  }
}

/**
 * What a GET's (or, given a `sent` body, a POST's) time to its last byte was, its status (0: no
 * reply) and its body.
 */
export async function timedGet(
  url: string,
  agent: Agent | false,
  sent?: unknown,
): Promise<{ ms: number; status: number; body: string }> {
  const t0 = performance.now()
  const post = sent === undefined ? undefined : JSON.stringify(sent)
  return new Promise((resolve) => {
    const options =
      post === undefined
        ? { agent }
        : { agent, method: 'POST', headers: { 'Content-Type': 'application/json' } }
    const req = request(url, options, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (s: string) => (body += s))
      res.on('end', () =>
        resolve({ ms: performance.now() - t0, status: res.statusCode ?? 0, body }),
      )
      res.on('error', () => resolve({ ms: performance.now() - t0, status: 0, body }))
    })
    req.on('error', (e) => resolve({ ms: performance.now() - t0, status: 0, body: e.message }))
    req.end(post)
  })
}

/**
 * HEAVY_CLIENTS clients sending the heavy requests (`reads`, HEAVY by default) in turn for
 * `seconds` (each ends its last one).
 */
export async function heavyLoad(
  origin: string,
  rows: number,
  seconds: number,
  seed: number,
  reads: readonly HeavyRead[] = HEAVY,
): Promise<HeavyRun> {
  const agent = new Agent({ keepAlive: true, maxSockets: HEAVY_CLIENTS })
  const times = reads.map((): number[] => [])
  let failed = 0
  let error: string | undefined
  const t0 = performance.now()
  const end = t0 + seconds * 1000
  const client = async (c: number): Promise<void> => {
    const random = prng(seed * 100 + c)
    // Each client starts at another read, so that the four run side by side from the start, and
    // sends each read once at least: a measure shorter than a round still times every read.
    for (let k = c; k < c + reads.length || performance.now() < end; k++) {
      const i = k % reads.length
      const read = reads[i]!
      const r = await timedGet(origin + read.path(rows, random), agent, read.body)
      if (r.status === 200) times[i]!.push(r.ms)
      else {
        failed++
        error ??= `${read.id}: ${r.status} ${r.body.slice(0, 160)}`
      }
    }
  }
  await Promise.all(Array.from({ length: HEAVY_CLIENTS }, (_, c) => client(c)))
  const took = (performance.now() - t0) / 1000
  agent.destroy()
  return heavyRun([{ failed, seconds: took, times, ...(error === undefined ? {} : { error }) }])
}

/** The first `code=` equality of a server: its time, when it was sent, and the GETs meanwhile. */
export interface FirstQuery {
  readonly ms: number
  readonly status: number
  /** From the URL line to the query's send. */
  readonly sentAfterMs: number
  readonly gets: Stall
}

/** 10 slow readers: the server's RSS settled before, its peak meanwhile, and the GETs. */
export interface SlowRun {
  readonly rssBefore: number
  readonly rssPeak: number
  readonly gets: Stall
}

/** One run of `entistore serve`, with a number of worker threads (`--threads`). */
export interface ServeRun {
  readonly threads: number | 'auto'
  readonly startMs: number
  /** The background build of every index, as serve's line says (NaN below 1,000 rows). */
  readonly indexBuildMs: number
  readonly firstCode: FirstQuery
  readonly getAlone: Stall
  readonly heavyAlone: HeavyRun
  readonly getUnderHeavy: Stall
  readonly heavyUnderGets: HeavyRun
  readonly slow: SlowRun
}

export interface ContentionResult {
  readonly rows: number
  readonly load: readonly [number, number]
  readonly serves: readonly ServeRun[]
  readonly host: {
    readonly startMs: number
    readonly firstCode: FirstQuery
    readonly pingAlone: Stall
    readonly pingUnderHeavy: Stall
    readonly heavyUnderPings: HeavyRun
  }
}

const sleep = (msec: number): Promise<void> => new Promise((r) => setTimeout(r, msec))

/** The first `code=` query, sent as soon as a prober GETs beside it. */
async function firstCode(target: ProbeTarget, rows: number, readyAt: number): Promise<FirstQuery> {
  let time = NaN
  let status = 0
  let sentAfterMs = NaN
  const url = `${target.origin}/rest/Person?${filter(`code='${codeOf(Math.floor(rows / 3))}'`)}`
  const gets = await during(
    target,
    async () => {
      sentAfterMs = performance.now() - readyAt
      const r = await timedGet(url, false)
      time = r.ms
      status = r.status
      if (status !== 200) throw new Error(`code=: ${status} ${r.body.slice(0, 160)}`)
    },
    { leadMs: 0 },
  )
  return { ms: time, status, sentAfterMs, gets }
}

/** The GETs of `target` while the heavy reads run for `seconds` on its origin, and those reads. */
async function besideHeavy(
  target: ProbeTarget,
  rows: number,
  seconds: number,
  seed: number,
  reads: readonly HeavyRead[],
): Promise<{ gets: Stall; heavy: HeavyRun }> {
  let heavy: HeavyRun | undefined
  const gets = await during(
    target,
    async () => {
      heavy = await heavyLoad(target.origin, rows, seconds, seed, reads)
    },
    { leadMs: 0 },
  )
  return { gets, heavy: heavy! }
}

/**
 * Each heavy read once, and a few GETs: the JIT warm, the indexes the reads use built. A read the
 * server's query budget stops (9090: the host's handler has a budget of 2 s, which a sort of every
 * one of 10M rows exceeds) is its answer, not the suite's failure: the heavy reads count it failed.
 */
async function warmUp(origin: string, rows: number, reads: readonly HeavyRead[]): Promise<void> {
  const random = prng(99)
  for (const h of reads) {
    const r = await timedGet(origin + h.path(rows, random), false)
    if (r.status !== 200 && !r.body.includes('"errCode":9090'))
      throw new Error(`${h.id}: ${r.status} ${r.body.slice(0, 160)}`)
  }
}

/**
 * SLOW_READERS raw connections each asking for SLOW_TOP rows and never reading (paused from the
 * start: the kernel's buffers fill, then the server's), held `seconds`, then destroyed.
 */
async function slowReaders(child: Child, target: ProbeTarget, seconds: number): Promise<SlowRun> {
  const before = await settledRss(child, 10_000)
  const { hostname, port, host } = new URL(target.origin)
  let peak = before.bytes
  const sockets: Socket[] = []
  try {
    const gets = await during(target, async () => {
      for (let i = 0; i < SLOW_READERS; i++) {
        const s = connect(Number(port), hostname)
        s.on('error', () => {})
        s.pause()
        s.write(`GET /rest/Person?$top=${SLOW_TOP} HTTP/1.1\r\nHost: ${host}\r\n\r\n`)
        sockets.push(s)
      }
      const end = performance.now() + seconds * 1000
      while (performance.now() < end) {
        peak = Math.max(peak, rssBytes(child.pid))
        await sleep(50)
      }
    })
    return { rssBefore: before.bytes, rssPeak: peak, gets }
  } finally {
    for (const s of sockets) s.destroy()
  }
}

/**
 * Starts node with `args`, runs `body` once its URL line is out (its origin, the time to that line,
 * the moment it came), and stops it whatever happens.
 */
export async function serving<T>(
  label: string,
  args: readonly string[],
  timeoutMs: number,
  body: (s: { child: Child; origin: string; startMs: number; readyAt: number }) => Promise<T>,
): Promise<T> {
  const started = await startNode(label, args, ORIGIN, timeoutMs)
  const readyAt = performance.now()
  try {
    const origin = ORIGIN.exec(started.line)![0]
    return await body({ child: started.child, origin, startMs: started.ms, readyAt })
  } finally {
    await started.child.stop()
  }
}

export async function runContentionSuite(o: ContentionOptions): Promise<ContentionResult> {
  const n = o.rows
  const reads = heavyReads(o.reads)
  const label = `${sizeLabel(n)} rows`
  const t0 = performance.now()
  const files = SHORT.files(n, o.dataDir)
  console.log(
    `\n${label}: ${mb(files.bytes / 2 ** 20)} MB data file` +
      (files.written ? ` (written in ${ms(performance.now() - t0)} ms)` : ' (cached)') +
      `; load average ${loadavg()[0]!.toFixed(1)} at the start`,
  )
  const { node } = heapFlagFor(files)
  const loadStart = loadavg()[0]!
  const timeout = o.startupTimeoutMs
  const getOf = (origin: string): ProbeTarget => ({
    origin,
    dataclass: 'Person',
    rows: n,
    keepAlive: true,
  })
  const step = (what: string): void =>
    console.log(`  ${what} (${((performance.now() - t0) / 1000).toFixed(0)} s)`)

  // ---- entistore serve, once per --threads
  const serves: ServeRun[] = []
  for (const threads of o.threads ?? [0, 'auto']) {
    const serveArgs = [...serveArgsOf(files), '--threads', String(threads)]
    const at = `serve --threads ${threads}`
    serves.push(
      await serving(
        `entistore serve --threads ${threads} (${label})`,
        node(serveArgs),
        timeout,
        async ({ child, origin, startMs, readyAt }): Promise<ServeRun> => {
          const get = getOf(origin)
          step(`${at}: URL line after ${ms(startMs)} ms`)
          const code = await firstCode(get, n, readyAt)
          let indexBuildMs = NaN
          if (n >= BUILT_LINE_FROM) {
            const line = await child.lineAfterReady(INDEXES_BUILT, timeout)
            indexBuildMs = Number(INDEXES_BUILT.exec(line)![1])
          }
          step(`${at}: first code= in ${ms(code.ms)} ms; indexes built in ${ms(indexBuildMs)} ms`)
          await warmUp(origin, n, reads)
          const getAlone = await during(get, () => sleep(o.seconds * 1000))
          // Alone: half before the GETs, half after, so that a drift of the shared machine
          // meanwhile weighs on both sides of the ratio alike.
          const aloneBefore = await heavyLoad(origin, n, o.seconds / 2, 1, reads)
          const under = await besideHeavy(get, n, o.seconds, 2, reads)
          const heavyAlone = heavyRun([
            aloneBefore,
            await heavyLoad(origin, n, o.seconds / 2, 3, reads),
          ])
          step(
            `${at}: GETs under heavy reads, p99 ${ms(under.gets.p99Ms)} ms; heavy reads ` +
              `${ms(under.heavy.rps)}/s, alone ${ms(heavyAlone.rps)}/s`,
          )
          const slow = await slowReaders(child, get, o.slowSeconds)
          step(`${at}: slow readers, +${mb((slow.rssPeak - slow.rssBefore) / 2 ** 20)} MB`)
          return {
            threads,
            startMs,
            indexBuildMs,
            firstCode: code,
            getAlone,
            heavyAlone,
            getUnderHeavy: under.gets,
            heavyUnderGets: under.heavy,
            slow,
          }
        },
      ),
    )
  }

  // ---- a host's node:http server, Entistore under /rest beside its /ping
  const host = await serving(
    `node:http host (${label})`,
    node([CHILD('adapter-server.mjs'), 'node', files.model, files.data]),
    timeout,
    async ({ origin, startMs, readyAt }): Promise<ContentionResult['host']> => {
      step(`host: listening after ${ms(startMs)} ms`)
      const code = await firstCode(getOf(origin), n, readyAt)
      await warmUp(origin, n, reads)
      const ping: ProbeTarget = { ...getOf(origin), path: '/ping' }
      const pingAlone = await during(ping, () => sleep((o.seconds * 1000) / 2))
      const under = await besideHeavy(ping, n, o.seconds, 4, reads)
      step(`host: /ping under heavy reads, p99 ${ms(under.gets.p99Ms)} ms`)
      return {
        startMs,
        firstCode: code,
        pingAlone,
        pingUnderHeavy: under.gets,
        heavyUnderPings: under.heavy,
      }
    },
  )
  const result: ContentionResult = { rows: n, load: [loadStart, loadavg()[0]!], serves, host }
  printContention(result, o)
  return result
}

// ---------------------------------------------------------------- report

const verdict = (ok: boolean): 'PASS' | 'MISS' => (ok ? 'PASS' : 'MISS')
const lat = (s: Stall): string[] => [
  ms(s.medianMs),
  ms(s.p99Ms),
  ms(s.slowestMs),
  count(s.probes) + (s.failed ? ` (${s.failed} failed)` : ''),
]
const okUnder = (s: Stall): boolean =>
  s.p99Ms <= GOAL.p99Ms && s.slowestMs <= GOAL.maxMs && s.failed === 0 && !s.error
const rssGrowthMb = (s: SlowRun): number => (s.rssPeak - s.rssBefore) / 2 ** 20

/** The tables of one run: latencies, the heavy reads, the first queries, the goals. */
export function printContention(r: ContentionResult, o: ContentionOptions): void {
  const { serves, host: h } = r
  const name = (x: ServeRun): string => `serve --threads ${x.threads}`
  const under = `under ${HEAVY_CLIENTS} heavy clients`
  console.log(
    `\n### Contention, ${sizeLabel(r.rows)} rows: a cheap GET every 10 ms on its own keep-alive ` +
      `connection, one at a time (ms; load average ${r.load[0].toFixed(1)} → ${r.load[1].toFixed(1)})`,
  )
  const goalLat = `p99 ≤ ${GOAL.p99Ms}, max ≤ ${GOAL.maxMs}`
  console.log(
    table(
      ['server', 'GETs', 'p50', 'p99', 'max', 'answered', 'goal', 'verdict'],
      [
        ...serves.flatMap((s) => [
          [name(s), 'GET /rest/Person(k), alone', ...lat(s.getAlone), '', ''],
          [
            name(s),
            `GET /rest/Person(k), ${under}`,
            ...lat(s.getUnderHeavy),
            goalLat,
            verdict(okUnder(s.getUnderHeavy)),
          ],
          [
            name(s),
            `GET /rest/Person(k), ${SLOW_READERS} slow readers`,
            ...lat(s.slow.gets),
            `max ≤ ${GOAL.slowGetMs}`,
            verdict(s.slow.gets.slowestMs <= GOAL.slowGetMs && s.slow.gets.failed === 0),
          ],
          [
            name(s),
            'GET /rest/Person(k), during the first code=',
            ...lat(s.firstCode.gets),
            '',
            '',
          ],
        ]),
        ['host', 'GET /ping (the host’s route), alone', ...lat(h.pingAlone), '', ''],
        [
          'host',
          `GET /ping (the host’s route), ${under}`,
          ...lat(h.pingUnderHeavy),
          goalLat,
          verdict(okUnder(h.pingUnderHeavy)),
        ],
        ['host', 'GET /rest/Person(k), during the first code=', ...lat(h.firstCode.gets), '', ''],
      ],
      ['l', 'l', 'r', 'r', 'r', 'r', 'l', 'l'],
    ),
  )

  const heavyRow = (server: string, what: string, x: HeavyRun, alone?: HeavyRun): string[] => [
    server,
    what,
    `${ms(x.rps)}/s`,
    alone ? ratio(x.rps / alone.rps) : '',
    ...x.medianMs.map(ms),
    `${count(x.ok)}${x.failed ? ` (${x.failed} failed)` : ''}`,
    alone ? `≥ ${GOAL.heavy}× alone` : '',
    alone ? verdict(x.rps / alone.rps >= GOAL.heavy && x.failed === 0) : '',
  ]
  console.log(
    `\nHeavy reads, ${HEAVY_CLIENTS} keep-alive clients for ${o.seconds} s (alone: half before the GETs, half after): ` +
      `replies/s, and the median ms of each read, waits behind the others included`,
  )
  const reads = heavyReads(o.reads)
  for (const x of reads) console.log(`- ${x.id}: ${x.title}`)
  console.log(
    table(
      [
        'server',
        'heavy reads',
        'replies/s',
        '× alone',
        ...reads.map((x) => `${x.id} ms`),
        'replies',
        'goal',
        'verdict',
      ],
      [
        ...serves.flatMap((s) => [
          heavyRow(name(s), 'alone', s.heavyAlone),
          heavyRow(name(s), 'beside the GETs', s.heavyUnderGets, s.heavyAlone),
        ]),
        heavyRow('host', 'beside the pings', h.heavyUnderPings),
      ],
      ['l', 'l', 'r', 'r', ...reads.map((): 'r' => 'r'), 'r', 'l', 'l'],
    ),
  )
  for (const x of [...serves.flatMap((s) => [s.heavyAlone, s.heavyUnderGets]), h.heavyUnderPings])
    if (x.error) console.log(`- a heavy read failed: ${x.error}`)
  // One at a time, the server's time per heavy read is the inverse of its replies/s alone.
  for (const s of serves)
    console.log(
      `- ${name(s)}'s time per heavy read, alone: ≈${ms(1000 / s.heavyAlone.rps)} ms (1 / replies/s)`,
    )
  if (serves.length > 1)
    console.log(
      `- heavy reads alone, × the first run: ` +
        serves
          .map((s) => `${name(s)} ${ratio(s.heavyAlone.rps / serves[0]!.heavyAlone.rps)}`)
          .join(', '),
    )

  const first = (server: string, q: FirstQuery, built: string): string[] => [
    server,
    `${ms(q.ms)} ms${q.status === 200 ? '' : ` (${q.status})`}`,
    `${ms(q.sentAfterMs)} ms`,
    built,
    `${ms(q.gets.slowestMs)} ms (${q.gets.probes})`,
  ]
  console.log('\nThe first code= equality right after the start, and the slowest GET meanwhile')
  console.log(
    table(
      ['server', 'code= time', 'sent after the start', "the indexes' build", 'slowest GET'],
      [
        ...serves.map((s) =>
          first(
            name(s),
            s.firstCode,
            `in the background from the URL line: ${ms(s.indexBuildMs)} ms in all`,
          ),
        ),
        first('host', h.firstCode, 'none before: built for that query'),
      ],
      ['l', 'r', 'r', 'l', 'r'],
    ),
  )

  for (const s of serves) {
    const growth = rssGrowthMb(s.slow)
    console.log(
      `\n${name(s)}, ${SLOW_READERS} readers of $top=${count(SLOW_TOP)} that never read, for ${o.slowSeconds} s: ` +
        `RSS ${mb(s.slow.rssBefore / 2 ** 20)} MB settled before, ${mb(s.slow.rssPeak / 2 ** 20)} MB at its peak (+${mb(growth)} MB)`,
    )
  }

  const goals: string[][] = [
    ...serves.flatMap((s) => [
      [
        `${name(s)}: GET p99 / max ${under}`,
        `≤ ${GOAL.p99Ms} / ${GOAL.maxMs} ms`,
        `${ms(s.getUnderHeavy.p99Ms)} / ${ms(s.getUnderHeavy.slowestMs)} ms`,
        verdict(okUnder(s.getUnderHeavy)),
      ],
      [
        `${name(s)}: heavy reads beside the GETs × alone`,
        `≥ ${GOAL.heavy}×`,
        ratio(s.heavyUnderGets.rps / s.heavyAlone.rps),
        verdict(s.heavyUnderGets.rps / s.heavyAlone.rps >= GOAL.heavy),
      ],
      [
        `${name(s)}: RSS growth, ${SLOW_READERS} slow readers`,
        `≤ +${GOAL.slowRssMb} MB`,
        `+${mb(rssGrowthMb(s.slow))} MB`,
        verdict(rssGrowthMb(s.slow) <= GOAL.slowRssMb),
      ],
      [
        `${name(s)}: slowest GET beside ${SLOW_READERS} slow readers`,
        `≤ ${GOAL.slowGetMs} ms`,
        `${ms(s.slow.gets.slowestMs)} ms`,
        verdict(s.slow.gets.slowestMs <= GOAL.slowGetMs && s.slow.gets.failed === 0),
      ],
    ]),
    [
      `host: /ping p99 / max ${under}`,
      `≤ ${GOAL.p99Ms} / ${GOAL.maxMs} ms`,
      `${ms(h.pingUnderHeavy.p99Ms)} / ${ms(h.pingUnderHeavy.slowestMs)} ms`,
      verdict(okUnder(h.pingUnderHeavy)),
    ],
  ]
  console.log('\nGoals')
  console.log(table(['measure', 'goal', 'measured', 'verdict'], goals, ['l', 'l', 'r', 'l']))
  console.log(`${goals.filter((g) => g[3] === 'PASS').length} of ${goals.length} pass.`)
}
