/**
 * @module Ten million rows in one process (issue 30's measures): the real `entistore serve` (the
 * built CLI) on large data files, size after size, one large process at a time.
 *
 * For each size, of short rows (short-rows.ts: Person, seven attributes, five indexes) and of long
 * ones (items.ts: Item with ≈250 characters of text):
 *
 * - **Start-up**: spawn → the URL line of `entistore serve -m -d` against a node child reading and
 *   `JSON.parse`-ing the same file (child/json-parse.mjs) until it prints.
 * - **Restart**: `serve --persist` killed with SIGKILL after 10,000 writes, started again on its
 *   folder (and the data file, which a folder with data wins over): spawn → URL line.
 * - **Memory**: the serving process's settled RSS per row (after a full GC, processes.ts) once
 *   every index is built, against the `JSON.parse` child's.
 * - **Stalls**: GETs by random key (`/rest/Person(k)`, a new connection each, one at a time every
 *   10 ms, sent by a process of their own: child/prober.mjs) during each of: the indexes' build in the
 *   background, from the URL line to serve's `Built N indexes` line (and how long it took); then,
 *   on the idle server; the first `$filter` on the unique `code` (its index built by then); an
 *   `entistore clone` of the server (its time; the clone then served, `serve -m -d` of what it
 *   wrote, must reach its URL line with the same rows); a `--watch` reload (the model file written
 *   again: the data file loaded beside the store served, then the new store's indexes built, until
 *   serve's `Built` line; the server of all these runs with `--watch`); a `--save` (SIGUSR2, until the `Saved`
 *   line), and 10,000 updates with `--persist` (8 clients; the default `snapshotEvery` of 10,000
 *   records, so one snapshot, waited for until its file is in the folder). The slowest and the
 *   p99 of each, beside the idle server's.
 *
 * Data files are written once (streamed: a 10M-row file is past V8's 512 MiB string) into
 * /work/scale-data when that folder exists, else the bench cache, by shape, version and size.
 * When a file is large for Node's default heap, every child gets the `--max-old-space-size` the
 * CLI's start-up line would ask for (heap-advice.ts), so that what is measured is the engine.
 */
import { fork } from 'node:child_process'
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { loadavg, tmpdir, totalmem } from 'node:os'
import { dirname, join } from 'node:path'
import { getHeapStatistics } from 'node:v8'
import { heapAdvice } from '../../packages/entistore/src/load/heap-advice.ts'
import { prng } from '../data.ts'
import { quantile } from '../http-load.ts'
import {
  CACHE_DIR,
  cachedJsonFiles,
  ITEM_MODEL,
  itemChunks,
  jsonPieces,
  makeGroups,
  type DataFiles,
} from '../items.ts'
import { settledRss, startNode, type Child, type Settled } from '../processes.ts'
import { count, mb, ms, ratio, sizeLabel, table } from '../report.ts'
import { barChart } from '../svg-chart.ts'
import { codeOf, SHORT_MODEL, shortRowChunks } from '../short-rows.ts'
import { CHILD, CLI, JSON_PARSE, ORIGIN, serveArgs as serveArgsOf } from './http.bench.ts'

/** Where the large data files are kept between runs (and shared with other work on the machine). */
export const SCALE_DATA = existsSync('/work/scale-data') ? '/work/scale-data' : CACHE_DIR

export interface ScaleOptions {
  /** Sizes of short rows. @default 1M, 4M, 10M */
  readonly shortSizes: readonly number[]
  /** Sizes of long rows. @default 1M */
  readonly longSizes: readonly number[]
  /** How long a start-up may take before it is given up, in ms. @default 20 min */
  readonly startupTimeoutMs: number
  /** Seconds of GETs on the idle server. @default 3 */
  readonly idleSeconds: number
  /** Updates of the snapshot measure. @default 10,000 (the default snapshotEvery) */
  readonly writes: number
  /** Folder of the data files. @default SCALE_DATA */
  readonly dataDir: string
  /** Where to write the chart of the slowest GETs (docs/bench-charts/…), if anywhere. */
  readonly chart?: string
}

/** The goals of issue 30. */
const GOAL = { startup: 2, rss: 1.5, stallMs: 50 } as const
/** A GET by key every this many ms, one at a time. */
const PROBE_EVERY_MS = 10
/** Concurrent clients of the writes (keep-alive, each waits for its reply). */
const WRITERS = 8
/** The journal's default `snapshotEvery`: fewer writes than this take no snapshot. */
const SNAPSHOT_EVERY = 10_000

export interface Shape {
  readonly id: 'short' | 'long'
  readonly dataclass: 'Person' | 'Item'
  readonly files: (n: number, dir: string) => DataFiles
  /** The first query on a unique or first index. */
  readonly firstFilter: (n: number) => string
  /** The update of row `key`, its `i`-th. */
  readonly update: (key: number, i: number) => Record<string, unknown>
}

/** The short rows (Person, five indexes), streamed into `dir`; the contention suite serves them too. */
export const SHORT: Shape = {
  id: 'short',
  dataclass: 'Person',
  files: (n, dir) =>
    cachedJsonFiles(dir, 'short', 2, SHORT_MODEL, n, () =>
      jsonPieces({ Group: [makeGroups()], Person: shortRowChunks(n) }),
    ),
  firstFilter: (n) => `code='${codeOf(Math.floor(n / 2))}'`,
  update: (key, i) => ({ __KEY: String(key), salary: 20_000 + (i % 1000) }),
}

const LONG: Shape = {
  id: 'long',
  dataclass: 'Item',
  files: (n, dir) =>
    cachedJsonFiles(dir, 'items', 1, ITEM_MODEL, n, () =>
      jsonPieces({ Group: [makeGroups()], Item: itemChunks(n) }),
    ),
  firstFilter: () => `name='nobody'`,
  update: (key, i) => ({ __KEY: String(key), qty: i % 1000 }),
}

/** GETs during one piece of work: their latencies, and how long the work took. */
export interface Stall {
  readonly probes: number
  readonly failed: number
  readonly slowestMs: number
  readonly p99Ms: number
  readonly medianMs: number
  readonly workMs: number
  /** What went wrong with the work itself, if anything. */
  readonly error?: string
}

export interface ScaleRow {
  readonly shape: Shape['id']
  readonly rows: number
  readonly fileBytes: number
  readonly heapFlag?: string
  readonly parse: { ms: number; rss?: Settled; error?: string }
  readonly serve: { ms: number; rssIndexed?: Settled; error?: string }
  /** The indexes' build in the background after the URL line, as serve's line says (ms). */
  readonly indexBuildMs: number
  /** `entistore clone` of the server in (A), and its data file served again. */
  readonly clone: CloneRun
  readonly persistFirstMs: number
  readonly restartMs: number
  /**
   * When the JSON.parse child failed (a file past V8's 512 MiB string): the rows of the smaller
   * file its figures are scaled from, and those figures (its time and RSS per row, times `rows`).
   */
  readonly parseFrom?: number
  readonly parseEstimate?: { ms: number; rssPerRow: number }
  /** Updates sent during the snapshot measure. */
  readonly writes: number
  readonly stalls: Partial<Record<StallId, Stall>>
}

/** An `entistore clone` of the running server, then `serve -m -d` of the files it wrote. */
export interface CloneRun {
  /** Spawn → the clone's exit (its files written). */
  readonly ms: number
  /** Spawn → the URL line of `serve` on the clone's files. */
  readonly loadMs: number
  /** The rows of each dataclass the clone's `serve` says it serves, as its URL line gives them. */
  readonly rows?: string
  /** Whether they are the rows the server cloned said it served. */
  readonly sameRows: boolean
  readonly error?: string
}

type StallId = 'idle' | 'index' | 'firstQuery' | 'save' | 'snapshot' | 'clone' | 'reload'

export async function runScaleSuite(o: ScaleOptions): Promise<ScaleRow[]> {
  const rows: ScaleRow[] = []
  const runs = [
    ...o.shortSizes.map((n) => [SHORT, n] as const),
    ...o.longSizes.map((n) => [LONG, n] as const),
  ]
  console.log(`\ndata files in ${o.dataDir}; load average ${loadavg()[0]!.toFixed(1)} at the start`)
  for (const [shape, n] of runs) {
    let row = await measureSize(shape, n, o)
    // Past 512 MiB no JSON.parse child can read the file: its figures are those of the largest
    // smaller file of the same shape that it could, per row (marked as such in the tables).
    if (row.parse.rss === undefined) {
      const from = rows
        .filter((r) => r.shape === shape.id && r.parse.rss !== undefined)
        .sort((a, b) => b.rows - a.rows)[0]
      if (from) row = { ...row, parseFrom: from.rows, parseEstimate: scaled(from, n) }
    }
    rows.push(row)
    printRows(rows.slice(-1))
  }
  console.log(`\nload average ${loadavg()[0]!.toFixed(1)} at the end`)
  if (rows.length > 1) printRows(rows)
  if (o.chart) {
    writeFileSync(
      o.chart,
      stallChart(rows.map((r) => ({ label: `${sizeLabel(r.rows)} ${r.shape}`, stalls: r.stalls }))),
    )
    console.log(`chart: ${o.chart}`)
  }
  return rows
}

const sleep = (msec: number): Promise<void> => new Promise((r) => setTimeout(r, msec))

async function measureSize(shape: Shape, n: number, o: ScaleOptions): Promise<ScaleRow> {
  const t0 = performance.now()
  const files = shape.files(n, o.dataDir)
  const label = `${sizeLabel(n)} ${shape.id} rows`
  console.log(
    `\n### ${label}: ${mb(files.bytes / 2 ** 20)} MB data file` +
      (files.written ? ` (written in ${ms(performance.now() - t0)} ms)` : ' (cached)'),
  )
  const { heapFlag, node } = heapFlagFor(files)
  const timeout = o.startupTimeoutMs
  const root = mkdtempSync(join(tmpdir(), 'entistore-scale-'))
  const stalls: ScaleRow['stalls'] = {}
  const parse: ScaleRow['parse'] = { ms: NaN }
  const serveRow: { ms: number; rssIndexed?: Settled; error?: string } = { ms: NaN }
  let indexBuildMs = NaN
  let clone: CloneRun = { ms: NaN, loadMs: NaN, sameRows: false }
  let persistFirstMs = NaN
  let restartMs = NaN
  const getUrl = (origin: string): ProbeTarget => ({ origin, dataclass: shape.dataclass, rows: n })
  const filterUrl = (origin: string, filter: string): string =>
    `${origin}/rest/${shape.dataclass}?$filter=${encodeURIComponent(`"${filter}"`)}&$top=10`
  try {
    // The JSON.parse baseline: what any Node process must at least do with the file.
    try {
      const p = await startNode(
        `JSON.parse (${label})`,
        node(JSON_PARSE.args(files)),
        /^parsed /,
        timeout,
      )
      parse.ms = p.ms
      parse.rss = await settledRss(p.child, 30_000)
      await p.child.stop()
    } catch (e) {
      parse.error = (e as Error).message
    }
    console.log(`JSON.parse child: ${parse.error ?? `${ms(parse.ms)} ms to its line`}`)

    // (A) serve in memory: start-up, GETs during the indexes' build in the background, memory,
    // GETs idle, during the first code= query and during a clone; the clone served again.
    const serveArgs = serveArgsOf(files)
    const cloneDir = join(root, 'clone')
    // With --watch, on a copy of the model that the reload measure changes (the data files are
    // shared between runs). Its folder holds nothing else: the clone writes a model.json too.
    const model = join(root, 'watched', 'model.json')
    mkdirSync(dirname(model))
    copyFileSync(files.model, model)
    const watchArgs = serveArgsOf({ model, data: files.data })
    try {
      const a = await startNode(
        `entistore serve --watch (${label})`,
        node([...watchArgs, '--watch']),
        ORIGIN,
        timeout,
      )
      const origin = ORIGIN.exec(a.line)![0]
      serveRow.ms = a.ms
      console.log(`serve: URL line after ${ms(a.ms)} ms`)
      try {
        // Built from the URL line on, between requests: the GETs from then until serve says so.
        stalls.index = await during(
          getUrl(origin),
          async () => {
            const line = await a.child.lineAfterReady(INDEXES_BUILT, timeout)
            indexBuildMs = Number(INDEXES_BUILT.exec(line)![1])
          },
          { leadMs: 0 },
        )
        console.log(`serve: indexes built in the background in ${ms(indexBuildMs)} ms`)
        serveRow.rssIndexed = await settledRss(a.child, 30_000)
        stalls.idle = await during(getUrl(origin), () => sleep(o.idleSeconds * 1000))
        stalls.firstQuery = await during(getUrl(origin), () =>
          getOk(filterUrl(origin, shape.firstFilter(n))),
        )
        let cloneMs = NaN
        stalls.clone = await during(getUrl(origin), async () => {
          cloneMs = await cloneOnce(node([CLI, 'clone', origin, '--out', cloneDir]), label, timeout)
        })
        clone = {
          ...clone,
          ms: cloneMs,
          ...(stalls.clone.error ? { error: stalls.clone.error } : {}),
        }
        stalls.reload = await during(getUrl(origin), () => reloadOnce(a.child, model, timeout))
      } finally {
        await a.child.stop()
      }
      // The clone's files served, the server cloned stopped (one large process at a time).
      if (!clone.error) clone = await serveClone(a.line, cloneDir, clone, node, label, timeout)
      console.log(
        `clone: ${clone.error ?? `${ms(clone.ms)} ms; served again: URL line after ${ms(clone.loadMs)} ms, ${clone.sameRows ? 'the same rows' : `other rows: ${clone.rows}`}`}`,
      )
    } catch (e) {
      serveRow.error = (e as Error).message
    }

    // (B) serve --persist --save: a --save, then the writes and their snapshot, then kill -9.
    const dir = join(root, 'store')
    const saved = join(root, 'saved.json')
    const persistArgs = [...serveArgs, '--persist', dir]
    try {
      // No GC preload: its SIGUSR2 handler would run a full GC with every --save.
      const b = await startNode(
        `entistore serve --persist (${label})`,
        node([...persistArgs, '--save', saved]),
        ORIGIN,
        timeout,
        { gcPreload: false },
      )
      persistFirstMs = b.ms
      const origin = ORIGIN.exec(b.line)![0]
      try {
        stalls.save = await during(getUrl(origin), () => saveOnce(b.child))
        stalls.snapshot = await during(getUrl(origin), async () => {
          await writes(origin, shape, n, o.writes)
          // Fewer writes (a smoke run) take no snapshot: the GETs are then during writes alone.
          if (o.writes >= SNAPSHOT_EVERY) await snapshotAfter(dir, SNAPSHOT_EVERY, timeout)
        })
      } finally {
        b.child.proc.kill('SIGKILL')
        await b.child.stop()
      }
      const c = await startNode(`restart (${label})`, node(persistArgs), ORIGIN, timeout)
      restartMs = c.ms
      await c.child.stop()
    } catch (e) {
      serveRow.error ??= (e as Error).message
      console.log(`--persist: ${(e as Error).message}`)
    }
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
  return {
    shape: shape.id,
    rows: n,
    fileBytes: files.bytes,
    ...(heapFlag ? { heapFlag } : {}),
    parse,
    serve: serveRow,
    indexBuildMs,
    clone,
    persistFirstMs,
    restartMs,
    writes: o.writes,
    stalls,
  }
}

/**
 * The `--max-old-space-size` the CLI's start-up line asks for on `files` (heap-advice.ts), if any,
 * said on a line, and `node(args)`: `args` with it in front, so that every child gets it alike.
 */
export function heapFlagFor(files: DataFiles): {
  heapFlag?: string
  node: (args: readonly string[]) => string[]
} {
  const advice = heapAdvice({
    dataBytes: files.bytes,
    what: files.data,
    heapLimit: getHeapStatistics().heap_size_limit,
    totalMemory: totalmem(),
  })
  const heapFlag = /--max-old-space-size=\d+/.exec(advice ?? '')?.[0]
  if (advice) console.log(heapFlag ? `children started with ${heapFlag}` : advice)
  const node = (args: readonly string[]): string[] => (heapFlag ? [heapFlag, ...args] : [...args])
  return heapFlag ? { heapFlag, node } : { node }
}

/** A GET that must answer 200 (a query that fails would measure nothing). */
export async function getOk(url: string): Promise<void> {
  const res = await fetch(url)
  await res.arrayBuffer()
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`)
}

/**
 * What the prober GETs: `origin/rest/dataclass(k)`, k from 1 to `rows`, or `origin` + `path` when
 * given (a route of a host server); on a new connection each, or on one kept alive (`keepAlive`).
 */
export interface ProbeTarget {
  readonly origin: string
  readonly dataclass: string
  readonly rows: number
  readonly path?: string
  readonly keepAlive?: boolean
  /** Headers of every GET (a session's cookie: the GETs of a logged-in user). */
  readonly headers?: Readonly<Record<string, string>>
}

/**
 * GETs by key, one at a time every PROBE_EVERY_MS, from `leadMs` before `work` starts until it ends
 * (at least one answered after it): their latencies, and the work's time. They are sent by a
 * process of their own (child/prober.mjs): in the bench process, the 8 writers' replies and its
 * own garbage collection delayed the probe's clock as much as the server did.
 */
export async function during(
  target: ProbeTarget,
  work: () => Promise<void>,
  { leadMs = 100 } = {},
): Promise<Stall> {
  const prober = fork(
    CHILD('prober.mjs'),
    [
      target.origin,
      target.dataclass,
      String(target.rows),
      String(PROBE_EVERY_MS),
      '1',
      target.keepAlive ? 'keep-alive' : 'fresh',
      ...(target.path === undefined ? [] : [target.path]),
    ],
    // Plain node: the bench's own flags (tsx's loader) would add ≈0.2 s to its start.
    {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      execArgv: [],
      ...(target.headers && {
        env: { ...process.env, PROBE_HEADERS: JSON.stringify(target.headers) },
      }),
    },
  )
  const report = new Promise<{ latencies: number[]; failed: number }>((resolve, reject) => {
    prober.on('message', (m: { latencies?: number[]; failed?: number }) => {
      if (m.latencies) resolve({ latencies: m.latencies, failed: m.failed ?? 0 })
    })
    prober.on('exit', (code) =>
      reject(new Error(`the prober exited with ${code} before its report`)),
    )
  })
  report.catch(() => undefined)
  await new Promise<void>((resolve, reject) => {
    prober.once('message', () => resolve())
    prober.once('error', reject)
    prober.once('exit', (code) => reject(new Error(`the prober exited with ${code} at its start`)))
  })
  if (leadMs > 0) await sleep(leadMs)
  const t0 = performance.now()
  let error: string | undefined
  try {
    await work()
  } catch (e) {
    error = (e as Error).message
  }
  const workMs = performance.now() - t0
  prober.send('stop')
  const { latencies, failed } = await report
  const sorted = Float64Array.from(latencies).sort()
  return {
    probes: latencies.length,
    failed,
    slowestMs: sorted[sorted.length - 1] ?? NaN,
    p99Ms: quantile(sorted, 0.99),
    medianMs: quantile(sorted, 0.5),
    workMs,
    ...(error === undefined ? {} : { error }),
  }
}

/** serve's line once the indexes it builds in the background are all built (cli.ts). */
export const INDEXES_BUILT = /^Built \d+ index(?:es)? in the background in (\d+) ms/

/** The rows a URL line says it serves: `Group 20, Person 1000000` of `name (…) at http://…`. */
const rowsOf = (urlLine: string): string | undefined => /\(([^)]*)\) at https?:/.exec(urlLine)?.[1]

/** Runs `entistore clone` (`args`) to its end; resolves with its time (spawn → exit 0). */
async function cloneOnce(
  args: readonly string[],
  label: string,
  timeoutMs: number,
): Promise<number> {
  const t0 = performance.now()
  const c = await startNode(`entistore clone (${label})`, args, /^Wrote /, timeoutMs, {
    gcPreload: false,
  })
  const proc = c.child.proc
  const code =
    proc.exitCode ?? (await new Promise<number | null>((resolve) => proc.once('exit', resolve)))
  await c.child.stop()
  if (code !== 0) throw new Error(`entistore clone exited with ${code}: ${c.child.stderrTail()}`)
  return performance.now() - t0
}

/** `serve -m -d` of what the clone wrote: its URL line's time and rows, against the server's. */
async function serveClone(
  cloned: string,
  dir: string,
  run: CloneRun,
  node: (args: readonly string[]) => string[],
  label: string,
  timeoutMs: number,
): Promise<CloneRun> {
  const args = serveArgsOf({ model: join(dir, 'model.json'), data: join(dir, 'data.json') })
  try {
    const d = await startNode(`serve the clone (${label})`, node(args), ORIGIN, timeoutMs)
    await d.child.stop()
    const rows = rowsOf(d.line)
    return {
      ...run,
      loadMs: d.ms,
      ...(rows === undefined ? {} : { rows }),
      sameRows: rows !== undefined && rows === rowsOf(cloned),
    }
  } catch (e) {
    return { ...run, error: `served again: ${(e as Error).message}` }
  }
}

/**
 * A `--watch` reload of everything: the model file written again with one more byte (the same
 * model), so that serve loads the model and the data file beside the store it serves, swaps them,
 * and builds the new store's indexes in the background; resolved on its `Built …` line after that.
 */
async function reloadOnce(child: Child, model: string, timeoutMs: number): Promise<void> {
  // Listened for before the write: the indexes were built before (stalls.index waited for it).
  const reloaded = child.nextLine(/^Reloaded /, timeoutMs)
  const built = child.nextLine(INDEXES_BUILT, timeoutMs)
  // Whichever fails first is what is told; the other's rejection is left for nobody.
  built.catch(() => {})
  appendFileSync(model, '\n')
  await reloaded
  await built
}

/** SIGUSR2 to a `serve --save`, resolved on its `Saved …` line (rejected on its exit). */
function saveOnce(child: Child): Promise<void> {
  return new Promise((resolve, reject) => {
    const out = child.proc.stdout!
    const onData = (s: Buffer | string): void => {
      if (!/^Saved \d+ entities/m.test(String(s))) return
      out.off('data', onData)
      child.proc.off('exit', onExit)
      resolve()
    }
    const onExit = (): void => reject(new Error(`exited during --save: ${child.stderrTail()}`))
    out.on('data', onData)
    child.proc.once('exit', onExit)
    child.proc.kill('SIGUSR2')
  })
}

/** `count` updates of random rows by WRITERS clients, each waiting for its reply; all must be 200. */
async function writes(origin: string, shape: Shape, n: number, count: number): Promise<void> {
  const r = prng(7)
  let next = 0
  const url = `${origin}/rest/${shape.dataclass}?$method=update`
  const writer = async (): Promise<void> => {
    while (next < count) {
      const i = next++
      const body = JSON.stringify(shape.update(1 + Math.floor(r() * n), i))
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      })
      const text = await res.text()
      if (res.status !== 200) throw new Error(`update ${i}: ${res.status} ${text.slice(0, 200)}`)
    }
  }
  await Promise.all(Array.from({ length: WRITERS }, writer))
}

/** Resolves once the folder holds a snapshot taken after `records` records (or after `timeoutMs`). */
async function snapshotAfter(dir: string, records: number, timeoutMs: number): Promise<void> {
  const t0 = performance.now()
  const taken = (): boolean =>
    readdirSync(dir).some((f) => {
      const m = /^snapshot-(\d{16})\.snap$/.exec(f)
      return m !== null && Number(m[1]) >= records
    })
  while (!taken()) {
    if (performance.now() - t0 > timeoutMs)
      throw new Error(`no snapshot after ${records} records in ${dir}`)
    await sleep(20)
  }
}

// ---------------------------------------------------------------- report

const perRow = (s: Settled | undefined, n: number): number => (s ? s.bytes / n : NaN)

/** `from`'s JSON.parse figures for `n` rows: its time in proportion, its RSS per row as it is. */
const scaled = (from: ScaleRow, n: number): { ms: number; rssPerRow: number } => ({
  ms: (from.parse.ms * n) / from.rows,
  rssPerRow: perRow(from.parse.rss, from.rows),
})

/** The JSON.parse baseline of `r`: measured, or scaled from a smaller file (`note` says which). */
function baseline(r: ScaleRow): { ms: number; rssPerRow: number; note: string } {
  if (r.parse.rss !== undefined || !r.parseEstimate)
    return { ms: r.parse.ms, rssPerRow: perRow(r.parse.rss, r.rows), note: '' }
  return { ...r.parseEstimate, note: ` (est. from ${sizeLabel(r.parseFrom!)})` }
}
const bytesPerRow = (x: number): string => (Number.isFinite(x) ? `${Math.round(x)} B` : 'n/a')
const verdict = (ok: boolean): string => (ok ? 'PASS' : 'MISS')

function stallCell(s: Stall | undefined, withWork = true, workMs = s?.workMs): string {
  if (!s) return '—'
  const work = withWork ? ` · ${ms(workMs ?? NaN)} ms` : ''
  const bad = s.failed ? ` · ${s.failed} failed` : ''
  const err = s.error ? ` · ${s.error.slice(0, 60)}` : ''
  return `${ms(s.slowestMs)} / ${ms(s.p99Ms)} ms (${s.probes})${work}${bad}${err}`
}

/** The tables of `rows`: start-up and memory, then the GETs, then the goals. */
export function printRows(rows: readonly ScaleRow[]): void {
  const size = (r: ScaleRow): string => `${sizeLabel(r.rows)} ${r.shape}`
  console.log('\nstart-up, restart and memory (RSS settled after a full GC, per row)')
  console.log(
    table(
      [
        'rows',
        'file',
        'JSON.parse: line · RSS/row',
        'serve: URL line (× JSON.parse)',
        'restart after kill -9 (× URL line)',
        'serve RSS/row, every index built (× JSON.parse)',
        'first start, --persist',
      ],
      rows.map((r) => {
        const b = baseline(r)
        const p = b.rssPerRow
        return [
          size(r),
          `${mb(r.fileBytes / 2 ** 20)} MB`,
          r.parse.error && !b.note ? 'failed' : `${ms(b.ms)} ms · ${bytesPerRow(p)}${b.note}`,
          r.serve.error && !Number.isFinite(r.serve.ms)
            ? 'failed'
            : `${ms(r.serve.ms)} ms (${ratio(r.serve.ms / b.ms)})`,
          `${ms(r.restartMs)} ms (${ratio(r.restartMs / r.serve.ms)})`,
          `${bytesPerRow(perRow(r.serve.rssIndexed, r.rows))} (${ratio(perRow(r.serve.rssIndexed, r.rows) / p)})`,
          `${ms(r.persistFirstMs)} ms`,
        ]
      }),
      ['l', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
  )
  for (const r of rows) {
    if (r.parse.error) console.log(`- ${size(r)}, JSON.parse: ${r.parse.error}`)
    if (r.serve.error) console.log(`- ${size(r)}, serve: ${r.serve.error}`)
    if (r.heapFlag) console.log(`- ${size(r)}: every child started with ${r.heapFlag}`)
    if (r.clone.error) console.log(`- ${size(r)}, clone: ${r.clone.error}`)
  }
  console.log(
    `\nGETs by key, one at a time every ${PROBE_EVERY_MS} ms on a new connection: slowest / p99 (GETs answered) · the work's time`,
  )
  console.log(
    table(
      [
        'rows',
        "the indexes' build in the background, from the URL line",
        'idle server',
        'first code= query (index built)',
        'entistore clone',
        'a --watch reload, then its indexes',
        '--save (SIGUSR2)',
        `${count(rows[0]?.writes ?? 0)} writes, --persist${(rows[0]?.writes ?? 0) >= SNAPSHOT_EVERY ? ' (a snapshot)' : ' (no snapshot)'}`,
      ],
      rows.map((r) => [
        size(r),
        // The build's time as serve says it, not the GETs' window (which starts at the URL line).
        stallCell(r.stalls.index, true, r.indexBuildMs),
        stallCell(r.stalls.idle, false),
        stallCell(r.stalls.firstQuery),
        stallCell(r.stalls.clone),
        stallCell(r.stalls.reload),
        stallCell(r.stalls.save),
        stallCell(r.stalls.snapshot),
      ]),
      ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
  )
  const goals: string[][] = []
  for (const r of rows) {
    const b = baseline(r)
    const start = r.serve.ms / b.ms
    goals.push([
      size(r),
      `URL line × JSON.parse${b.note}`,
      `≤ ${GOAL.startup}×`,
      ratio(start),
      verdict(start <= GOAL.startup),
    ])
    const restart = r.restartMs / r.serve.ms
    goals.push([
      size(r),
      'restart after kill -9 × URL line',
      '≤ 1×',
      ratio(restart),
      verdict(restart <= 1),
    ])
    const rss = perRow(r.serve.rssIndexed, r.rows) / b.rssPerRow
    goals.push([
      size(r),
      `RSS/row × JSON.parse (every index)${b.note}`,
      `≤ ${GOAL.rss}×`,
      ratio(rss),
      verdict(rss <= GOAL.rss),
    ])
    for (const [id, what] of STALL_GOALS) {
      const s = r.stalls[id]
      if (!s) continue
      goals.push([
        size(r),
        `slowest GET during ${what}`,
        `≤ ${GOAL.stallMs} ms`,
        `${ms(s.slowestMs)} ms`,
        verdict(s.slowestMs <= GOAL.stallMs && s.failed === 0 && !s.error),
      ])
    }
    if (r.stalls.clone)
      goals.push([
        size(r),
        'the clone served again (serve -m -d): the same rows',
        'the same rows',
        r.clone.error
          ? 'failed'
          : r.clone.sameRows
            ? `yes · URL line after ${ms(r.clone.loadMs)} ms`
            : `no: ${r.clone.rows ?? '?'}`,
        verdict(r.clone.sameRows && !r.clone.error),
      ])
  }
  console.log('\nGoals')
  console.log(
    table(['rows', 'measure', 'goal', 'measured', 'verdict'], goals, ['l', 'l', 'l', 'r', 'l']),
  )
  console.log(`${goals.filter((g) => g[4] === 'PASS').length} of ${goals.length} pass.`)
}

/** The work whose slowest GET has a goal, as the goals table names it. */
const STALL_GOALS: readonly [StallId, string][] = [
  ['index', "the indexes' build in the background"],
  ['firstQuery', 'the first code= query'],
  ['clone', 'entistore clone'],
  ['reload', 'a --watch reload and its index build'],
  ['save', 'the --save'],
  ['snapshot', 'the snapshot'],
]

const STALL_SERIES: readonly [StallId, string][] = [
  ['idle', 'idle server'],
  ['index', "the indexes' build in the background"],
  ['clone', 'entistore clone'],
  ['reload', 'a --watch reload, then its indexes'],
  ['save', '--save (SIGUSR2)'],
  ['snapshot', '10,000 writes with --persist (a snapshot)'],
]

/**
 * The slowest GET of each phase at each size, × the goal of 50 ms (the line at 1×), as an SVG bar
 * chart for docs/benchmarks.md (svg-chart.ts, log scale).
 */
export function stallChart(
  sizes: readonly { label: string; stalls: Partial<Record<StallId, { slowestMs: number }>> }[],
): string {
  return barChart({
    title: 'The slowest GET by key, one every 10 ms, during the work of a large store',
    baseline: `the goal: no GET over ${GOAL.stallMs} ms`,
    axis: `× ${GOAL.stallMs} ms; lower is better`,
    series: STALL_SERIES.map(([, name]) => name),
    groups: sizes.map((x) => ({
      label: x.label,
      bars: STALL_SERIES.map(([id, series]) => {
        const slowest = x.stalls[id]?.slowestMs
        return slowest === undefined
          ? { series }
          : { series, value: slowest / GOAL.stallMs, text: `${ms(slowest)} ms` }
      }),
    })),
  })
}
