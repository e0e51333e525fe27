/**
 * @module 4D code beside other clients (issue 78): how long a cheap GET waits while clients run a
 * 4D project's heavy code, on the real `entistore serve --project` (the built CLI), black-box, as
 * the contention suite measures it beside heavy reads.
 *
 * The project (code-beside-project.ts): the short rows' structure and data (200k Person rows by
 * default), classes whose code is heavy each its own way. Heavy clients: 4, each on a keep-alive
 * connection, each sending the next of HEAVY_CODE as soon as the last answered (contention's
 * `heavyLoad`). GETs by key of a Group, one every 10 ms from a process of their own (scale's
 * `during`): a Group, since a Person's reply computes its getters, which are the heavy code here.
 *
 * Goals (the contention suite's, issue 47): GET p99 ≤ 10 ms and slowest ≤ 50 ms beside the code;
 * each heavy call answered (a call the budget ends, 9410, is a failure of the bench, not of the
 * goal: the data is sized so that each ends well within it).
 *
 * Beside them, the floor of this machine: a raw node:http server (child/raw-server.mjs, answering
 * the same Group's bytes) probed the same way at the same time, in a process of its own. What the
 * heavy clients cost its GETs (two cores shared by the server, the clients and the probers) is
 * the machine's; what entistore's GETs lose past it is the serving thread's.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeCodeBesideProject } from '../code-beside-project.ts'
import { count, ms, sizeLabel, table } from '../report.ts'
import {
  heavyLoad,
  heavyRun,
  serving,
  timedGet,
  type HeavyRead,
  type HeavyRun,
} from './contention.bench.ts'
import { CLI, rawAnswering } from './http.bench.ts'
import { during, heapFlagFor, SHORT, type ProbeTarget, type Stall } from './scale.bench.ts'

export interface CodeBesideOptions {
  /** Person rows. @default 200k */
  readonly rows: number
  /** Seconds of each measure. @default 6 */
  readonly seconds: number
  /** Folder of the data files. @default the scale suite's */
  readonly dataDir: string
  readonly startupTimeoutMs: number
  /** The share of its full size each heavy call has (a smoke run's are short). @default 1 */
  readonly scale?: number
}

const GOAL = { p99Ms: 10, maxMs: 50 } as const

const filter = (f: string): string => `$filter=${encodeURIComponent(`"${f}"`)}`
const call = (name: string): string => `/rest/$catalog/${name}`

/**
 * The heavy 4D code, each a few hundred milliseconds alone on this machine kind at `scale` 1; the
 * getters' passes are the project's (code-beside-project.ts).
 */
export const heavyCode = (scale = 1): readonly HeavyRead[] => [
  {
    id: 'loop',
    title: 'a function: a For loop of 30M passes',
    path: () => call('loop'),
    body: [Math.round(30e6 * scale)],
  },
  {
    id: 'sort',
    title: 'a function: 200k numbers pushed into a collection, then .sort()',
    path: () => call('sorted'),
    body: [Math.round(200_000 * scale)],
  },
  {
    id: 'json',
    title: 'a function: 50k objects through JSON Stringify and JSON Parse',
    path: () => call('json'),
    body: [Math.round(50_000 * scale)],
  },
  {
    id: 'getters',
    title: '$filter "age<40 AND score>1000" (a getter of 100 passes at each of ≈85k rows)',
    path: () => `/rest/Person?${filter('age<40 AND score>1000')}&$top=1&$attributes=ID`,
  },
  {
    id: 'getter',
    title: '$filter "ID<10 AND heavy>0" (one getter call of 50M passes)',
    path: () => `/rest/Person?${filter('ID<10 AND heavy>0')}&$attributes=ID`,
  },
  {
    id: 'event',
    title: 'an update whose saving event loops 20M passes',
    path: () => '/rest/Person?$method=update&$attributes=ID',
    body: { __KEY: '3', salary: 50_000 },
  },
]

export interface CodeBesideResult {
  readonly rows: number
  readonly load: readonly [number, number]
  readonly startMs: number
  readonly getAlone: Stall
  readonly codeAlone: HeavyRun
  readonly getBeside: Stall
  /** Raw node:http's GETs, alone and beside the same clients (the machine's floor). */
  readonly rawAlone: Stall
  readonly rawBeside: Stall
  readonly codeBeside: HeavyRun
  /** The GETs beside 4 clients running one kind of code only, in HEAVY_CODE's order. */
  readonly each: readonly { readonly gets: Stall; readonly code: HeavyRun }[]
}

export async function runCodeBesideSuite(o: CodeBesideOptions): Promise<CodeBesideResult> {
  const n = o.rows
  const files = SHORT.files(n, o.dataDir)
  const HEAVY_CODE = heavyCode(o.scale)
  const dir = writeCodeBesideProject(mkdtempSync(join(tmpdir(), 'entistore-code-beside-')), o.scale)
  const { node } = heapFlagFor(files)
  const load0 = loadavg()[0]!
  const args = [CLI, 'serve', '--quiet', '--project', dir, '--data', files.data, '--port', '0']
  try {
    return await serving(
      `entistore serve --project (${sizeLabel(n)} rows)`,
      node(args),
      o.startupTimeoutMs,
      async ({ origin, startMs }): Promise<CodeBesideResult> => {
        const get: ProbeTarget = { origin, dataclass: 'Group', rows: 200, keepAlive: true }
        // Warm: each call once (the JIT, the indexes its filters use); each must answer.
        for (const h of HEAVY_CODE) {
          const r = await timedGet(origin + h.path(n, Math.random), false, h.body)
          if (r.status !== 200) throw new Error(`${h.id}: ${r.status} ${r.body.slice(0, 160)}`)
        }
        // The floor: raw node:http answering the bytes of Group(1) to every GET.
        const raw = await rawAnswering(`${origin}/rest/Group(1)`, join(dir, 'raw-group.json'))
        try {
          const rawGet: ProbeTarget = { ...get, origin: raw.origin }
          const [getAlone, rawAlone] = await Promise.all([
            during(get, () => sleep(o.seconds * 500)),
            during(rawGet, () => sleep(o.seconds * 500)),
          ])
          const before = await heavyLoad(origin, n, o.seconds / 2, 1, HEAVY_CODE)
          // One load, probed on both servers at once.
          const load = heavyLoad(origin, n, o.seconds, 2, HEAVY_CODE)
          const [getBeside, rawBeside] = await Promise.all([
            during(get, () => load.then(() => undefined), { leadMs: 0 }),
            during(rawGet, () => load.then(() => undefined), { leadMs: 0 }),
          ])
          const codeBeside = await load
          const after = await heavyLoad(origin, n, o.seconds / 2, 3, HEAVY_CODE)
          // Each kind alone beside the GETs: which one holds them, when the mix does.
          const each: CodeBesideResult['each'][number][] = []
          for (const h of HEAVY_CODE) {
            let code: HeavyRun | undefined
            const gets = await during(
              get,
              async () => void (code = await heavyLoad(origin, n, o.seconds / 2, 4, [h])),
              { leadMs: 0 },
            )
            each.push({ gets, code: code! })
          }
          const result: CodeBesideResult = {
            rows: n,
            load: [load0, loadavg()[0]!],
            startMs,
            getAlone,
            codeAlone: heavyRun([before, after]),
            getBeside,
            rawAlone,
            rawBeside,
            codeBeside,
            each,
          }
          printCodeBeside(result)
          return result
        } finally {
          await raw.child.stop()
        }
      },
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const sleep = (msec: number): Promise<void> => new Promise((r) => setTimeout(r, msec))

const lat = (s: Stall): string[] => [
  ms(s.medianMs),
  ms(s.p99Ms),
  ms(s.slowestMs),
  count(s.probes) + (s.failed ? ` (${s.failed} failed)` : ''),
]

export const codeBesideOk = (r: CodeBesideResult): boolean =>
  r.getBeside.p99Ms <= GOAL.p99Ms &&
  r.getBeside.slowestMs <= GOAL.maxMs &&
  r.getBeside.failed === 0 &&
  r.codeBeside.failed === 0

export function printCodeBeside(r: CodeBesideResult): void {
  console.log(
    `\n${sizeLabel(r.rows)} Person rows; serve --project up in ${ms(r.startMs)} ms; load average ` +
      `${r.load[0].toFixed(1)} → ${r.load[1].toFixed(1)}`,
  )
  const HEAVY_CODE = heavyCode()
  for (const x of HEAVY_CODE) console.log(`- ${x.id}: ${x.title}`)
  console.log()
  console.log(
    table(
      ['GETs of a Group by key', 'median ms', 'p99 ms', 'slowest ms', 'GETs', 'goal'],
      [
        ['alone', ...lat(r.getAlone), ''],
        ['raw node:http, alone', ...lat(r.rawAlone), 'the floor'],
        [
          'beside 4 clients running the code',
          ...lat(r.getBeside),
          `p99 ≤ ${GOAL.p99Ms}, slowest ≤ ${GOAL.maxMs}: ${codeBesideOk(r) ? 'PASS' : 'MISS'}`,
        ],
        ['raw node:http, beside the same clients', ...lat(r.rawBeside), 'the floor'],
        ...HEAVY_CODE.map((h, i) => {
          const { gets, code } = r.each[i]!
          return [
            `beside 4 clients running ${h.id} alone (${ms(code.medianMs[0]!)} ms a call)`,
            ...lat(gets),
            code.failed ? `${code.failed} failed: ${code.error}` : '',
          ]
        }),
      ],
      ['l', 'r', 'r', 'r', 'r', 'l'],
    ),
  )
  console.log()
  const code = (h: HeavyRun): string[] => [
    ...h.medianMs.map((m) => ms(m)),
    count(h.ok) + (h.failed ? ` (${h.failed} failed: ${h.error})` : ''),
  ]
  console.log(
    table(
      ['the heavy code', ...HEAVY_CODE.map((x) => `${x.id} ms`), 'calls'],
      [
        ['alone (4 clients)', ...code(r.codeAlone)],
        ['beside the GETs', ...code(r.codeBeside)],
      ],
      ['l', ...HEAVY_CODE.map((): 'r' => 'r'), 'r'],
    ),
  )
}
