/**
 * @module `npm run bench -- --model m.json --data d.json`: the bench on a user's own model and data
 * (issue 52), against plain JS on the same rows in the same run. In process: the load (against
 * `JSON.parse` of the file), the heap a row, a read by key of each dataclass (against a Map of the
 * parsed rows) and, for each of its first attributes, an equality query with values drawn from the
 * data (against a loop over the parsed rows); over HTTP: `entistore serve` on the files, a GET by
 * key of the first dataclass against raw node:http answering a fixed body of the same size.
 *
 * Nothing here knows the model: every figure is drawn from what the files hold, so that what a user
 * reads is what their own rows cost.
 */
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Core } from '../engine.ts'
import { compareLoad, type LoadOptions } from '../http-load.ts'
import { CACHE_DIR } from '../items.ts'
import { prng } from '../data.ts'
import { startNode } from '../processes.ts'
import { count, perOp, ratio, table } from '../report.ts'
import { heapMb, timeCases, type Case, type TimingOptions } from '../timing.ts'
import { ORIGIN, loadTable, rawAnswering, serveArgs } from './http.bench.ts'

export interface OwnDataOptions {
  readonly model: string
  readonly data: string
  readonly timing: TimingOptions
  readonly load: LoadOptions
  /** Attributes queried a dataclass, the first storage ones of a scalar type. @default 6 */
  readonly attributes?: number
  /** Values drawn from the data for each query, and keys for each read. @default 1,000 */
  readonly samples?: number
}

type Row = Record<string, unknown>

/** The types an equality query is timed on: those a user filters on with `=`. */
const SCALAR = new Set([
  'string',
  'long',
  'long64',
  'word',
  'byte',
  'number',
  'bool',
  'date',
  'uuid',
])

/** `n` values drawn from `values` (with repeats), the same draw for every case that uses them. */
function draw<T>(values: readonly T[], n: number, seed: number): T[] {
  const random = prng(seed)
  return Array.from({ length: n }, () => values[Math.floor(random() * values.length)]!)
}

/** Runs the suite and prints its tables. */
export async function runOwnDataSuite(core: Core, o: OwnDataOptions): Promise<void> {
  const modelText = readFileSync(o.model, 'utf8')
  const dataText = readFileSync(o.data, 'utf8')
  const model = JSON.parse(modelText) as object

  // The load, and the heap it holds, against JSON.parse of the same text.
  const h0 = heapMb()
  let t0 = performance.now()
  const parsed = JSON.parse(dataText) as Record<string, Row[]>
  const parseMs = performance.now() - t0
  const parsedMb = heapMb() - h0
  t0 = performance.now()
  const ds = core.createDatastore(model as never, { data: JSON.parse(dataText) as never })
  const loadMs = performance.now() - t0
  const heldMb = heapMb() - h0 - parsedMb
  const rows = ds.dataClasses.reduce((n, dc) => n + dc.length, 0)
  console.log(
    `\n## Your data: ${o.data} (${count(Buffer.byteLength(dataText))} B, ${count(rows)} rows in ` +
      `${ds.dataClasses.length} dataclasses)\n`,
  )
  console.log(
    table(
      ['measure', 'JSON.parse', 'entistore', '× JSON.parse'],
      [
        ['load, ms', parseMs.toFixed(1), loadMs.toFixed(1), ratio(loadMs / parseMs)],
        [
          'heap a row, B',
          count(Math.round((parsedMb * 1048576) / rows)),
          count(Math.round((heldMb * 1048576) / rows)),
          ratio(heldMb / parsedMb),
        ],
      ],
      ['l', 'r', 'r', 'r'],
    ),
  )

  const samples = o.samples ?? 1000
  const lines: string[][] = []
  for (const dc of ds.dataClasses) {
    const source = parsed[dc.name]
    if (!Array.isArray(source) || source.length === 0) continue
    const keyName = dc.def.key.name
    const byKey = new Map(source.map((r) => [r[keyName], r]))
    const keys = draw([...byKey.keys()], samples, 1)
    const cases: Case[] = [
      {
        kind: 'baseline',
        impl: 'plain: Map.get',
        opsPerCall: keys.length,
        run: () => keys.reduce((n: number, k) => n + (byKey.get(k) ? 1 : 0), 0),
      },
      {
        kind: 'entistore',
        impl: 'entistore: get(key)',
        opsPerCall: keys.length,
        run: () => keys.reduce((n: number, k) => n + (dc.get(k) ? 1 : 0), 0),
      },
    ]
    lines.push(...caseLines(`${dc.name}: get by key`, timeCases(cases, o.timing)))
    const attrs = dc.attributes
      .filter((a) => a.kind === 'storage' && a !== dc.def.key && SCALAR.has(a.type))
      .slice(0, o.attributes ?? 6)
    for (const attr of attrs) {
      const present = source.map((r) => r[attr.name]).filter((v) => v !== null && v !== undefined)
      if (present.length === 0) continue
      // Few values a call: a query on a value that half the rows hold is a scan either way.
      const values = draw(present, Math.min(samples, 20), 2)
      const text = `${attr.name} = :1`
      const prepared = dc.prepare(text)
      const queryCases: Case[] = [
        {
          kind: 'baseline',
          impl: 'plain: filter loop',
          opsPerCall: values.length,
          run: () => {
            let n = 0
            for (const v of values)
              for (let i = 0; i < source.length; i++) if (source[i]![attr.name] === v) n++
            return n
          },
        },
        {
          kind: 'entistore',
          impl: `entistore: query('${text}')`,
          opsPerCall: values.length,
          run: () => values.reduce((n: number, v) => n + prepared.count(v), 0),
        },
      ]
      const indexed = dc.indexes().some((i) => i.attribute === attr.name)
      const label = `${dc.name}.${attr.name} (${attr.type}${indexed ? ', indexed' : ''}) =`
      lines.push(...caseLines(label, timeCases(queryCases, o.timing)))
    }
  }
  console.log('\n### In process\n')
  console.log(table(['operation', 'implementation', 'per op', '× plain', 'rows'], lines))
  console.log(
    '\n- Equality on text compares as 4D does (case and accents folded), the plain loop with ' +
      '`===`: where the data holds the same text in two spellings, the rows differ.',
  )
  await ownHttp(ds as never, o)
}

/** A table's lines for one group of timed cases: the plain case first, the engine's ratio to it. */
function caseLines(
  label: string,
  timed: readonly { case: Case; median: number; check: number; error?: string }[],
): string[][] {
  const base = timed[0]!
  return timed.map((t, i) => {
    const per = t.median / (t.case.opsPerCall ?? 1)
    const basePer = base.median / (base.case.opsPerCall ?? 1)
    return [
      i === 0 ? label : '',
      t.case.impl,
      t.error ?? perOp(per),
      i === 0 ? '1.00×' : ratio(per / basePer),
      count(t.check),
    ]
  })
}

/** GET by key of the first dataclass with rows, `entistore serve` against raw node:http. */
async function ownHttp(
  ds: {
    dataClasses: readonly { name: string; length: number; all(): Iterable<{ key: unknown }> }[]
  },
  o: OwnDataOptions,
): Promise<void> {
  const dc = ds.dataClasses.find((d) => d.length > 0)
  if (!dc) return
  const keys = [...dc.all()].map((e) => e.key)
  const path = (random: () => number): string =>
    `/rest/${dc.name}(${encodeURIComponent(String(keys[Math.floor(random() * keys.length)]))})`
  const serve = await startNode(
    'entistore serve',
    serveArgs(o, '--no-explorer'),
    /\/rest\/\$catalog/,
    120_000,
  )
  const origin = ORIGIN.exec(serve.line)![0]
  try {
    // Raw node:http answers one of the server's own replies, so both send as many bytes.
    mkdirSync(CACHE_DIR, { recursive: true })
    const raw = await rawAnswering(origin + path(prng(3)), join(CACHE_DIR, 'own-entity.json'))
    try {
      const results = await compareLoad(
        [
          { label: 'raw node:http, fixed body', origin: raw.origin, path },
          { label: 'entistore serve', origin, path },
        ],
        o.load,
      )
      console.log(
        `\n### Over HTTP: GET /rest/${dc.name}(key), ${count(raw.body.length)} B a reply\n`,
      )
      console.log(loadTable(results, {}))
    } finally {
      await raw.child.stop()
    }
  } finally {
    await serve.child.stop()
  }
}
