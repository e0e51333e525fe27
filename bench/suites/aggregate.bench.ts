/**
 * @module Aggregates (issue 9): `$compute=$all` on a numeric attribute and `$distinct` on a text
 * attribute over the whole dataclass, through the core's selections and through the REST handler's
 * `respond` (in process, no socket), each against a hand-written loop over plain JS arrays in the
 * same run. Goal: ≤ 1.5× the loop.
 *
 * Data: the query suite's people (`data.ts`, seed 42): `salary` (long, no index; one row in ten
 * null, so both sides skip nulls), `city` (20 capitalised names, no index) and `town` (the same
 * values, indexed: hash and sorted). The baselines:
 * - `$compute=$all`: one loop over a `(number | null)[]` keeping count, sum, min and max;
 * - `$distinct`: the engine compares text folded and gives the first entity's spelling, so the loop
 *   does the same over texts folded once beforehand (outside the clock, as the text suite's
 *   baseline): a `Map<folded, text>` of first spellings, its keys sorted. An extra plain row shows
 *   `[...new Set(texts)].sort()`, exact case (other semantics, the floor of any distinct).
 *
 * The REST rows build their own datastore with the core `@entistore/rest` itself imports (the
 * sources, through tsx): a handler must be given the datastore class it was built against.
 */
import type { DataClass, ModelJson } from '@entistore/core'
import type { RestCore } from '@entistore/rest'
import { loadedDatastore, type Core } from '../engine.ts'
import { makePeople } from '../data.ts'
import { timeOnce } from '../timing.ts'
import type { Group } from './query.bench.ts'

const TARGET = { max: 1.5, label: '≤1.5× hand loop' }

/** The operations, for `--only`. */
export const AGGREGATE_OPS = ['agg-compute', 'agg-distinct', 'agg-distinct-indexed']

const MODEL: ModelJson = {
  dataClasses: [
    {
      name: 'Person',
      attributes: [
        { name: 'id', type: 'long' },
        { name: 'salary', type: 'long' },
        { name: 'city', type: 'string' },
        { name: 'town', type: 'string', indexed: true },
      ],
      key: [{ name: 'id' }],
    },
  ],
}

interface Row {
  id: number
  salary: number | null
  city: string
  town: string
}

function makeRows(n: number): Row[] {
  return makePeople(n).map((p, i) => ({
    id: p.id,
    salary: i % 10 === 3 ? null : p.salary,
    city: p.city,
    town: p.city,
  }))
}

interface All {
  count: number
  sum: number
  average: number | null
  min: number | null
  max: number | null
}

/** `$compute=$all` by hand: one loop over the whole array, nulls skipped. */
function computeAll(values: readonly (number | null)[]): All {
  const acc = [0, 0, Infinity, -Infinity]
  allChunk(values, 0, values.length, acc)
  return finish(acc)
}

/**
 * The same loop, called on 1,024 values at a time. V8 optimizes a loop of a million iterations run
 * a few times mid-way (on-stack replacement) without type feedback for what follows it, and may
 * then leave the optimized code at every call; short calls are optimized normally. The engine's
 * scans are written this way (core `query/aggregate.ts`): so is the baseline they are held to.
 */
function computeChunked(values: readonly (number | null)[]): All {
  const acc = [0, 0, Infinity, -Infinity]
  for (let from = 0; from < values.length; from += 1024)
    allChunk(values, from, Math.min(values.length, from + 1024), acc)
  return finish(acc)
}

function allChunk(values: readonly (number | null)[], from: number, to: number, acc: number[]) {
  let count = acc[0]!
  let sum = acc[1]!
  let min = acc[2]!
  let max = acc[3]!
  for (let i = from; i < to; i++) {
    const v = values[i]
    if (v === null || v === undefined) continue
    count++
    sum += v
    if (v < min) min = v
    if (v > max) max = v
  }
  acc[0] = count
  acc[1] = sum
  acc[2] = min
  acc[3] = max
}

/** The same over a typed column, NaN for null, chunked: the floor for numbers in memory. */
function computeTyped(values: Float64Array): All {
  const acc = new Float64Array([0, 0, Infinity, -Infinity])
  for (let from = 0; from < values.length; from += 1024)
    typedChunk(values, from, Math.min(values.length, from + 1024), acc)
  return finish(Array.from(acc))
}

function typedChunk(values: Float64Array, from: number, to: number, acc: Float64Array) {
  let count = acc[0]!
  let sum = acc[1]!
  let min = acc[2]!
  let max = acc[3]!
  for (let i = from; i < to; i++) {
    const v = values[i]!
    if (v !== v) continue
    count++
    sum += v
    if (v < min) min = v
    if (v > max) max = v
  }
  acc[0] = count
  acc[1] = sum
  acc[2] = min
  acc[3] = max
}

function finish([count, sum, min, max]: number[]): All {
  return count
    ? { count, sum: sum!, average: sum! / count, min: min!, max: max! }
    : { count: 0, sum: 0, average: null, min: null, max: null }
}

export interface AggregateFixture {
  readonly groups: Group[]
  /** Time to build the engine's datastore (not a measure: said once). */
  readonly loadMs: number
}

/** The groups at `n` rows. `rest` builds a REST handler over the same rows, or is absent. */
export async function aggregateGroups(
  core: Core,
  n: number,
  options: { readonly rest: boolean },
): Promise<AggregateFixture> {
  const rows = makeRows(n)
  const load = timeOnce(() => loadedDatastore(core, MODEL, { data: { Person: rows } }))
  const dc: DataClass = load.value.dataClass('Person')

  // The plain side: the columns as arrays, the texts folded once with the engine's own fold.
  const salaries: (number | null)[] = rows.map((r) => r.salary)
  const typed = Float64Array.from(rows, (r) => r.salary ?? NaN)
  const cities: string[] = rows.map((r) => r.city)
  const folded: string[] = cities.map((c) => core.fold(c))

  let rest: RestCore | undefined
  if (options.rest) {
    const [restPkg, sourceCore] = await Promise.all([
      import('@entistore/rest'),
      import('@entistore/core'),
    ])
    // Its indexes built first and its reads in one piece (`sliceMs: Infinity`): a read that
    // waits for an index, or runs in 5 ms slices over 100k rows, answers a Promise; the rows
    // time the work, not the waits (they errored with "answered with a Promise").
    const ds = sourceCore.createDatastore(MODEL, { data: { Person: rows } })
    ds.buildIndexes()
    rest = restPkg.createRestHandler(ds, { sliceMs: Infinity })
    // A first read may also wait for an index it builds for itself (the sorted index of an
    // aggregate's min and max): once, untimed, awaited.
    for (const [path, query] of [
      ['/rest/Person/salary', '$compute=$all'],
      ['/rest/Person/city', '$distinct=true'],
      ['/rest/Person/town', '$distinct=true'],
    ] as const)
      await rest.respond({ method: 'GET', path, query, headers: {} })
  }
  // Reads call no async function and run in one piece: their reply is given at once.
  const respond = (path: string, query: string): string => {
    const reply = rest!.respond({ method: 'GET', path, query, headers: {} })
    if ('then' in reply) throw new Error(`${path}?${query}: answered with a Promise`)
    if (reply.status !== 200) throw new Error(`${path}?${query}: ${reply.status} ${reply.body}`)
    return reply.body as string
  }

  const distinctFolded = (): number => {
    const first = new Map<string, string>()
    for (let i = 0; i < folded.length; i++) {
      const f = folded[i]!
      if (!first.has(f)) first.set(f, cities[i]!)
    }
    const keys = [...first.keys()].sort()
    return keys.map((k) => first.get(k)!).length
  }
  const distinctExact = (): number => [...new Set(cities)].sort().length

  const distinctGroup = (id: string, attribute: 'city' | 'town', what: string): Group => ({
    id,
    title: `$distinct  ${attribute} (${what}), whole dataclass`,
    target: TARGET,
    notes: [
      'baseline: Map<folded text, first text> over texts folded beforehand, keys sorted',
      'check: number of distinct values',
    ],
    cases: [
      { kind: 'baseline', impl: 'hand loop, pre-folded, Map + sort', run: distinctFolded },
      {
        kind: 'plain',
        impl: '[...new Set(texts)].sort() (exact case)',
        run: distinctExact,
      },
      {
        kind: 'entistore',
        impl: `entistore dc.all().distinct('${attribute}')`,
        targeted: true,
        run: () => dc.all().distinct(attribute).length,
      },
      ...(rest
        ? [
            {
              kind: 'entistore' as const,
              impl: `respond GET /rest/Person/${attribute}?$distinct=true`,
              targeted: true,
              run: () =>
                (JSON.parse(respond(`/rest/Person/${attribute}`, '$distinct=true')) as unknown[])
                  .length,
            },
          ]
        : []),
    ],
  })

  const groups: Group[] = [
    {
      id: 'agg-compute',
      title: '$compute=$all  salary (long, one in ten null), whole dataclass',
      target: TARGET,
      notes: [
        'baseline: a loop over (number | null)[] keeping count, sum, min, max, called on 1,024 values at a time as the engine does (one loop over a million values may be left half-optimized by V8 in some processes: the extra row)',
        'check: count of non-null values',
      ],
      cases: [
        {
          kind: 'baseline',
          impl: 'hand loop over (number | null)[], in chunks',
          run: () => computeChunked(salaries).count,
        },
        {
          kind: 'plain',
          impl: 'the same as one loop over the whole array',
          run: () => computeAll(salaries).count,
        },
        {
          kind: 'plain',
          impl: 'the same loop over a Float64Array (NaN for null)',
          run: () => computeTyped(typed).count,
        },
        {
          kind: 'entistore',
          impl: "entistore dc.all().aggregates('salary')",
          targeted: true,
          run: () => dc.all().aggregates('salary').count,
        },
        ...(rest
          ? [
              {
                kind: 'entistore' as const,
                impl: 'respond GET /rest/Person/salary?$compute=$all',
                targeted: true,
                run: () =>
                  (
                    JSON.parse(respond('/rest/Person/salary', '$compute=$all')) as {
                      salary: { count: number }
                    }
                  ).salary.count,
              },
            ]
          : []),
      ],
    },
    distinctGroup('agg-distinct', 'city', 'text, no index: the folded column'),
    distinctGroup('agg-distinct-indexed', 'town', 'text, indexed: the sorted index'),
  ]
  return { groups, loadMs: load.ms }
}
