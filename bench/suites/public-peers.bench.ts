/**
 * @module The public benchmark's in-process half (issue 22): Entistore through its TypeScript API
 * against the libraries a user would pick instead (LokiJS, mingo, TinyBase, alasql, NeDB) and
 * against plain JS loops (the floor), on the same rows (data.ts's people) and the same operations,
 * in one process and one run, at each size asked for.
 *
 * Every peer states, for every operation, either how it does it or why it cannot (a `cannot`
 * string, shown as "—, <why>" in the report): nothing is skipped silently. The timing is
 * timing.ts's (warm-up, calibration, interleaved samples, medians); a peer whose operation scans
 * once per lookup runs a subset of the lookups fitted to a time budget, extrapolated (said in the
 * note), and any call over `slowCallMs` is timed once, cold (said too).
 *
 * Semantic differences, stated beside the figures: Entistore's string equality ignores case and
 * accents (4D's rule) and the plain floor folds as it does; every peer compares exactly. The data
 * is ASCII and the query values are in the stored case, so all find the same rows, but the peers
 * do less work. Entistore's queries return an EntitySelection (row ids, entities made when read);
 * the peers build arrays of documents (NeDB and TinyBase copies). NeDB's API is asynchronous: each
 * call is awaited, and the time includes that.
 */
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { DataClass, Datastore } from '@entistore/core'
import nedbModule from '@seald-io/nedb'
import alasqlModule from 'alasql'
import { aggregate as mingoAggregate, find as mingoFind } from 'mingo'
import {
  createIndexes,
  createMetrics,
  createQueries,
  createStore,
  type Store,
  type Table,
} from 'tinybase'
import type { Core } from '../engine.ts'
import { makePeople, type Person, type TextShape } from '../data.ts'
import {
  fullGc,
  heapMb,
  median,
  timeCasesAsync,
  type AnyCase,
  type Timed,
  type TimingOptions,
} from '../timing.ts'
import { buildLoki, type LokiPeople } from './peers.bench.ts'
import {
  buildEngine,
  buildPlain,
  foldPlain,
  freshKeys,
  LOOKUPS,
  makeParams,
  topK,
  type Params,
  type PlainStore,
} from './query.bench.ts'

// ---------------------------------------------------------------- operations and peers

export const PUBLIC_OPS = [
  'load',
  'memory',
  'get',
  'eq',
  'in',
  'range',
  'between',
  'begin',
  'scan',
  'top',
  'aggregate',
  'update',
  'batch',
] as const
export type OpId = (typeof PUBLIC_OPS)[number]
/** The operations that are calls timed by timing.ts (load and memory are measured per build). */
type CallOp = Exclude<OpId, 'load' | 'memory'>

export const OP_TITLES: Record<OpId, string> = {
  load: 'bulk load with the indexes (ms per load)',
  memory: 'JS heap held per row after the load (bytes)',
  get: `get by primary key (${LOOKUPS.toLocaleString('en')} lookups a call)`,
  eq: `equality on the unique indexed name, fresh key strings (${LOOKUPS.toLocaleString('en')} lookups a call)`,
  in: 'companyId IN 5 values (64 lists a call)',
  range: 'salary > x, 0.2–1.1 % of rows (16 bounds a call)',
  between: 'salary >= lo and salary < hi, ≈1 % windows (4 a call)',
  begin: 'name begins with a 7-character prefix (16 a call)',
  scan: 'age > 30 and city = x, no index (a full scan)',
  top: 'order by salary desc, first 100',
  aggregate: 'sum and average of salary over every row',
  update: 'update age by key (1,000 updates a call)',
  batch: 'atomic batch of 10 updates by key (100 batches a call)',
}

export interface PeerInfo {
  readonly id: string
  readonly label: string
  /** The npm package measured, whose installed version is reported. */
  readonly pkg?: string
}

export const PEERS: readonly PeerInfo[] = [
  { id: 'plain', label: 'plain JS' },
  { id: 'entistore', label: 'Entistore', pkg: '@entistore/core' },
  { id: 'lokijs', label: 'LokiJS', pkg: 'lokijs' },
  { id: 'mingo', label: 'mingo', pkg: 'mingo' },
  { id: 'tinybase', label: 'TinyBase', pkg: 'tinybase' },
  { id: 'alasql', label: 'alasql', pkg: 'alasql' },
  { id: 'nedb', label: 'NeDB', pkg: '@seald-io/nedb' },
]

const require = createRequire(import.meta.url)
/**
 * The installed version of `pkg`: the version of the first package.json named `pkg` above the file
 * it resolves to (a workspace package resolves to its sources under the `source` condition).
 */
export function versionOf(pkg: string): string {
  let dir = dirname(require.resolve(pkg))
  for (;;) {
    const file = join(dir, 'package.json')
    if (existsSync(file)) {
      const json = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string }
      if (json.name === pkg) return json.version ?? '?'
    }
    if (dirname(dir) === dir) return '?'
    dir = dirname(dir)
  }
}

/** One peer's figure for one operation at one size: a time, or why there is none. */
export interface Cell {
  readonly peer: string
  /** Milliseconds per call (load: per load), or bytes per row (memory). */
  readonly value?: number
  /** Units of work per call: lookups, updates, batches… */
  readonly opsPerCall?: number
  /** Why the peer has no figure: the operation is not in it ("no transactions"). */
  readonly cannot?: string
  /** The call threw. */
  readonly error?: string
  /** What it found, and whether that is what the floor found (null: not comparable). */
  readonly check?: number
  readonly sameCheck?: boolean | null
  readonly note?: string
}

export interface OpResult {
  readonly size: number
  readonly op: OpId
  readonly cells: Cell[]
  /** The rows' texts, when not the ASCII ones (data.ts). */
  readonly shape?: 'accented'
}

// ---------------------------------------------------------------- how each peer does each operation

/** One unit of work (a lookup, an update, a batch): its check value, sync or not. */
type Unit<T> = (x: T) => number | Promise<number>

/** The units of each operation, the same for every peer (from query.bench.ts's parameters). */
interface Units {
  get: number[]
  eq: string[]
  in: number[][]
  range: number[]
  between: [number, number][]
  begin: string[]
  scan: string[]
  top: null[]
  aggregate: null[]
  update: [number, number][]
  batch: [number, number][][]
}

type Impl = { [K in CallOp]: { unit: Unit<Units[K][number]>; how: string } | string }

/** A peer as measured: how it loads, and each operation or why it has none. */
interface PeerRun {
  readonly info: PeerInfo
  /** Loaded store, or why it has none (mingo: it queries the caller's array). */
  readonly build: ((rows: Person[]) => object | Promise<object>) | string
  readonly ops: (store: object, rows: Person[]) => Impl
  /** NeDB: every unit returns a promise. */
  readonly async?: boolean
  readonly notes?: Partial<Record<OpId, string>>
}

const EXACT = 'case-sensitive'
const sumIds = (rows: readonly { id: number }[]): number => rows.reduce((s, r) => s + r.id, 0)
const salaryDesc = (a: Person, b: Person): boolean => a.salary > b.salary
const prefixRe = (x: string): RegExp => new RegExp('^' + x)

const plainRun: PeerRun = {
  info: PEERS[0]!,
  build: (rows) => buildPlain(rows),
  ops: (store) => {
    const s = store as PlainStore
    const bound = (keys: readonly number[] | readonly string[], key: number | string): number => {
      let lo = 0
      let hi = keys.length
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        if (keys[mid]! < key) lo = mid + 1
        else hi = mid
      }
      return lo
    }
    return {
      get: { how: 'Map<id, row>', unit: (id) => (s.byId.get(id) ? 1 : 0) },
      eq: { how: 'Map of folded names', unit: (k) => (s.byName.get(foldPlain(k)) ? 1 : 0) },
      in: {
        how: 'Map of buckets',
        unit: (l) => [...new Set(l)].reduce((n, c) => n + (s.byCompany.get(c)?.length ?? 0), 0),
      },
      range: {
        how: 'sorted array + binary search',
        unit: (x) => s.salarySorted.slice(bound(s.salaryKeys, x + 1)).length,
      },
      between: {
        how: 'sorted array + 2 binary searches',
        unit: ([lo, hi]) =>
          s.salarySorted.slice(bound(s.salaryKeys, lo), bound(s.salaryKeys, hi)).length,
      },
      begin: {
        how: 'sorted folded names + 2 binary searches',
        unit: (x) => {
          const pre = foldPlain(x)
          return bound(s.nameKeys, pre + '\uffff') - bound(s.nameKeys, pre)
        },
      },
      scan: {
        how: 'Array.filter, folded',
        unit: (city) => {
          const v = foldPlain(city)
          return s.rows.filter((r) => r.age > 30 && foldPlain(r.city) === v).length
        },
      },
      top: { how: 'bounded top-k', unit: () => sumIds(topK(s.rows, 100, salaryDesc)) },
      aggregate: {
        how: 'one loop',
        unit: () => {
          let sum = 0
          for (const r of s.rows) sum += r.salary
          return Math.round(sum / s.rows.length)
        },
      },
      update: {
        how: 'map.set(k, { ...old, age })',
        unit: ([id, age]) => (s.byId.set(id, { ...s.byId.get(id)!, age }), 1),
      },
      batch: {
        how: 'copies staged, then set',
        unit: (batch) => {
          const staged = batch.map(([id, age]): [number, Person] => {
            const old = s.byId.get(id)
            if (!old) throw new Error(`no row ${id}`)
            return [id, { ...old, age }]
          })
          for (const [id, row] of staged) s.byId.set(id, row)
          return 1
        },
      },
    }
  },
}

const entistoreRun = (core: Core): PeerRun => ({
  info: PEERS[1]!,
  build: (rows) => buildEngine(core, rows),
  ops: (store) => {
    const ds = store as Datastore
    const dc: DataClass = ds.dataClass('Person')
    return {
      get: { how: 'dc.get(id)', unit: (id) => (dc.get(id) ? 1 : 0) },
      eq: {
        how: "dc.findOne('name = :1', k)",
        unit: (k) => (dc.findOne('name = :1', k) ? 1 : 0),
      },
      in: {
        how: "dc.query('companyId in :1')",
        unit: (l) => dc.query('companyId in :1', l).length,
      },
      range: { how: "dc.query('salary > :1')", unit: (x) => dc.query('salary > :1', x).length },
      between: {
        how: "dc.query('salary >= :1 and salary < :2')",
        unit: ([lo, hi]) => dc.query('salary >= :1 and salary < :2', lo, hi).length,
      },
      begin: { how: "dc.query('name begin :1')", unit: (x) => dc.query('name begin :1', x).length },
      scan: {
        how: "dc.query('age > 30 and city = :1')",
        unit: (city) => dc.query('age > 30 and city = :1', city).length,
      },
      top: {
        how: "dc.all().orderBy('salary desc').slice(0, 100)",
        unit: () => {
          let s = 0
          for (const e of dc.all().orderBy('salary desc').window(0, 100)) s += e!.getKey() as number
          return s
        },
      },
      aggregate: {
        how: "dc.all().aggregates('salary')",
        unit: () => Math.round(dc.all().aggregates('salary').average!),
      },
      update: { how: 'dc.update(k, { age })', unit: ([id, age]) => (dc.update(id, { age }), 1) },
      batch: {
        how: 'ds.transaction(() => 10 × dc.update)',
        unit: (batch) => {
          ds.transaction(() => {
            for (const [id, age] of batch) dc.update(id, { age })
          })
          return 1
        },
      },
    }
  },
  notes: {
    eq: 'findOne returns the Entity (no selection for a unique match), as the peers return their document',
    in: 'queries return an EntitySelection (row ids, entities made when read); the peers build arrays of documents',
  },
})

const lokiRun: PeerRun = {
  info: PEERS[2]!,
  build: (rows) => buildLoki(rows, true),
  ops: (store) => {
    const c = store as LokiPeople
    return {
      get: { how: "coll.by('id', k) (unique index)", unit: (id) => (c.by('id', id) ? 1 : 0) },
      eq: { how: "coll.by('name', k) (unique index)", unit: (k) => (c.by('name', k) ? 1 : 0) },
      in: {
        how: 'find({$in}) (binary index)',
        unit: (l) => c.find({ companyId: { $in: l } }).length,
      },
      range: {
        how: 'find({$gt}) (binary index)',
        unit: (x) => c.find({ salary: { $gt: x } }).length,
      },
      between: {
        how: 'find({$between: [lo, hi - 1]}) (binary index)',
        unit: ([lo, hi]) => c.find({ salary: { $between: [lo, hi - 1] } }).length,
      },
      begin: {
        how: 'find({$regex: /^…/}) (a scan: no index for $regex)',
        unit: (x) => c.find({ name: { $regex: prefixRe(x) } }).length,
      },
      scan: {
        how: 'find({age: {$gt}, city})',
        unit: (city) => c.find({ age: { $gt: 30 }, city }).length,
      },
      top: {
        how: 'chain().simplesort(desc).limit(100)',
        unit: () => sumIds(c.chain().simplesort('salary', { desc: true }).limit(100).data()),
      },
      aggregate: {
        how: "coll.avg('salary') + mapReduce for the sum",
        unit: () => {
          const sum = c.mapReduce(
            (d) => d.salary,
            (xs) => xs.reduce((a, b) => a + b, 0),
          )
          return Math.round(c.avg('salary') + 0 * sum)
        },
      },
      update: {
        how: "by('id', k), set, coll.update(doc)",
        unit: ([id, age]) => {
          const d = c.by('id', id)!
          d.age = age
          c.update(d)
          return 1
        },
      },
      batch:
        'no atomic batch: collection transactions are undocumented and copy the whole collection (techfort/LokiJS#858)',
    }
  },
  notes: { top: 'simplesort copies the binary index and reverses it: ties in reverse id order' },
}

const mingoRun: PeerRun = {
  info: PEERS[3]!,
  build: 'no store: mingo queries the caller’s array (no load, no index)',
  ops: (_store, rows) => ({
    get: {
      how: 'find({id}).next() (a scan per lookup)',
      unit: (id) => (mingoFind(rows, { id }).next() ? 1 : 0),
    },
    eq: {
      how: 'find({name}).next() (a scan per lookup)',
      unit: (k) => (mingoFind(rows, { name: k }).next() ? 1 : 0),
    },
    in: {
      how: 'find({$in}) (a scan)',
      unit: (l) => mingoFind(rows, { companyId: { $in: l } }).all().length,
    },
    range: {
      how: 'find({$gt}) (a scan)',
      unit: (x) => mingoFind(rows, { salary: { $gt: x } }).all().length,
    },
    between: {
      how: 'find({$gte, $lt}) (a scan)',
      unit: ([lo, hi]) => mingoFind(rows, { salary: { $gte: lo, $lt: hi } }).all().length,
    },
    begin: {
      how: 'find({$regex}) (a scan)',
      unit: (x) => mingoFind(rows, { name: { $regex: prefixRe(x) } }).all().length,
    },
    scan: {
      how: 'find({age: {$gt}, city})',
      unit: (city) => mingoFind(rows, { age: { $gt: 30 }, city }).all().length,
    },
    top: {
      how: 'find().sort({salary: -1}).limit(100)',
      unit: () => sumIds(mingoFind<Person>(rows, {}).sort({ salary: -1 }).limit(100).all()),
    },
    aggregate: {
      how: 'aggregate([{$group: {$sum, $avg}}])',
      unit: () => {
        const [g] = mingoAggregate(rows, [
          { $group: { _id: null, sum: { $sum: '$salary' }, avg: { $avg: '$salary' } } },
        ]) as { avg: number }[]
        return Math.round(g!.avg)
      },
    },
    update: 'no store: writes are the caller’s own array code',
    batch: 'no store, no transactions',
  }),
}

interface TinyStore {
  store: Store
  byName: ReturnType<typeof createIndexes>
  queries: ReturnType<typeof createQueries>
}

const tinybaseRun: PeerRun = {
  info: PEERS[4]!,
  build: (rows) => {
    const table: Record<string, Person> = {}
    for (const r of rows) table[r.id] = r
    // TinyBase copies the cells: the rows are its own, as in every other store.
    const store = createStore().setTable('people', table as unknown as Table)
    const byName = createIndexes(store)
      .setIndexDefinition('name', 'people', 'name')
      .setIndexDefinition('companyId', 'people', 'companyId')
    const queries = createQueries(store)
    return { store, byName, queries } satisfies TinyStore
  },
  ops: (s) => {
    const { store, byName: ix, queries: q } = s as TinyStore
    // A query is live: asked again with the same parameters, TinyBase answers from its cache
    // without looking at a row (a 1M-row range came out at 0.4× the plain loop). Each call
    // defines its query anew, counts, and deletes it, so that every call scans, as the others do.
    const count = (where: (get: (cell: string) => unknown) => boolean): number => {
      q.setQueryDefinition('q', 'people', ({ select, where: filter }) => {
        select('id')
        filter(where)
      })
      const found = q.getResultRowCount('q')
      q.delQueryDefinition('q')
      return found
    }
    return {
      get: {
        how: "store.getRow('people', id)",
        unit: (id) =>
          store.hasRow('people', String(id)) && store.getRow('people', String(id)).id ? 1 : 0,
      },
      eq: {
        how: 'slice index on name + getRow',
        unit: (k) => (store.getRow('people', ix.getSliceRowIds('name', k)[0] ?? '').id ? 1 : 0),
      },
      in: {
        how: 'slice index on companyId, 5 slices',
        unit: (l) =>
          [...new Set(l)].reduce((n, c) => n + ix.getSliceRowIds('companyId', String(c)).length, 0),
      },
      range: {
        how: 'query defined, counted, deleted (a scan: slices have no ranges)',
        unit: (x) => count((get) => (get('salary') as number) > x),
      },
      between: {
        how: 'query defined, counted, deleted (a scan)',
        unit: ([lo, hi]) =>
          count((get) => {
            const v = get('salary') as number
            return v >= lo && v < hi
          }),
      },
      begin: {
        how: 'query defined, counted, deleted, startsWith (a scan)',
        unit: (x) => count((get) => (get('name') as string).startsWith(x)),
      },
      scan: {
        how: 'query defined, counted, deleted',
        unit: (city) => {
          q.setQueryDefinition('scan', 'people', ({ select, where }) => {
            select('id')
            where((get) => (get('age') as number) > 30 && get('city') === city)
          })
          const found = q.getResultRowCount('scan')
          q.delQueryDefinition('scan')
          return found
        },
      },
      top: {
        how: "store.getSortedRowIds('people', 'salary', true, 0, 100)",
        unit: () =>
          store
            .getSortedRowIds('people', 'salary', true, 0, 100)
            .reduce((a, id) => a + Number(id), 0),
      },
      aggregate: {
        how: 'metrics sum and avg, defined, read, deleted',
        unit: () => {
          const m = createMetrics(store)
            .setMetricDefinition('sum', 'people', 'sum', 'salary')
            .setMetricDefinition('avg', 'people', 'avg', 'salary')
          const avg = m.getMetric('avg')! + 0 * m.getMetric('sum')!
          m.destroy()
          return Math.round(avg)
        },
      },
      update: {
        how: "store.setCell('people', id, 'age', v)",
        unit: ([id, age]) => (store.setCell('people', String(id), 'age', age), 1),
      },
      batch: {
        how: 'store.transaction(() => 10 × setCell)',
        unit: (batch) => {
          store.transaction(() => {
            for (const [id, age] of batch) store.setCell('people', String(id), 'age', age)
          })
          return 1
        },
      },
    }
  },
  notes: {
    aggregate:
      'metrics are live: once defined TinyBase keeps them current and a read costs nothing; here each call computes them anew, as the others do',
    batch: 'rolls back only when its doRollback callback says so (not on a thrown error)',
    scan: 'a live query with unchanged parameters answers from its cache: range, between, begin and scan define their query anew each call',
  },
}

type Alasql = typeof alasqlModule
const alasql = alasqlModule as Alasql & {
  Database: new () => { exec: <T>(sql: string, params?: unknown[]) => T }
}

const alasqlRun: PeerRun = {
  info: PEERS[5]!,
  build: (rows) => {
    const db = new alasql.Database()
    db.exec(
      'CREATE TABLE people (id INT PRIMARY KEY, name STRING, age INT, city STRING, salary INT, companyId INT)',
    )
    db.exec('CREATE UNIQUE INDEX ix_name ON people(name)')
    db.exec('CREATE INDEX ix_salary ON people(salary)')
    db.exec('CREATE INDEX ix_company ON people(companyId)')
    db.exec('INSERT INTO people SELECT * FROM ?', [rows])
    return db
  },
  ops: (store) => {
    const db = store as InstanceType<typeof alasql.Database>
    const rows = (sql: string, params: unknown[]): number => db.exec<unknown[]>(sql, params).length
    return {
      get: {
        how: 'SELECT * WHERE id = ? (primary key)',
        unit: (id) => rows('SELECT * FROM people WHERE id = ?', [id]),
      },
      eq: {
        how: 'SELECT * WHERE name = ? (unique index)',
        unit: (k) => rows('SELECT * FROM people WHERE name = ?', [k]),
      },
      in: {
        how: 'WHERE companyId IN (?, ?, ?, ?, ?)',
        unit: (l) => rows('SELECT * FROM people WHERE companyId IN (?,?,?,?,?)', l),
      },
      range: {
        how: 'WHERE salary > ?',
        unit: (x) => rows('SELECT * FROM people WHERE salary > ?', [x]),
      },
      between: {
        how: 'WHERE salary >= ? AND salary < ?',
        unit: ([lo, hi]) => rows('SELECT * FROM people WHERE salary >= ? AND salary < ?', [lo, hi]),
      },
      begin: {
        how: "WHERE name LIKE 'x%'",
        unit: (x) => rows('SELECT * FROM people WHERE name LIKE ?', [x + '%']),
      },
      scan: {
        how: 'WHERE age > 30 AND city = ?',
        unit: (city) => rows('SELECT * FROM people WHERE age > 30 AND city = ?', [city]),
      },
      top: {
        how: 'SELECT TOP 100 … ORDER BY salary DESC',
        unit: () => sumIds(db.exec<Person[]>('SELECT TOP 100 * FROM people ORDER BY salary DESC')),
      },
      aggregate: {
        how: 'SELECT SUM(salary), AVG(salary)',
        unit: () =>
          Math.round(
            db.exec<{ a: number }[]>('SELECT SUM(salary) AS s, AVG(salary) AS a FROM people')[0]!.a,
          ),
      },
      update: {
        how: 'UPDATE … SET age = ? WHERE id = ?',
        unit: ([id, age]) => db.exec<number>('UPDATE people SET age = ? WHERE id = ?', [age, id]),
      },
      batch: 'no transactions: BEGIN / COMMIT do nothing in memory (AlaSQL/alasql#359)',
    }
  },
  notes: { eq: 'statements compiled once and cached by db.exec' },
}

// The package is CommonJS and its typings say `export default`: the default import is the class.
const Nedb = nedbModule as unknown as typeof nedbModule.default
type NedbPeople = InstanceType<typeof Nedb<Person>>

const nedbRun: PeerRun = {
  info: PEERS[6]!,
  async: true,
  build: async (rows) => {
    const db = new Nedb<Person>()
    await db.ensureIndexAsync({ fieldName: 'id', unique: true })
    await db.ensureIndexAsync({ fieldName: 'name', unique: true })
    await db.ensureIndexAsync({ fieldName: 'salary' })
    await db.ensureIndexAsync({ fieldName: 'companyId' })
    await db.insertAsync(rows)
    return db
  },
  ops: (store) => {
    const db = store as NedbPeople
    const found = async (q: object): Promise<number> => (await db.findAsync(q)).length
    return {
      get: {
        how: 'findOneAsync({id}) (unique index)',
        unit: async (id) => ((await db.findOneAsync({ id })) ? 1 : 0),
      },
      eq: {
        how: 'findOneAsync({name}) (unique index)',
        unit: async (k) => ((await db.findOneAsync({ name: k })) ? 1 : 0),
      },
      in: { how: 'findAsync({$in}) (index)', unit: (l) => found({ companyId: { $in: l } }) },
      range: { how: 'findAsync({$gt}) (index)', unit: (x) => found({ salary: { $gt: x } }) },
      between: {
        how: 'findAsync({$gte, $lt}) (index)',
        unit: ([lo, hi]) => found({ salary: { $gte: lo, $lt: hi } }),
      },
      begin: {
        how: 'findAsync({$regex}) (a scan)',
        unit: (x) => found({ name: { $regex: prefixRe(x) } }),
      },
      scan: {
        how: 'findAsync({age: {$gt}, city})',
        unit: (city) => found({ age: { $gt: 30 }, city }),
      },
      top: {
        how: 'findAsync({}).sort({salary: -1}).limit(100)',
        unit: async () => sumIds(await db.findAsync({}).sort({ salary: -1 }).limit(100)),
      },
      aggregate: 'no aggregates (count only)',
      update: {
        how: 'updateAsync({id}, {$set: {age}})',
        unit: async ([id, age]) => (await db.updateAsync({ id }, { $set: { age } })).numAffected,
      },
      batch: 'no multi-document transactions',
    }
  },
  notes: { get: 'asynchronous: each call awaited; documents are copies' },
}

// ---------------------------------------------------------------- units and cases

const UPDATES = 1000
const BATCHES = 100
const BATCH = 10

function makeUnits(p: Params, n: number): Units {
  const keys = p.ids.slice(0, UPDATES).map((id) => Math.min(id, n))
  return {
    get: p.ids,
    eq: freshKeys(p),
    in: p.inLists,
    range: p.gt,
    between: p.windows,
    begin: p.prefixes,
    scan: [p.city],
    top: [null],
    aggregate: [null],
    // Distinct keys in a row (no entity updated twice in one batch); ages changed per call below.
    update: keys.map((id, i) => [id, 18 + (i % 52)]),
    batch: Array.from({ length: BATCHES }, (_, b) =>
      keys
        .slice(b * BATCH, b * BATCH + BATCH)
        .map((id, i): [number, number] => [id, 18 + (i % 52)]),
    ),
  }
}

/**
 * A scan per lookup at 1M is ≈100 ms: 10,000 of them would be 17 minutes. Such a peer runs as many
 * of an operation's units as fit this budget (one call timed cold to see), extrapolated.
 */
const CALL_BUDGET_MS = 150

/**
 * The case of one peer for one operation: a call runs `count` units (all, or a subset fitted to
 * the budget). Before each call, outside the clock, `renew` makes its units anew where they must
 * be: fresh key strings (no cached hash), other ages (so that a write writes).
 */
async function makeCase<T>(
  run: PeerRun,
  impl: { unit: Unit<T>; how: string },
  all: readonly T[],
  renew: (gen: number) => readonly T[],
  floor: Unit<T> | undefined,
): Promise<AnyCase> {
  const kind =
    run.info.id === 'plain' ? 'baseline' : run.info.id === 'entistore' ? 'entistore' : 'peer'
  // Subset: time one unit (after one untimed), then keep what fits in the budget.
  let count = all.length
  if (all.length > 1 && run.info.id !== 'plain') {
    await impl.unit(all[0]!)
    const t0 = performance.now()
    await impl.unit(all[1]!)
    const one = performance.now() - t0
    count = Math.max(1, Math.min(all.length, Math.floor(CALL_BUDGET_MS / Math.max(one, 1e-4))))
  }
  let gen = 0
  let units = all.slice(0, count)
  const prepare = (): void => {
    units = renew(++gen).slice(0, count)
  }
  // The floor's finds over the same subset, for the check column (writes count themselves).
  let expectCheck: number | undefined
  if (count < all.length) {
    expectCheck = count
    if (floor) {
      expectCheck = 0
      for (const x of all.slice(0, count)) expectCheck += floor(x) as number
    }
  }
  const base = {
    kind,
    impl: impl.how,
    opsPerCall: all.length,
    prepare,
    ...(count < all.length
      ? {
          extrapolate: all.length / count,
          expectCheck,
          note: `${count} of ${all.length} a call, extrapolated`,
        }
      : {}),
  } as const
  if (run.async)
    return {
      ...base,
      async: true,
      run: async () => {
        let acc = 0
        for (const x of units) acc += await impl.unit(x)
        return acc
      },
    }
  const unit = impl.unit as (x: T) => number
  return {
    ...base,
    run: () => {
      let acc = 0
      for (const x of units) acc += unit(x)
      return acc
    },
  }
}

/** Units made anew before each call: fresh key strings, other ages; the others as they are. */
function renewer(
  op: CallOp,
  p: Params,
  all: readonly unknown[],
): (gen: number) => readonly unknown[] {
  const age = (a: number, gen: number): number => 18 + ((a + gen) % 52)
  switch (op) {
    case 'eq':
      return () => freshKeys(p)
    case 'update':
      return (gen) => (all as [number, number][]).map(([id, a]) => [id, age(a, gen)])
    case 'batch':
      return (gen) =>
        (all as [number, number][][]).map((b) => b.map(([id, a]) => [id, age(a, gen)]))
    default:
      return () => all
  }
}

// ---------------------------------------------------------------- one size

interface Loaded {
  readonly run: PeerRun
  readonly store?: object
  readonly loadMs?: number
  readonly bytesPerRow?: number
  readonly loads?: number
  readonly error?: string
}

/**
 * Builds the peer's store `reps` times from fresh rows (the last one kept): the median time, and
 * the heap it holds (after a full GC, the input dropped) per row.
 */
/**
 * The rows held at once when a store's memory is measured, by default: at 1k rows a store is about
 * a megabyte, within the heap's own noise after a GC (the smoke run printed -447 B a row), so small
 * sizes hold several copies of the store and divide by every row they hold.
 */
const MEMORY_ROWS = 50_000

async function load(
  run: PeerRun,
  n: number,
  reps: number,
  shape: TextShape,
  memoryRows: number,
): Promise<Loaded> {
  if (typeof run.build === 'string') return { run }
  const samples: number[] = []
  let store: object | undefined
  // The heap before any build, against the heap once the last one's input is dropped: taken
  // between two builds instead, it would count the store before, which an await can keep alive.
  const h0 = heapMb()
  let held = NaN
  const copies = Math.max(1, Math.ceil(memoryRows / n))
  try {
    for (let i = 0; i < reps; i++) {
      store = undefined
      let input: Person[] | undefined = makePeople(n, 42, shape)
      const t0 = performance.now()
      store = await run.build(input)
      samples.push(performance.now() - t0)
      input = undefined
    }
    // The timed store is one copy; the others are built untimed, and dropped on return.
    const more: object[] = []
    for (let i = 1; i < copies; i++) more.push(await run.build(makePeople(n, 42, shape)))
    held = heapMb() - h0
  } catch (e) {
    return { run, error: e instanceof Error ? e.message : String(e) }
  }
  const bytesPerRow = (held * 1048576) / (n * copies)
  return { run, store, loadMs: median(samples), bytesPerRow, loads: reps }
}

export interface PublicPeersOptions {
  readonly sizes: readonly number[]
  readonly timing: TimingOptions
  /** Timed loads per peer at each size (a store of 1M rows takes up to a minute for some). */
  readonly loadReps: (n: number) => number
  /** Rows held at once to measure a store's memory (copies of a small store). @default 50,000 */
  readonly memoryRows?: number
  /** Called with each operation's result as it is measured (the progress the run prints). */
  readonly onResult?: (r: OpResult) => void
  /**
   * Also runs ACCENTED_OPS on the accented rows (data.ts) at this size, after the sizes; their
   * results have `shape: 'accented'`. @default none
   */
  readonly accentedSize?: number
}

/** The operations run on the accented rows: those whose work depends on the texts. */
export const ACCENTED_OPS: readonly OpId[] = ['load', 'memory', 'eq', 'begin', 'scan']

/** The whole in-process half: every operation of every peer at every size. */
export async function runPublicPeers(core: Core, o: PublicPeersOptions): Promise<OpResult[]> {
  const out: OpResult[] = []
  const emit = (r: OpResult): void => {
    out.push(r)
    o.onResult?.(r)
  }
  for (const n of o.sizes) await runSize(core, o, n, 'ascii', PUBLIC_OPS, emit)
  if (o.accentedSize !== undefined)
    await runSize(core, o, o.accentedSize, 'accented', ACCENTED_OPS, emit)
  return out
}

/** Every operation of `ops` of every peer at size `n` on the rows of `shape`. */
async function runSize(
  core: Core,
  o: PublicPeersOptions,
  n: number,
  shape: TextShape,
  ops: readonly OpId[],
  emit: (r: OpResult) => void,
): Promise<void> {
  const runs = [plainRun, entistoreRun(core), lokiRun, mingoRun, tinybaseRun, alasqlRun, nedbRun]
  const tag = shape === 'accented' ? { shape } : {}
  // The caller's array, for mingo (which has no store) and for nothing else.
  const rows = makePeople(n, 42, shape)
  const loaded: Loaded[] = []
  for (const run of runs) {
    loaded.push(await load(run, n, o.loadReps(n), shape, o.memoryRows ?? MEMORY_ROWS))
    fullGc()
  }
  for (const op of ['load', 'memory'] as const)
    emit({
      size: n,
      op,
      ...tag,
      cells: loaded.map((l): Cell => {
        const peer = l.run.info.id
        if (typeof l.run.build === 'string') return { peer, cannot: l.run.build }
        if (l.error !== undefined) return { peer, error: l.error }
        const value = op === 'load' ? l.loadMs! : l.bytesPerRow!
        return {
          peer,
          value,
          ...(op === 'load' ? { opsPerCall: 1, note: `median of ${l.loads} loads` } : {}),
          ...(op === 'memory' && peer === 'lokijs'
            ? { note: 'keeps the inserted objects (adds $loki, meta)' }
            : {}),
        }
      }),
    })
  const params = makeParams(n, shape)
  const units = makeUnits(params, n)
  const impls = loaded.map((l) =>
    l.error === undefined ? l.run.ops(l.store ?? {}, rows) : undefined,
  )
  const floor = impls[0]!
  for (const op of ops) {
    if (op === 'load' || op === 'memory') continue
    const all = units[op] as readonly unknown[]
    const floorImpl = floor[op] as { unit: Unit<unknown> }
    const cases: AnyCase[] = []
    const slots: (Cell | number)[] = []
    for (let i = 0; i < runs.length; i++) {
      const run = runs[i]!
      const impl = impls[i]?.[op]
      const peer = run.info.id
      if (impls[i] === undefined) slots.push({ peer, error: loaded[i]!.error })
      else if (typeof impl === 'string') slots.push({ peer, cannot: impl })
      else {
        try {
          const c = await makeCase(
            run,
            impl as { unit: Unit<unknown>; how: string },
            all,
            renewer(op, params, all),
            op === 'update' || op === 'batch' ? undefined : floorImpl.unit,
          )
          slots.push(cases.length)
          cases.push(c)
        } catch (e) {
          slots.push({ peer, error: e instanceof Error ? e.message : String(e) })
        }
      }
    }
    const timed = await timeCasesAsync(cases, o.timing)
    const base = timed[0]!
    emit({
      size: n,
      op,
      ...tag,
      cells: slots.map((s, i) =>
        typeof s === 'number' ? cellOf(runs[i]!, op, timed[s]!, base) : s,
      ),
    })
    fullGc()
  }
}

function cellOf(run: PeerRun, op: CallOp, t: Timed<AnyCase>, base: Timed<AnyCase>): Cell {
  const peer = run.info.id
  if (t.error !== undefined) return { peer, error: t.error }
  const expected = t.case.expectCheck ?? base.check
  // Writes count themselves; the top's ids differ only where ties are ordered otherwise.
  const sameCheck = op === 'update' || op === 'batch' ? null : t.check === expected
  const notes = [
    t.case.note,
    run.notes?.[op],
    t.slow ? 'one cold call (slow): not repeated' : '',
    sameCheck === false
      ? `found ${t.check.toLocaleString('en')}, the floor ${expected.toLocaleString('en')}`
      : '',
  ].filter(Boolean)
  return {
    peer,
    value: t.median,
    opsPerCall: t.case.opsPerCall ?? 1,
    check: t.check,
    sameCheck,
    note: [`${t.case.impl}`, ...notes].join('; '),
  }
}
