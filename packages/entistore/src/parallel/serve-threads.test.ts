/**
 * `serve --threads`: the reads over many rows, and the sort of the key's index built in the
 * background, go to the worker threads (health counts their runs) and answer as `--threads 0`,
 * which runs them on the serving thread in slices. 300,000 rows: the
 * pool takes work from 262,144 rows on (PARALLEL_MIN_ROWS).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, startServe, type Started } from '../commands/cli-serve.fixture.js'

const ROWS = 300_000
const dir = mkdtempSync(join(tmpdir(), 'entistore-threads-'))
const model = join(dir, 'model.json')
const data = join(dir, 'data.json')
// Each read and the runs it asks of the pool.
const READS: [string, number][] = [
  ['/rest/Item?$filter="salary>99990"&$attributes=ID', 1],
  ['/rest/Item?$orderby=salary desc&$top=3&$attributes=salary', 1],
  ['/rest/Item/salary?$compute=$all', 1],
  // The distinct values of every row (the column), then of the rows a scan found.
  ['/rest/Item/salary?$distinct=true', 1],
  ['/rest/Item/salary?$filter="salary>5000"&$distinct=true', 2],
  // Folded text: a few distinct cities (codes), a code a row (code units).
  ['/rest/Item?$filter="city=\'Lyon\'"&$top=3&$attributes=ID', 1],
  ['/rest/Item?$filter="city=\'P@\'"&$top=3&$attributes=ID,city', 1],
  ['/rest/Item?$filter="code=\'c-123457\'"&$attributes=ID', 1],
  ['/rest/Item?$filter="code=\'c-12345@\'"&$attributes=ID', 1],
]
const runsOf = (reads: readonly [string, number][]) => reads.reduce((n, [, runs]) => n + runs, 0)

let served: Started[] = []
beforeAll(() => {
  writeFileSync(
    model,
    JSON.stringify({
      dataClasses: [
        {
          name: 'Item',
          attributes: [
            { name: 'ID', type: 'long', primKey: true },
            { name: 'salary', type: 'number' },
            { name: 'city', type: 'string' },
            { name: 'code', type: 'string' },
          ],
        },
      ],
    }),
  )
  const cities = ['Paris', 'Lyon', 'Nice', 'Pau', 'Évry']
  const rows = Array.from({ length: ROWS }, (_, i) => ({
    ID: i + 1,
    salary: (i * 37) % 100_000,
    city: cities[i % cities.length],
    code: `C-${i}`,
  }))
  writeFileSync(data, JSON.stringify({ Item: rows }))
})
afterAll(async () => {
  for (const s of served) await s.stop()
  rmSync(dir, { recursive: true, force: true })
})

const read = async (s: Started, path: string) => {
  const res = await fetch(s.url + path)
  expect(res.status).toBe(200)
  const body = (await res.json()) as Record<string, unknown>
  // The stamps' times are the loads': the two servers loaded apart.
  return JSON.parse(JSON.stringify(body).replace(/"__TIMESTAMP":"[^"]*"/g, '"__TIMESTAMP":""'))
}
const health = async (s: Started) =>
  (
    (await (await fetch(`${s.url}/health`)).json()) as {
      parallel?: { threads: number; runs: number }
    }
  ).parallel

const serve = (threads: string) =>
  startServe([
    'serve',
    '-m',
    model,
    '-d',
    data,
    '--threads',
    threads,
    '--health-details',
    '--quiet',
  ])

describe('serve --threads', () => {
  it('hands the scans, the first rows of an ordering and the aggregates to its threads, answering as --threads 0', async () => {
    const on = await serve('1')
    const off = await serve('0')
    served = [on, off]
    // The key's index is built in the background, its sort on the pool: two runs (the parts, then
    // their merge), counted once serve says it is built.
    while (!on.out.some((line) => line.startsWith('Built 1 index')))
      await new Promise((resolve) => setTimeout(resolve, 10))
    const BUILD = 2
    expect(await health(on)).toEqual({ threads: 1, runs: BUILD })
    expect(await health(off)).toBeUndefined()
    const answers = []
    for (const [path] of READS) {
      const answer = await read(on, path)
      expect(answer).toEqual(await read(off, path))
      answers.push(answer)
    }
    expect(await health(on)).toEqual({ threads: 1, runs: BUILD + runsOf(READS) })
    // Each text scan found what it seeks (a fifth of the rows each city, one code, 11 codes).
    expect(answers.slice(5).map((a) => a.__COUNT)).toEqual([60_000, 120_000, 1, 11])
    // A GET by key and a small read never go to the pool.
    await read(on, '/rest/Item(5)')
    await read(on, '/rest/Item?$filter="ID<10"')
    expect((await health(on))!.runs).toBe(BUILD + runsOf(READS))
  })

  it('hands the algebra of two large entity sets to its threads, answering as --threads 0', async () => {
    const on = await serve('1')
    const off = await serve('0')
    served.push(on, off)
    /** Two kept sets of 285,000 rows each (salary over 5,000, under 95,000): their ids. */
    const sets = async (s: Started) => {
      const ids: string[] = []
      for (const filter of ['salary>5000', 'salary<95000']) {
        const body = await read(s, `/rest/Item?$filter="${filter}"&$method=entityset&$top=1`)
        ids.push(String(body['__ENTITYSET']).split('/').at(-1)!)
      }
      return ids
    }
    const [a, b] = await sets(on)
    const [c, d] = await sets(off)
    const runs = (await health(on))!.runs
    // The set's id is the server's own; the rest of the answer is the same.
    const answer = async (s: Started, x: string, y: string, op: string) =>
      JSON.parse(
        JSON.stringify(
          await read(
            s,
            `/rest/Item/$entityset/${x}?$logicOperator=${op}&$otherCollection=${y}&$top=3&$attributes=ID`,
          ),
        ).replaceAll(x, 'A'),
      )
    for (const op of ['AND', 'OR', 'EXCEPT', 'INTERSECT'])
      expect(await answer(on, a!, b!, op)).toEqual(await answer(off, c!, d!, op))
    // Each: the bounds and the bitmap of one set, then the other's members kept or not.
    expect((await health(on))!.runs).toBe(runs + 4 * 3)
  })

  it('refuses a --threads that is no number of threads', async () => {
    const r = await runCli(['serve', '-m', model, '--threads', 'many'])
    expect(r.code).toBe(2)
    expect(r.err.join('\n')).toContain(
      '--threads must be a number of threads from 0 to 256, or auto',
    )
  })
})
