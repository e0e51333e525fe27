/**
 * @module What a kept entity set costs a member (issue 47): saves sorted (and unsorted) sets of
 * 100,000 members through the REST handler in-process, `GET /rest/Employee?$orderby=…
 * &$method=entityset&$timeout=86400&$top=1`, and reports the growth of `heapUsed + arrayBuffers`
 * (typed arrays' contents live outside the JS heap) after full collections, divided by the members
 * kept, for each kind of ordering the engine has (a numeric column, a text column, an index walk,
 * two keys, the key order) and for an unordered query.
 *
 * Runs alone, in its own process: `npx tsx --conditions=source bench/entity-set-memory.ts`
 * (options: `--rows=100k` the Employee rows and members a set, `--sets=100` sets of each kind).
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { createDatastore, type ModelJson } from '@entistore/core'
import { createRestHandler } from '@entistore/rest'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

/** Heap and typed-array bytes in use after full collections, and the resident set then. */
function used(): { bytes: number; rss: number } {
  for (let i = 0; i < 3; i++) gc()
  const m = process.memoryUsage()
  return { bytes: m.heapUsed + m.arrayBuffers, rss: m.rss }
}

function option(name: string, fallback: number): number {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`))
  if (!arg) return fallback
  const text = arg.slice(name.length + 3).toLowerCase()
  const scale = text.endsWith('k') ? 1e3 : text.endsWith('m') ? 1e6 : 1
  return Math.round(parseFloat(text) * scale)
}

const ROWS = option('rows', 100_000)
const SETS = option('sets', 100)

const MODEL: ModelJson = {
  __NAME: 'bench-entity-sets',
  dataClasses: [
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', kind: 'storage', type: 'long', autosequence: true },
        { name: 'lastName', kind: 'storage', type: 'string' },
        { name: 'salary', kind: 'storage', type: 'number' },
        { name: 'age', kind: 'storage', type: 'long', indexed: true },
        { name: 'city', kind: 'storage', type: 'string' },
      ],
      key: [{ name: 'ID' }],
    },
  ],
}

const NAMES = ['Martin', 'Durand', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Richard', 'Petit']
const CITIES = ['Paris', 'Lyon', 'Nice', 'Lille', 'Nantes', 'Rennes', 'Metz']

function rows(): object[] {
  let seed = 47
  const next = (): number =>
    (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648
  return Array.from({ length: ROWS }, (_, i) => ({
    ID: i + 1,
    lastName: `${NAMES[Math.floor(next() * NAMES.length)]}${Math.floor(next() * 10_000)}`,
    salary: Math.round(20_000 + next() * 180_000),
    age: 18 + Math.floor(next() * 50),
    city: CITIES[Math.floor(next() * CITIES.length)],
  }))
}

/** Each kind of read that keeps a set: a name, and the query string before `$method`. */
const KINDS: readonly [string, string][] = [
  ['$orderby=salary desc (numeric column)', '$orderby=salary%20desc'],
  ['$orderby=lastName (text column)', '$orderby=lastName'],
  ['$orderby=age (sorted index)', '$orderby=age'],
  ['$orderby=city,salary desc (two keys)', '$orderby=city,salary%20desc'],
  ['$orderby=ID (key order)', '$orderby=ID'],
  ['$filter=salary>0 (unordered)', '$filter="salary>0"'],
]

/** Every row, no order: the table's own list of its rows, one for every such set. */
const WHOLE: [string, string] = ['every row (the table’s own list)', '$top=1']

const mb = (bytes: number): string => (bytes / 1e6).toFixed(1).padStart(7)

async function main(): Promise<void> {
  const ds = createDatastore(MODEL, {
    entitySets: { maxSetsPerSession: 10_000, maxMembersPerSession: 1e9, maxMembers: 1e9 },
  })
  ds.loadData({ Employee: rows() } as never)
  ds.buildIndexes()
  const rest = createRestHandler(ds)
  const save = async (query: string): Promise<void> => {
    const reply = await rest.request(
      `/rest/Employee?${query}&$method=entityset&$timeout=86400&$top=1`,
    )
    if (reply.status !== 200) throw new Error(`${query}: ${reply.status} ${await reply.text()}`)
    await reply.text()
  }
  // Warm every path once (columns, indexes, the key order), kept sets released.
  for (const [, query] of [...KINDS, WHOLE]) await save(query)
  ds.entitySets.clear()
  /** Bytes and RSS that SETS sets made by `query` hold. */
  const measure = async (name: string, query: string): Promise<number> => {
    const before = used()
    for (let i = 0; i < SETS; i++) await save(query)
    const after = used()
    if (ds.entitySets.members !== SETS * ROWS)
      throw new Error(`${ds.entitySets.members} members kept, not ${SETS * ROWS}`)
    const grown = after.bytes - before.bytes
    const perMember = (grown / (SETS * ROWS)).toFixed(2)
    const rss = mb(after.rss - before.rss)
    console.log(`${name.padEnd(40)} ${mb(grown)} MB  ${perMember} bytes a member  (RSS ${rss} MB)`)
    ds.entitySets.clear()
    return grown
  }
  console.log(
    `${SETS} sets of ${ROWS.toLocaleString('en')} members each kind, growth of heapUsed + arrayBuffers after full GCs (node ${process.version})`,
  )
  let all = 0
  for (const [name, query] of KINDS) all += await measure(name, query)
  const perMember = (all / (KINDS.length * SETS * ROWS)).toFixed(2)
  console.log(
    `${'mean of the above'.padEnd(40)} ${mb(all / KINDS.length)} MB  ${perMember} bytes a member`,
  )
  await measure(...WHOLE)
}

await main()
