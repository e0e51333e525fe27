/**
 * @module Many sessions of one reader (issue 61, break 5): what a write costs the server when 99
 * sessions of one user each read a restricted dataclass and follow its live feed, as users meet
 * it, on the real `entistore serve` (the built CLI) on a socket.
 *
 * The application (views-data.ts): `Employee`, 100k rows by default, a `restrict` in the functions
 * module written the 4D way (`currentSession()`: an admin sees everything, a reader their
 * department's 5,000 employees), once with the restrict's attribute indexed and once without
 * (its query then scans the table); `serve --users --roles --functions`.
 *
 * Per server: `root` (an admin) writes on a keep-alive connection of its own; `bob`, a reader of
 * another department, GETs one of his employees every 10 ms on a fresh connection each, from a
 * process of his own (child/prober.mjs, through the scale suite's `during`): the slowest of those
 * GETs during a measure is how long the server was held. Measures, each repeated `rounds` times:
 *
 * - **write**: `writes` single-entity updates (`POST /rest/Employee?$method=update`, the salary of
 *   an employee of ann's department), one at a time;
 * - **delete N**: `deletes` deletes of N employees of ann's department in one request
 *   (`POST /rest/Employee?$filter="ID>=a AND ID<b AND dept='D0'"&$method=delete`), N = 10 and 25;
 *
 * first with no subscriber (the baseline: only root and bob have read Employee), then with 99
 * sessions of `ann` logged in, each having read Employee and each following
 * `GET /rest/Employee/$changes` on a connection of its own, read by the bench process. The next
 * write is sent once every subscriber has its events of the last; its time is the write's reply
 * (client side), and, beside it, the time until the last subscriber had its last event. The server's
 * RSS is read settled after the start and with the subscribers, and at its peak meanwhile.
 *
 * Goals (issue 61: "a restrict that scales with sessions"): with 99 subscribers, a single write
 * holds the server ≤ 20 ms (the slowest GET), a delete of 25 rows takes ≤ 50 ms and holds it no
 * longer.
 */
import { writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { mainThreadCpuMs, rssBytes, settledRss, startNode, type Child } from '../processes.ts'
import { sizeLabel } from '../report.ts'
import { httpClient, type HttpClient } from '../replication-lag.ts'
import { Followers, login, readEmployees } from '../views-clients.ts'
import { DEPARTMENTS, readers, USERS, viewsFiles, type RestrictOn } from '../views-data.ts'
import {
  printViews,
  type ViewsMeasure,
  type ViewsResult,
  type ViewsServer,
} from '../views-report.ts'
import { ORIGIN } from './http.bench.ts'
import { during, INDEXES_BUILT, type ProbeTarget, type Stall } from './scale.bench.ts'

export interface ViewsOptions {
  /** Employee rows, one server per size and restrict. @default [100k] */
  readonly rows: readonly number[]
  /** The restrict's attribute indexed, not, or both in turn. @default both */
  readonly on: readonly RestrictOn[]
  /** Sessions of the readers, each reading Employee and following its feed. @default 99 */
  readonly subscribers: number
  /**
   * Readers those sessions belong to, in turn (views-data.ts `readers`): one (ann), or several
   * users of the same department, each a view of its own. @default 1
   */
  readonly readers: number
  /** Single writes a round. @default 30 */
  readonly writes: number
  /** Deletes of each size a round. @default 3 */
  readonly deletes: number
  /** Rows a delete deletes. @default [10, 25] */
  readonly deleteSizes: readonly number[]
  /** Rounds of each measure, with and without subscribers. @default 3 */
  readonly rounds: number
  /** The checkout whose built CLI serves (another one measures its code: a before/after). */
  readonly tree: string
  readonly startupTimeoutMs: number
  /**
   * Where the server writes a CPU profile (node --cpu-prof), if anywhere; beside it, the time
   * span of each round (`<profile>.windows.json`, µs of the monotonic clock, as the profile's
   * sample times), to read the profile of one measure alone.
   */
  readonly cpuProfDir?: string
}

/** This checkout: the suite serves its CLI unless told another (ViewsOptions.tree). */
export const THIS_TREE = fileURLToPath(new URL('../..', import.meta.url))
const CLI_IN = (tree: string): string => join(tree, 'packages/entistore/bin/entistore.js')
const sleep = (msec: number): Promise<void> => new Promise((r) => setTimeout(r, msec))
const filter = (f: string): string => `$filter=${encodeURIComponent(`"${f}"`)}`

/** What one server's measures share: its writer, its prober, its feed, the rows left to delete. */
interface Bench {
  readonly origin: string
  readonly child: Child
  readonly rows: number
  readonly admin: HttpClient
  readonly probe: ProbeTarget
  readonly followers: Followers
  /** Events each subscriber should have had so far. */
  expected: number
  /** The next ID of department D0 not deleted yet (D0: ID 1, 21, 41…). */
  nextDeleted: number
  writes: number
  peak: number
  /** Each round's span, for the CPU profile (ViewsOptions.cpuProfDir). */
  readonly windows: { what: string; subscribers: number; fromUs: number; toUs: number }[]
}

/** The monotonic clock in µs: the clock of a V8 CPU profile's `startTime` and samples. */
const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n)

/** The last ID of department D0: the single writes update the 100 last of D0, in turn. */
const lastOfD0 = (rows: number): number => 1 + DEPARTMENTS * Math.floor((rows - 1) / DEPARTMENTS)

async function write(b: Bench): Promise<number> {
  const i = b.writes++
  const key = lastOfD0(b.rows) - DEPARTMENTS * (i % 100)
  const r = await b.admin.send('POST', '/rest/Employee?$method=update', {
    __KEY: String(key),
    salary: 30_000 + (i % 1000),
  })
  if (r.status !== 200) throw new Error(`update of ${key}: ${r.status} ${JSON.stringify(r.body)}`)
  return 1
}

async function deleteRows(b: Bench, n: number): Promise<number> {
  const from = b.nextDeleted
  const to = from + n * DEPARTMENTS
  if (to > b.rows) throw new Error(`no ${n} rows of D0 left to delete past ${from}`)
  b.nextDeleted = to
  const r = await b.admin.send(
    'POST',
    `/rest/Employee?${filter(`ID>=${from} AND ID<${to} AND dept='D0'`)}&$method=delete`,
  )
  if (r.status !== 200) throw new Error(`delete of ${n}: ${r.status} ${JSON.stringify(r.body)}`)
  return n
}

/** `times` operations one after the other, `rounds` times, the prober GETting meanwhile. */
async function measure(
  b: Bench,
  what: string,
  rounds: number,
  times: number,
  op: (b: Bench) => Promise<number>,
): Promise<ViewsMeasure> {
  const opMs: number[] = []
  const eventsMs: number[] = []
  const cpuMs: number[] = []
  const stalls: Stall[] = []
  for (let r = 0; r < rounds; r++) {
    let cpu = NaN
    const stall = await during(
      b.probe,
      async () => {
        const cpu0 = mainThreadCpuMs(b.child.pid)
        const fromUs = monotonicUs()
        for (let i = 0; i < times; i++) {
          const t0 = performance.now()
          const rows = await op(b)
          opMs.push(performance.now() - t0)
          // Each subscriber hears of each row written (every one is ann's); those told before
          // the reply are counted.
          if (b.followers.size > 0) await b.followers.reach((b.expected += rows))
          eventsMs.push(performance.now() - t0)
          b.peak = Math.max(b.peak, rssBytes(b.child.pid))
        }
        cpu = (mainThreadCpuMs(b.child.pid) - cpu0) / times
        const subscribers = b.followers.size
        b.windows.push({ what, subscribers, fromUs, toUs: monotonicUs() })
      },
      { leadMs: 20 },
    )
    if (stall.error) throw new Error(`${what}: ${stall.error}`)
    stalls.push(stall)
    cpuMs.push(cpu)
  }
  return { what, opMs, eventsMs, cpuMs, rounds: stalls }
}

/** Every measure, in order: the writes, then the deletes of each size. */
async function measures(b: Bench, o: ViewsOptions): Promise<ViewsMeasure[]> {
  const out = [await measure(b, 'write', o.rounds, o.writes, write)]
  for (const n of o.deleteSizes)
    out.push(await measure(b, `delete ${n}`, o.rounds, o.deletes, (x) => deleteRows(x, n)))
  return out
}

async function runServer(rows: number, on: RestrictOn, o: ViewsOptions): Promise<ViewsServer> {
  const reading = readers(o.readers)
  const files = viewsFiles(o.tree, rows, on, reading)
  const profile = `views-${on}-${rows}.cpuprofile`
  const prof = o.cpuProfDir
    ? ['--cpu-prof', `--cpu-prof-dir=${o.cpuProfDir}`, `--cpu-prof-name=${profile}`]
    : []
  const args = [
    ...prof,
    CLI_IN(o.tree),
    'serve',
    '--quiet',
    '--port',
    '0',
    ...['--model', files.model, '--data', files.data, '--functions', files.functions],
    ...['--users', files.users, '--roles', files.roles],
  ]
  const {
    child,
    line,
    ms: startMs,
  } = await startNode(
    `entistore serve (views, ${sizeLabel(rows)}, ${on})`,
    args,
    ORIGIN,
    o.startupTimeoutMs,
  )
  const followers = new Followers()
  try {
    if (rows >= 1000) await child.lineAfterReady(INDEXES_BUILT, o.startupTimeoutMs)
    const origin = ORIGIN.exec(line)![0]
    const admin = httpClient(origin, { cookie: await login(origin, USERS.admin) })
    const bob = await login(origin, USERS.prober)
    // One of bob's department (D1: ID 2, 22, 42…), never deleted.
    const probe: ProbeTarget = {
      origin,
      dataclass: 'Employee',
      rows,
      path: '/rest/Employee(2)',
      headers: { cookie: bob },
    }
    const b: Bench = {
      origin,
      child,
      rows,
      admin,
      probe,
      followers,
      expected: 0,
      nextDeleted: 1,
      writes: 0,
      peak: 0,
      windows: [],
    }
    await readEmployees(origin, bob)
    // Warm: the JIT, the restrict's answers, the delete's query.
    for (let i = 0; i < 5; i++) await write(b)
    for (const n of o.deleteSizes) await deleteRows(b, n)
    const started = (await settledRss(child)).bytes
    b.peak = started
    const alone = await measures(b, o)

    const cookies: string[] = []
    for (let i = 0; i < o.subscribers; i++) {
      const cookie = await login(origin, reading[i % reading.length]!)
      await readEmployees(origin, cookie)
      cookies.push(cookie)
    }
    await followers.open(origin, cookies)
    const subscribed = (await settledRss(child)).bytes
    b.peak = Math.max(b.peak, subscribed)
    const followed = await measures(b, o)
    admin.close()
    if (o.cpuProfDir)
      writeFileSync(join(o.cpuProfDir, `${profile}.windows.json`), JSON.stringify(b.windows))
    return {
      rows,
      on,
      subscribers: o.subscribers,
      readers: o.readers,
      startMs,
      rss: { started, subscribed, peak: b.peak },
      alone,
      followed,
      events: { told: followers.least, expected: b.expected },
    }
  } finally {
    followers.close()
    // A CPU profile is written at the exit: give it time (stop() kills after a second).
    if (o.cpuProfDir && child.proc.exitCode === null) {
      const exited = new Promise((r) => child.proc.once('exit', r))
      child.proc.kill('SIGTERM')
      await Promise.race([exited, sleep(30_000)])
    }
    await child.stop()
  }
}

export async function runViewsSuite(o: ViewsOptions): Promise<ViewsResult> {
  // The deletes take ann's rows (D0) in turn: the warm-up's, then each round's, twice.
  const deleted = (1 + 2 * o.rounds * o.deletes) * o.deleteSizes.reduce((x, n) => x + n, 0)
  for (const rows of o.rows)
    if (deleted > Math.floor(rows / DEPARTMENTS))
      throw new Error(
        `${sizeLabel(rows)} rows: ${deleted} deletes of department D0, which has ` +
          `${Math.floor(rows / DEPARTMENTS)} rows; fewer deletes or rounds, or more rows`,
      )
  const loadStart = loadavg()[0]!
  const servers: ViewsServer[] = []
  for (const rows of o.rows)
    for (const on of o.on) {
      const t0 = performance.now()
      const s = await runServer(rows, on, o)
      servers.push(s)
      console.log(
        `  ${sizeLabel(rows)} rows, restrict ${on}: measured in ` +
          `${((performance.now() - t0) / 1000).toFixed(0)} s`,
      )
    }
  const result: ViewsResult = { tree: o.tree, load: [loadStart, loadavg()[0]!], servers }
  printViews(result, o)
  return result
}
