/**
 * @module The views suite's results (suites/views.bench.ts) and their tables: each operation's
 * reply, its events, the server's CPU and the slowest GET meanwhile, with and without the
 * subscribers; the server's RSS; the goals.
 */
import { quantile } from './http-load.ts'
import { count, mb, ms, sizeLabel, table } from './report.ts'
import type { Stall } from './suites/scale.bench.ts'
import type { ViewsOptions } from './suites/views.bench.ts'
import type { RestrictOn } from './views-data.ts'

export const VIEWS_GOAL = { writeHoldMs: 20, deleteMs: 50 } as const

/** One measure: `rounds` windows of the same operations. */
export interface ViewsMeasure {
  readonly what: string
  /** Each operation's reply, ms, every round. */
  readonly opMs: readonly number[]
  /** From each operation's send to the last subscriber's last event of it, ms. */
  readonly eventsMs: readonly number[]
  /**
   * Per round, the server's main thread on a CPU over the round ÷ its operations, ms
   * (processes.ts mainThreadCpuMs): each operation, its events, and the prober's GETs meanwhile
   * (one every 10 ms, a fraction of a millisecond each). Read per round: the kernel brings the
   * figure of a running thread up to date only at its next tick, so a read right after one
   * operation's reply can be a few milliseconds behind.
   */
  readonly cpuMs: readonly number[]
  /** The prober's GETs, one Stall per round. */
  readonly rounds: readonly Stall[]
}

export interface ViewsServer {
  readonly rows: number
  readonly on: RestrictOn
  readonly subscribers: number
  /** The users those sessions belong to (each a view). */
  readonly readers: number
  readonly startMs: number
  readonly rss: { readonly started: number; readonly subscribed: number; readonly peak: number }
  readonly alone: readonly ViewsMeasure[]
  readonly followed: readonly ViewsMeasure[]
  /** Events each subscriber was told (updates and deletes), and expected. */
  readonly events: { readonly told: number; readonly expected: number }
}

export interface ViewsResult {
  readonly tree: string
  readonly load: readonly [number, number]
  readonly servers: readonly ViewsServer[]
}

/** `, of 20 readers` when there are several. */
const readersOf = (n: number): string => (n === 1 ? '' : `, of ${n} readers`)
const verdict = (ok: boolean): 'PASS' | 'MISS' => (ok ? 'PASS' : 'MISS')
const sorted = (xs: readonly number[]): Float64Array => Float64Array.from(xs).sort()
const median = (xs: readonly number[]): number => quantile(sorted(xs), 0.5)
/** `median [min–max]` */
const spread = (xs: readonly number[]): string => {
  if (xs.length === 0) return 'n/a'
  const s = sorted(xs)
  return `${ms(quantile(s, 0.5))} [${ms(s[0]!)}–${ms(s[s.length - 1]!)}]`
}
const slowest = (m: ViewsMeasure): number[] => m.rounds.map((s) => s.slowestMs)

/** The measure `what` of a server with (or without) its subscribers. */
const find = (s: ViewsServer, followed: boolean, what: string): ViewsMeasure | undefined =>
  (followed ? s.followed : s.alone).find((m) => m.what === what)

/** The goal lines of a run: measure, goal, measured, PASS or MISS. */
export function viewsGoals(r: ViewsResult, o: ViewsOptions): string[][] {
  const goals: string[][] = []
  const largest = Math.max(...o.deleteSizes)
  for (const s of r.servers) {
    const at = `${sizeLabel(s.rows)}, ${s.on}, ${s.subscribers} subscribers${readersOf(s.readers)}`
    const w = find(s, true, 'write')
    if (w) {
      const held = median(slowest(w))
      goals.push([
        `${at}: a single write holds the server`,
        `≤ ${VIEWS_GOAL.writeHoldMs} ms`,
        `${ms(held)} ms (CPU ${ms(median(w.cpuMs))} ms a write)`,
        verdict(held <= VIEWS_GOAL.writeHoldMs),
      ])
    }
    const d = find(s, true, `delete ${largest}`)
    if (d) {
      const worst = Math.max(median(d.opMs), median(slowest(d)))
      goals.push([
        `${at}: a delete of ${largest} rows, its reply and the hold`,
        `≤ ${VIEWS_GOAL.deleteMs} ms`,
        `${ms(median(d.opMs))} / ${ms(median(slowest(d)))} ms`,
        verdict(worst <= VIEWS_GOAL.deleteMs),
      ])
    }
  }
  return goals
}

export function printViews(r: ViewsResult, o: ViewsOptions): void {
  console.log(
    `\n### Many sessions of one reader: ${o.subscribers} sessions of ` +
      `${o.readers === 1 ? 'ann' : `${o.readers} readers of one department in turn`} reading Employee and ` +
      `following Employee/$changes (ms; median [min–max]; load average ${r.load[0].toFixed(1)} → ` +
      `${r.load[1].toFixed(1)})`,
  )
  console.log(
    `- write: ${o.writes} single updates a round; delete N: ${o.deletes} deletes of N rows a ` +
      `round; ${o.rounds} rounds. "reply": the operation's own time; "events": until the last ` +
      `subscriber had its last event; "CPU an op": the server's main thread on a CPU a round, ÷ its operations (the ` +
      `event loop busy: what a loaded machine does not inflate); "held": the slowest fresh ` +
      `GET /rest/Employee(2) of bob, one every 10 ms from a process of its own, per round`,
  )
  const rows: string[][] = []
  for (const s of r.servers)
    for (const followed of [false, true])
      for (const m of followed ? s.followed : s.alone)
        rows.push([
          sizeLabel(s.rows),
          s.on,
          followed ? String(s.subscribers) : '0',
          m.what,
          spread(m.opMs),
          followed ? spread(m.eventsMs) : '',
          spread(m.cpuMs),
          spread(slowest(m)),
          ms(median(m.rounds.map((x) => x.medianMs))),
          count(m.rounds.reduce((a, x) => a + x.probes, 0)),
        ])
  console.log(
    table(
      [
        'rows',
        'restrict on',
        'subscribers',
        'operation',
        'reply',
        'events',
        'CPU an op',
        'held',
        'GET p50',
        'GETs',
      ],
      rows,
      ['r', 'l', 'r', 'l', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
  )

  console.log(`\nServer RSS (MB): settled after the start, settled with the subscribers, peak`)
  console.log(
    table(
      ['rows', 'restrict on', 'started', `${o.subscribers} subscribed`, 'peak', 'start-up ms'],
      r.servers.map((s) => [
        sizeLabel(s.rows),
        s.on,
        mb(s.rss.started / 2 ** 20),
        mb(s.rss.subscribed / 2 ** 20),
        mb(s.rss.peak / 2 ** 20),
        ms(s.startMs),
      ]),
      ['r', 'l', 'r', 'r', 'r', 'r'],
    ),
  )
  for (const s of r.servers)
    if (s.events.told < s.events.expected)
      console.log(`- ${sizeLabel(s.rows)} ${s.on}: a subscriber missed events`)

  const goals = viewsGoals(r, o)
  console.log('\nGoals (medians of the rounds)')
  console.log(table(['measure', 'goal', 'measured', 'verdict'], goals, ['l', 'l', 'r', 'l']))
  console.log(`${goals.filter((g) => g[3] === 'PASS').length} of ${goals.length} pass.`)
}
