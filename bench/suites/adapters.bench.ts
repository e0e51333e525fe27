/**
 * @module The adapters suite: the REST interface as users meet it in each framework, on a socket,
 * in one run and under one load generator: a bare node:http handler answering same-sized bodies
 * (the baseline), `entistore serve` (`toNodeListener` on node:http), Express 5 (`expressRest`, with
 * and without `express.json()` in front), Fastify 5 (`fastifyRest`) and Hono on @hono/node-server
 * (`honoRest`), each serving the http suite's Group/Item files at /rest.
 *
 * Every server is a child process (child/adapter-server.mjs, child/raw-routes-server.mjs, the CLI)
 * running the built packages, as an application does; the bench process only generates load. The
 * servers run side by side and the load rounds alternate between them (http-load.ts), so a drift of
 * the shared machine hits all alike. Three requests: a read by key, a `$filter` with `$top=10`, and
 * a small update by POST.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type autocannon from 'autocannon'
import { prng } from '../data.ts'
import { compareLoad, type LoadOptions, type LoadResult, type LoadTarget } from '../http-load.ts'
import { CACHE_DIR, GROUPS, itemFiles, type DataFiles } from '../items.ts'
import { startNode, type Child } from '../processes.ts'
import { count, ms, ratio, sizeLabel, table } from '../report.ts'
import { CHILD, ENTISTORE, loadTable, ORIGIN, type GoalRow } from './http.bench.ts'

export interface AdaptersOptions {
  /** Item rows every server loads. */
  readonly rows: number
  readonly startupTimeoutMs: number
  readonly load: LoadOptions
}

/**
 * Set after measuring (bench/README.md, "Framework adapters"), with a margin for this shared
 * machine's noise: the node listener against the bare handler on the read by key (the other two
 * requests do work a fixed body skips: shown, not held), and each framework against the node
 * listener on every request, by what the framework alone costs: bare Express 5 and Hono on
 * @hono/node-server answer a fixed body at ≈0.3× raw node:http here, bare Fastify at ≈1×.
 */
const GOAL_LISTENER = { min: 0.3, label: '≥0.3× raw req/s' }
const SLOW_FRAMEWORK = { min: 0.3, label: '≥0.3× serve req/s' }
const FAST_FRAMEWORK = { min: 0.7, label: '≥0.7× serve req/s' }
type Goal = typeof GOAL_LISTENER

// ---------------------------------------------------------------- servers

interface Server {
  readonly label: string
  readonly args: (f: DataFiles) => string[]
  readonly ready: RegExp
  /** Of a framework: its req/s against entistore serve's. */
  readonly goal?: Goal
}

const adapter = (kind: string, label: string, goal: Goal): Server => ({
  label,
  args: (f) => [CHILD('adapter-server.mjs'), kind, f.model, f.data],
  ready: new RegExp(`^${kind} at `),
  goal,
})

const SERVE: Server = { ...ENTISTORE, label: 'entistore serve (toNodeListener)' }
const ADAPTERS: readonly Server[] = [
  adapter('express', 'Express 5, expressRest', SLOW_FRAMEWORK),
  adapter('express-json', 'Express 5, express.json() + expressRest', SLOW_FRAMEWORK),
  adapter('fastify', 'Fastify 5, fastifyRest', FAST_FRAMEWORK),
  adapter('hono', 'Hono, honoRest on @hono/node-server', SLOW_FRAMEWORK),
]

// ---------------------------------------------------------------- requests

const JSON_HEADERS = { 'content-type': 'application/json' }
const UPDATE_PATH = '/rest/Item?$method=update'

interface Measure {
  readonly id: string
  readonly title: string
  /** The raw server's body file for it (a median-size entistore reply). */
  readonly file: string
  /** Whether entistore serve is held to GOAL_LISTENER on it. */
  readonly held: boolean
  readonly request: (random: () => number) => autocannon.Request
}

function measures(rows: number): Measure[] {
  const key = (r: () => number): number => 1 + Math.floor(r() * rows)
  return [
    {
      id: 'GET Item(key)',
      title: 'GET /rest/Item(key), random keys',
      file: 'adapters-entity.json',
      held: true,
      request: (r) => ({ method: 'GET', path: `/rest/Item(${key(r)})` }),
    },
    {
      id: 'filter $top=10',
      title: 'GET /rest/Item?$filter="groupID=<g>"&$top=10, random groups',
      file: 'adapters-list.json',
      held: false,
      // As a browser sends `$filter="groupID=17"`: quotes percent-encoded, the rest as typed.
      request: (r) => ({
        method: 'GET',
        path: `/rest/Item?$filter=%22groupID=${1 + Math.floor(r() * GROUPS)}%22&$top=10`,
      }),
    },
    {
      id: 'POST update',
      title: `POST ${UPDATE_PATH}  {"__KEY": k, "qty": v}, random keys`,
      file: 'adapters-update.json',
      held: false,
      request: (r) => ({
        method: 'POST',
        path: UPDATE_PATH,
        headers: JSON_HEADERS,
        body: JSON.stringify({ __KEY: String(key(r)), qty: Math.floor(r() * 1000) }),
      }),
    },
  ]
}

/**
 * `n` replies of `origin` to requests from `make` (seed 1), each checked to be a 200 with JSON: a
 * broken server must not be "measured". Sorted by size.
 */
export async function replies(
  origin: string,
  make: (r: () => number) => autocannon.Request,
  n: number,
): Promise<string[]> {
  const random = prng(1)
  const bodies: string[] = []
  for (let i = 0; i < n; i++) {
    const { method = 'GET', path = '/', headers, body } = make(random)
    const res = await fetch(origin + path, {
      method,
      headers: headers as Record<string, string> | undefined,
      body: body as string | undefined,
      signal: AbortSignal.timeout(30_000),
    })
    const text = await res.text()
    if (res.status !== 200)
      throw new Error(`${method} ${origin}${path}: ${res.status} ${text.slice(0, 200)}`)
    JSON.parse(text)
    bodies.push(text)
  }
  return bodies.sort((a, b) => Buffer.byteLength(a) - Buffer.byteLength(b))
}

// ---------------------------------------------------------------- tables

/** The goal rows of one request: serve × raw (if held), each framework × serve. */
function goalRows(rows: number, m: Measure, results: readonly LoadResult[]): GoalRow[] {
  const [raw, serve, ...adapters] = results as [LoadResult, LoadResult, ...LoadResult[]]
  const row = (label: string, x: number, goal: Goal): GoalRow => [
    sizeLabel(rows),
    m.id,
    label,
    ratio(x),
    goal.label,
    x >= goal.min ? 'PASS' : 'MISS',
  ]
  return [
    ...(m.held ? [row(serve.label, serve.rps / raw.rps, GOAL_LISTENER)] : []),
    ...adapters.map((a, i) => row(a.label, a.rps / serve.rps, ADAPTERS[i]!.goal!)),
  ]
}

/** One line per server, one column per request: req/s (× raw), then p50 / p99 ms. */
function summary(all: readonly (readonly LoadResult[])[], ms_: readonly Measure[]): string {
  const servers = all[0]!.map((x) => x.label)
  const rows = servers.map((label, s) => [
    label,
    ...all.flatMap((results) => {
      const x = results[s]!
      return [
        `${count(Math.round(x.rps))} (${ratio(x.rps / results[0]!.rps)})`,
        `${ms(x.p50)} / ${ms(x.p99)}`,
      ]
    }),
  ])
  return table(['server', ...ms_.flatMap((m) => [`${m.id} req/s (× raw)`, 'p50 / p99 ms'])], rows, [
    'l',
    ...ms_.flatMap((): ('l' | 'r')[] => ['r', 'r']),
  ])
}

// ---------------------------------------------------------------- the suite

/** Runs the suite, prints its tables, returns its goal rows. */
export async function runAdaptersSuite(o: AdaptersOptions): Promise<GoalRow[]> {
  const t0 = Date.now()
  const files = itemFiles(o.rows)
  console.log(
    `data: ${sizeLabel(o.rows)} Items with ${GROUPS} Groups` +
      (files.written ? `; generated in ${ms(Date.now() - t0)} ms` : ' (cached)') +
      ` → ${CACHE_DIR}`,
  )
  const children: Child[] = []
  const start = async (s: Server): Promise<string> => {
    const started = await startNode(s.label, s.args(files), s.ready, o.startupTimeoutMs)
    children.push(started.child)
    return ORIGIN.exec(started.line)![0]
  }
  try {
    const all = measures(o.rows)
    const serveOrigin = await start(SERVE)
    // The raw server answers each request with a median-size entistore reply to it (of 15).
    const bodies: string[] = []
    for (const m of all) {
      const sample = await replies(serveOrigin, m.request, 15)
      const body = sample[sample.length >> 1]!
      writeFileSync(join(CACHE_DIR, m.file), body)
      bodies.push(body)
    }
    const rawOrigin = await start({
      label: 'raw node:http, fixed bodies',
      args: () => [CHILD('raw-routes-server.mjs'), ...all.map((m) => join(CACHE_DIR, m.file))],
      ready: /^raw node:http at /,
    })
    const servers: { label: string; origin: string }[] = [
      { label: 'raw node:http, fixed bodies', origin: rawOrigin },
      { label: SERVE.label, origin: serveOrigin },
    ]
    for (const s of ADAPTERS) {
      const origin = await start(s)
      // Every adapter answers every request before it is loaded.
      for (const m of all) await replies(origin, m.request, 1)
      servers.push({ label: s.label, origin })
    }
    console.log(
      `\nload: autocannon, ${o.load.connections} keep-alive connections, ${o.load.warmupSeconds} s ` +
        `warm-up each, then ${o.load.rounds} × ${o.load.seconds} s per server and request, ` +
        `rounds alternating over the ${servers.length} servers (all running, idle but the one ` +
        `loaded). Raw node:http answers a fixed body, a median-size entistore reply ` +
        `(${all.map((m, i) => `${count(Buffer.byteLength(bodies[i]!))} B ${m.id}`).join(', ')}), ` +
        'and reads and JSON.parse-s a POST body first. × serve = req/s ÷ entistore serve.',
    )
    const goals: GoalRow[] = []
    const results: LoadResult[][] = []
    for (const m of all) {
      const targets: LoadTarget[] = servers.map((s) => ({ ...s, request: m.request }))
      const r = await compareLoad(targets, o.load)
      results.push(r)
      console.log(`\n### ${m.title} — ${sizeLabel(o.rows)} rows`)
      console.log(loadTable(r, { versus: '× serve', p25: false }))
      if (r.some((x) => x.non2xx || x.errors))
        console.log('- WARNING: non-2xx replies or dropped connections (not counted)')
      goals.push(...goalRows(o.rows, m, r))
    }
    console.log(`\n### adapters summary — ${sizeLabel(o.rows)} rows`)
    console.log(summary(results, all))
    return goals
  } finally {
    for (const c of children) await c.stop()
  }
}
