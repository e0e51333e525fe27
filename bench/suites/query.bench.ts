/**
 * Entistore against the same operations written by hand over plain arrays and Maps.
 *
 * The plain baseline is what a careful programmer would write for the same semantics: string
 * equality in the engine ignores case and diacritics, so the baseline folds too (`foldPlain`, the
 * same rule written here by hand: ASCII → lowercase; otherwise NFD, strip marks, lowercase) and its
 * Maps are keyed by folded strings, as the engine's hash index is. Where the engine answers from an
 * index, the baseline uses the hand-written equivalent (a Map, a sorted array + binary search); the
 * naive `Array.filter` version is shown as an extra row.
 *
 * `shortGroups` (issue 19): the lookups again on the short rows of short-rows.ts (a unique text
 * `code`, five indexes, a relation): equality on `code`, `dc.get`, ranges of 20 codes.
 */
import type { DataClass, Datastore } from '@entistore/core'
import { loadedDatastore, type Core } from '../engine.ts'
import {
  accentedPrefix,
  lookupKeys,
  makePeople,
  MODEL,
  nameOf,
  prng,
  type Person,
  type TextShape,
} from '../data.ts'
import { codeOf, makeShortData, SHORT_MODEL, type ShortRow } from '../short-rows.ts'
import { timeOnce, type Case } from '../timing.ts'

// ---------------------------------------------------------------- plain, hand-written structures

const NON_ASCII = /[^\u0000-\u007f]/
const MARKS = /\p{M}/gu

/** Case- and diacritic-insensitive comparison key, written by hand for the baseline. */
export function foldPlain(s: string): string {
  return NON_ASCII.test(s) ? s.normalize('NFD').replace(MARKS, '').toLowerCase() : s.toLowerCase()
}

/** The plain equivalent of the engine's indexes on this model. */
export interface PlainStore {
  /** Every row, in key order (the engine's key order array). */
  readonly rows: Person[]
  readonly byId: Map<number, Person>
  /** Folded name → row (the engine's hash index on name). */
  readonly byName: Map<string, Person>
  /** Rows sorted by folded name, and the folded names in that order (the sorted index on name). */
  readonly nameSorted: Person[]
  readonly nameKeys: string[]
  /** Rows sorted by salary (ties by id), and the salaries in that order (the sorted index on salary). */
  readonly salarySorted: Person[]
  readonly salaryKeys: number[]
  /** companyId → rows (the hash index on companyId). */
  readonly byCompany: Map<number, Person[]>
}

/** The plain store with the same indexes as the engine. */
export function buildPlain(data: readonly Person[]): PlainStore {
  const rows = data.slice()
  const byId = new Map<number, Person>()
  const byName = new Map<string, Person>()
  const byCompany = new Map<number, Person[]>()
  const folded = new Array<string>(rows.length)
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!
    byId.set(r.id, r)
    const f = (folded[i] = foldPlain(r.name))
    byName.set(f, r)
    const bucket = byCompany.get(r.companyId)
    if (bucket) bucket.push(r)
    else byCompany.set(r.companyId, [r])
  }
  const byNamePos = rows.map((_, i) => i).sort((a, b) => cmpStr(folded[a]!, folded[b]!) || a - b)
  const nameSorted = byNamePos.map((i) => rows[i]!)
  const nameKeys = byNamePos.map((i) => folded[i]!)
  const salarySorted = rows.slice().sort((a, b) => a.salary - b.salary || a.id - b.id)
  const salaryKeys = salarySorted.map((r) => r.salary)
  return { rows, byId, byName, nameSorted, nameKeys, salarySorted, salaryKeys, byCompany }
}

/** The minimal plain store of the peer study (array + Map on name + Map of arrays on companyId). */
export function buildPlainMinimal(data: readonly Person[]): unknown {
  const rows: Person[] = []
  const byName = new Map<string, Person>()
  const byCompany = new Map<number, Person[]>()
  for (const r of data) {
    rows.push(r)
    byName.set(r.name, r)
    const bucket = byCompany.get(r.companyId)
    if (bucket) bucket.push(r)
    else byCompany.set(r.companyId, [r])
  }
  return { rows, byName, byCompany }
}

const cmpStr = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** First position whose key is >= key (or > key with `strict`). */
function bound<K>(keys: readonly K[], key: K, strict: boolean): number {
  let lo = 0
  let hi = keys.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    const k = keys[mid]!
    if (k < key || (strict && k === key)) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The first `k` rows under `before`, best first: a bounded insertion (the peer study's top-k). */
export function topK<T>(rows: readonly T[], k: number, before: (a: T, b: T) => boolean): T[] {
  const out: T[] = []
  for (const r of rows) {
    let i: number
    if (out.length < k) {
      out.push(r)
      i = out.length - 1
    } else if (before(r, out[k - 1]!)) i = k - 1
    else continue
    while (i > 0 && before(r, out[i - 1]!)) {
      out[i] = out[i - 1]!
      i--
    }
    out[i] = r
  }
  return out
}

// Rows are visited in id order, so "strictly greater" keeps ties in id order as the engine does.
const salaryDescBefore = (a: Person, b: Person): boolean => a.salary > b.salary
const ageDescBefore = (a: Person, b: Person): boolean => a.age > b.age

// ---------------------------------------------------------------- the engine

export function buildEngine(core: Core, data: readonly Person[]): Datastore {
  return loadedDatastore(core, MODEL, { data: { Person: data } })
}

// ---------------------------------------------------------------- operations

export const LOOKUPS = 10_000

/** Parameters shared by every implementation of an operation at one size. */
export interface Params {
  readonly n: number
  /** The texts of the rows the parameters are for (data.ts). */
  readonly shape: TextShape
  /** Lookup keys as numbers; each call turns them into fresh strings (`prepare`). */
  readonly keyNums: number[]
  readonly ids: number[]
  /** 64 lists of 5 companyIds for IN. */
  readonly inLists: number[][]
  /** 16 lower bounds for `salary > x` (≈ 0.2–1.1 % of rows each). */
  readonly gt: number[]
  /** 4 windows [lo, hi) of ≈ 1 % of the salary range, mid-table. */
  readonly windows: [number, number][]
  /** 16 salaries spread over the range, where the 20-row ranges start. */
  readonly starts: number[]
  /** 16 prefixes `name` + 3 digits (111 names at 100k). */
  readonly prefixes: string[]
  readonly city: string
}

export function makeParams(n: number, shape: TextShape = 'ascii'): Params {
  const r = prng(99)
  const keyNums = lookupKeys(n, LOOKUPS).map((k) => Number(k.slice(4)))
  const ids = keyNums.map((k) => k + 1)
  const inLists = Array.from({ length: 64 }, () =>
    Array.from({ length: 5 }, () => 1 + Math.floor(r() * 1000)),
  )
  const gt = Array.from({ length: 16 }, (_, i) => 198_000 + i * 100)
  const windows = Array.from({ length: 4 }, (_, i): [number, number] => {
    const lo = 60_000 + i * 20_000
    return [lo, lo + 1_800]
  })
  const starts = Array.from({ length: 16 }, () => 20_000 + Math.floor(r() * 170_000))
  // ASCII: `name` + 3 digits (111 names at 100k); accented: a first and last name (n / 400).
  const prefixes = Array.from({ length: 16 }, () =>
    shape === 'ascii'
      ? 'name' + (100 + Math.floor(r() * 900))
      : accentedPrefix(Math.floor(r() * 400)),
  )
  const city = shape === 'ascii' ? 'Paris' : 'München'
  return { n, shape, keyNums, ids, inLists, gt, windows, starts, prefixes, city }
}

/** Fresh key strings for one call of a lookup batch (no cached hash, as keys from requests). */
export function freshKeys(p: Params): string[] {
  const out = new Array<string>(p.keyNums.length)
  // Concatenated at call time (nameOf builds a new string): no string is reused between calls.
  for (let i = 0; i < out.length; i++) out[i] = nameOf(p.keyNums[i]!, p.shape)
  return out
}

/** One operation: its implementations, its target, the engine's plan. */
export interface Group {
  readonly id: string
  readonly title: string
  /** Targeted (engine) cases must stay within `max` × the baseline. */
  readonly target?: { readonly max: number; readonly label: string }
  readonly cases: Case[]
  /** The engine's query plan (`explain()`), printed once. Runs the query, so it may throw. */
  readonly plan?: () => string
  readonly notes: string[]
  /** Only at this size and above (lookups run at every size). */
  readonly lookupOnly?: boolean
}

export interface Fixture {
  readonly core: Core
  readonly n: number
  readonly plain: PlainStore
  readonly ds: Datastore
  readonly params: Params
}

const sumIds = (rows: readonly { id: number }[]): number => rows.reduce((s, r) => s + r.id, 0)

/** Every operation at one size, for plain JS and the engine. */
export function queryGroups(fx: Fixture): Group[] {
  const { plain, params: p } = fx
  const fold = fx.core.fold
  const dc: DataClass = fx.ds.dataClass('Person')
  const ixName = dc.table.indexes.of('name')!.hash!
  const table = dc.table
  let keys: string[] = []
  const prepareKeys = (): void => {
    keys = freshKeys(p)
  }
  const groups: Group[] = []

  // ---- indexed equality
  groups.push({
    id: 'eq',
    title: `indexed equality  name = :1  (${LOOKUPS.toLocaleString('en')} lookups, fresh key strings)`,
    target: { max: 1.3, label: '≤1.3× Map' },
    lookupOnly: true,
    plan: () => dc.run('name = :1', { params: ['name1'] }).explain(),
    notes: [
      'baseline: Map keyed by folded name, map.get(foldPlain(k)); the engine folds the key the same way',
      'index layer = table.record(hash.get(fold(k))[0]): the hash index only, no query pipeline',
      'dc.query = the prepared text (cached per dataclass) + the index lookup + an EntitySelection, per lookup',
      '.at(0) also reads the record and makes its Entity view (the baseline returns the row it holds)',
    ],
    cases: [
      {
        kind: 'baseline',
        impl: 'plain Map, folded key',
        opsPerCall: LOOKUPS,
        prepare: prepareKeys,
        run: () => {
          let hits = 0
          for (const k of keys) if (plain.byName.get(foldPlain(k)) !== undefined) hits++
          return hits
        },
      },
      {
        kind: 'plain',
        impl: 'plain Map, exact key (no fold)',
        note: 'case-sensitive: not the same semantics',
        opsPerCall: LOOKUPS,
        prepare: prepareKeys,
        run: () => {
          let hits = 0
          for (const k of keys) if (plain.byName.get(k) !== undefined) hits++
          return hits
        },
      },
      {
        kind: 'entistore',
        impl: 'entistore index layer',
        targeted: true,
        opsPerCall: LOOKUPS,
        prepare: prepareKeys,
        run: () => {
          let hits = 0
          for (const k of keys) {
            const ids = ixName.get(fold(k))
            if (ids.length > 0 && table.record(ids[0]!) !== undefined) hits++
          }
          return hits
        },
      },
      {
        kind: 'entistore',
        impl: "entistore dc.query('name = :1')",
        targeted: true,
        opsPerCall: LOOKUPS,
        prepare: prepareKeys,
        run: () => {
          let hits = 0
          for (const k of keys) if (dc.query('name = :1', k).length > 0) hits++
          return hits
        },
      },
      {
        kind: 'entistore',
        impl: "entistore dc.query('name = :1').at(0)",
        note: 'also makes the Entity view: row id → record is one more random read',
        opsPerCall: LOOKUPS,
        prepare: prepareKeys,
        run: () => {
          let hits = 0
          for (const k of keys) if (dc.query('name = :1', k).at(0)) hits++
          return hits
        },
      },
    ],
  })

  // ---- primary key
  groups.push({
    id: 'get',
    title: `primary key  dc.get(id)  (${LOOKUPS.toLocaleString('en')} lookups)`,
    target: { max: 1.3, label: '≤1.3× Map' },
    lookupOnly: true,
    notes: ['baseline: Map<id, row>.get(id); dc.get coerces the key and returns the Entity view'],
    cases: [
      {
        kind: 'baseline',
        impl: 'plain Map<id,row>',
        opsPerCall: LOOKUPS,
        run: () => {
          let hits = 0
          for (const id of p.ids) if (plain.byId.get(id) !== undefined) hits++
          return hits
        },
      },
      {
        kind: 'entistore',
        impl: 'entistore dc.get(id)',
        targeted: true,
        opsPerCall: LOOKUPS,
        run: () => {
          let hits = 0
          for (const id of p.ids) if (dc.get(id) !== null) hits++
          return hits
        },
      },
    ],
  })

  // ---- IN
  const inPlain = (list: readonly number[]): number => {
    let out: Person[] = []
    for (const c of new Set(list)) {
      const b = plain.byCompany.get(c)
      if (b) out = out.concat(b)
    }
    return out.length
  }
  groups.push({
    id: 'in',
    title: 'IN  companyId in :1  (5 values, 64 different lists per call)',
    plan: () => dc.run('companyId in :1', { params: [p.inLists[0]] }).explain(),
    notes: [
      'baseline: Map<companyId, row[]>, concatenate the buckets of the distinct values',
      'engine result = selection.length (row ids found; rows neither ordered nor materialized)',
    ],
    cases: [
      {
        kind: 'baseline',
        impl: 'plain Map of buckets',
        opsPerCall: p.inLists.length,
        run: () => p.inLists.reduce((s, l) => s + inPlain(l), 0),
      },
      {
        kind: 'plain',
        impl: 'plain Array.filter + Set',
        opsPerCall: p.inLists.length,
        run: () =>
          p.inLists.reduce((s, l) => {
            const set = new Set(l)
            return s + plain.rows.filter((r) => set.has(r.companyId)).length
          }, 0),
      },
      {
        kind: 'entistore',
        impl: "entistore dc.query('companyId in :1')",
        opsPerCall: p.inLists.length,
        run: () => p.inLists.reduce((s, l) => s + dc.query('companyId in :1', l).length, 0),
      },
    ],
  })

  // ---- range, one-sided
  groups.push({
    id: 'range',
    title: 'range  salary > :1  (≈0.2–1.1 % of rows, 16 bounds per call)',
    plan: () => dc.run('salary > :1', { params: [p.gt[0]] }).explain(),
    notes: [
      'baseline: rows sorted by salary + binary search + slice (a hand-written sorted index)',
    ],
    cases: [
      {
        kind: 'baseline',
        impl: 'plain sorted array + bsearch',
        opsPerCall: p.gt.length,
        run: () =>
          p.gt.reduce((s, x) => {
            const from = bound(plain.salaryKeys, x, true)
            return s + plain.salarySorted.slice(from).length
          }, 0),
      },
      {
        kind: 'plain',
        impl: 'plain Array.filter',
        opsPerCall: p.gt.length,
        run: () => p.gt.reduce((s, x) => s + plain.rows.filter((r) => r.salary > x).length, 0),
      },
      {
        kind: 'entistore',
        impl: "entistore dc.query('salary > :1')",
        opsPerCall: p.gt.length,
        run: () => p.gt.reduce((s, x) => s + dc.query('salary > :1', x).length, 0),
      },
    ],
  })

  // ---- range, two-sided
  groups.push({
    id: 'between',
    title: 'range  salary >= :1 and salary < :2  (≈1 % windows mid-table, 4 per call)',
    plan: () =>
      dc
        .run('salary >= :1 and salary < :2', { params: [p.windows[0]![0], p.windows[0]![1]] })
        .explain(),
    notes: [
      'baseline: two binary searches on the sorted salaries + slice',
      'both bounds read one range of the sorted index, without planning (core range-lookup.ts)',
    ],
    cases: [
      {
        kind: 'baseline',
        impl: 'plain sorted array + 2 bsearch',
        opsPerCall: p.windows.length,
        run: () =>
          p.windows.reduce((s, [lo, hi]) => {
            const a = bound(plain.salaryKeys, lo, false)
            const b = bound(plain.salaryKeys, hi, false)
            return s + plain.salarySorted.slice(a, b).length
          }, 0),
      },
      {
        kind: 'plain',
        impl: 'plain Array.filter',
        opsPerCall: p.windows.length,
        run: () =>
          p.windows.reduce(
            (s, [lo, hi]) => s + plain.rows.filter((r) => r.salary >= lo && r.salary < hi).length,
            0,
          ),
      },
      {
        kind: 'entistore',
        impl: 'entistore dc.query(two bounds)',
        opsPerCall: p.windows.length,
        run: () =>
          p.windows.reduce(
            (s, [lo, hi]) => s + dc.query('salary >= :1 and salary < :2', lo, hi).length,
            0,
          ),
      },
    ],
  })

  // ---- a 20-row range against an indexed equality (issue 79): the same attribute, the same
  // starts; the window's width makes about 20 rows at any size.
  const width = Math.max(1, Math.round((20 * 180_000) / p.n))
  groups.push({
    id: 'range20',
    title: `range  salary > :1 and salary < :2  (≈20 rows, 16 per call) × salary = :1`,
    target: { max: 1.5, label: '≤1.5× indexed equality' },
    plan: () =>
      dc
        .run('salary > :1 and salary < :2', { params: [p.starts[0], p.starts[0]! + width] })
        .explain(),
    notes: [
      `baseline: the engine's own indexed equality on the same attribute, at the same 16 values`,
      `width ${width}: ≈20 rows a range at ${p.n.toLocaleString('en')} rows`,
    ],
    cases: [
      {
        kind: 'baseline',
        impl: 'entistore dc.query(salary = :1)',
        opsPerCall: p.starts.length,
        run: () => p.starts.reduce((s, x) => s + dc.query('salary = :1', x).length, 0),
      },
      {
        kind: 'entistore',
        impl: 'entistore dc.query(two bounds)',
        opsPerCall: p.starts.length,
        targeted: true,
        // Its own rows, counted by a filter of the plain rows (the baseline finds other ones).
        expectCheck: p.starts.reduce(
          (s, x) => s + plain.rows.filter((r) => r.salary > x && r.salary < x + width).length,
          0,
        ),
        run: () =>
          p.starts.reduce(
            (s, x) => s + dc.query('salary > :1 and salary < :2', x, x + width).length,
            0,
          ),
      },
    ],
  })

  // ---- begins with
  groups.push({
    id: 'begin',
    title: 'begins-with  name begin :1  (16 prefixes per call)',
    plan: () => dc.run('name begin :1', { params: [p.prefixes[0]] }).explain(),
    notes: [
      'baseline: rows sorted by folded name + two binary searches: [prefix, prefix + U+FFFF)',
    ],
    cases: [
      {
        kind: 'baseline',
        impl: 'plain sorted array + bsearch',
        opsPerCall: p.prefixes.length,
        run: () =>
          p.prefixes.reduce((s, raw) => {
            const pre = foldPlain(raw)
            // Every key starting with `pre` sorts in [pre, pre + U+FFFF).
            const from = bound(plain.nameKeys, pre, false)
            const to = bound(plain.nameKeys, pre + '\uffff', false)
            return s + plain.nameSorted.slice(from, to).length
          }, 0),
      },
      {
        kind: 'plain',
        impl: 'plain Array.filter + startsWith',
        opsPerCall: p.prefixes.length,
        run: () =>
          p.prefixes.reduce((s, raw) => {
            const pre = foldPlain(raw)
            return s + plain.rows.filter((r) => foldPlain(r.name).startsWith(pre)).length
          }, 0),
      },
      {
        kind: 'entistore',
        impl: "entistore dc.query('name begin :1')",
        opsPerCall: p.prefixes.length,
        run: () => p.prefixes.reduce((s, x) => s + dc.query('name begin :1', x).length, 0),
      },
    ],
  })

  // ---- two-condition scan
  groups.push({
    id: 'scan',
    title: 'two-condition scan  age > 30 and city = :1  (no index on age or city)',
    target: { max: 1.5, label: '≤1.5× filter' },
    plan: () => dc.run('age > 30 and city = :1', { params: [p.city] }).explain(),
    notes: [
      'baseline: rows.filter(r => r.age > 30 && foldPlain(r.city) === foldPlain(v)): folds like the engine',
      'the exact-case filter (r.city === v) is the raw Array.filter speed but not the same semantics',
    ],
    cases: [
      {
        kind: 'baseline',
        impl: 'plain Array.filter, folded',
        run: () => {
          const v = foldPlain(p.city)
          return plain.rows.filter((r) => r.age > 30 && foldPlain(r.city) === v).length
        },
      },
      {
        kind: 'plain',
        impl: 'plain Array.filter, exact case',
        note: 'case-sensitive: not the same semantics',
        run: () => {
          const v = p.city
          return plain.rows.filter((r) => r.age > 30 && r.city === v).length
        },
      },
      {
        kind: 'entistore',
        impl: "entistore dc.query('age > 30 and city = :1')",
        targeted: true,
        run: () => dc.query('age > 30 and city = :1', p.city).length,
      },
    ],
  })

  // ---- order by + top 100: through the sorted index on salary, and with no index on age
  const topGroup = (
    id: string,
    attr: 'salary' | 'age',
    title: string,
    notes: string[],
    before: (a: Person, b: Person) => boolean,
  ): Group => ({
    id,
    title,
    target: { max: 1.2, label: '≤1.2× top-k' },
    plan: () => dc.run('', { orderBy: `${attr} desc` }).explain(),
    notes,
    cases: [
      {
        kind: 'baseline',
        impl: 'plain top-k (k=100)',
        run: () => sumIds(topK(plain.rows, 100, before)),
      },
      {
        kind: 'plain',
        impl: 'plain full sort + slice',
        run: () =>
          sumIds(
            plain.rows
              .slice()
              .sort((a, b) => b[attr] - a[attr] || a.id - b.id)
              .slice(0, 100),
          ),
      },
      {
        kind: 'entistore',
        impl: `entistore all().orderBy('${attr} desc')`,
        targeted: true,
        run: () => {
          let s = 0
          for (const e of dc.all().orderBy(`${attr} desc`).window(0, 100))
            s += e!.getKey() as number
          return s
        },
      },
    ],
  })
  groups.push(
    topGroup(
      'top',
      'salary',
      'order by salary desc, first 100  (sorted index on salary)',
      [
        'baseline: bounded top-k selection over the array (k = 100, ties in id order)',
        'engine: dc.all().orderBy(…).slice(0, 100), then the 100 entities read (getKey)',
        'check = sum of the 100 ids: same rows in the same tie order',
      ],
      salaryDescBefore,
    ),
    topGroup(
      'top-noindex',
      'age',
      'order by age desc, first 100  (no index on age: heap top-k)',
      ['baseline: the same bounded top-k on age (ties in id order)'],
      ageDescBefore,
    ),
  )
  return groups
}

/** One way to bulk-load the data. `build` gets a fresh copy of the rows (strings included). */
export interface LoadCase {
  readonly kind: Case['kind']
  readonly impl: string
  readonly note?: string
  readonly build: (input: Person[]) => object
}

export const loadCases = (core: Core): LoadCase[] => [
  {
    kind: 'baseline',
    impl: 'plain, same indexes as the engine',
    note: 'array, Map id, Map folded name, sorted name, sorted salary, Map companyId',
    build: buildPlain,
  },
  {
    kind: 'plain',
    impl: 'plain, minimal (peer study)',
    note: 'array, Map name (exact), Map companyId',
    build: (input) => buildPlainMinimal(input) as object,
  },
  {
    kind: 'entistore',
    impl: 'entistore createDatastore(model, { data })',
    note: 'validates and coerces every value, checks key/unique, builds 4 indexes',
    build: (input) => buildEngine(core, input),
  },
]

/** The data of one size. */
export const makeData = makePeople

// ---------------------------------------------------------------- issue 19's short rows

/** Ranges of `SHORT_RANGE` codes in a row per call of `short-range`. */
const SHORT_RANGES = 16
const SHORT_RANGE = 20

export interface ShortFixture {
  readonly groups: Group[]
  /** Time to build the datastore of `n` rows (not a measure: said once). */
  readonly loadMs: number
}

/**
 * The lookups of issue 19 on its short rows (short-rows.ts: `Person` with a unique `code`, five
 * indexes, a relation), against hand-written Maps and a sorted array: equality on the unique code,
 * the primary key, and ranges of 20 codes.
 */
export function shortGroups(core: Core, n: number): ShortFixture {
  const data = makeShortData(n)
  const load = timeOnce(() => loadedDatastore(core, SHORT_MODEL, { data }))
  const dc: DataClass = load.value.dataClass('Person')
  const rows = data.Person
  const byId = new Map<number, ShortRow>()
  const byCode = new Map<string, ShortRow>()
  for (const r of rows) {
    byId.set(r.ID, r)
    byCode.set(foldPlain(r.code), r)
  }
  const codeSorted = rows.slice().sort((a, b) => cmpStr(foldPlain(a.code), foldPlain(b.code)))
  const codeKeys = codeSorted.map((r) => foldPlain(r.code))

  const r = prng(19)
  // Codes are C0000000…C(n−1), each once: numbers drawn here name existing rows.
  const codeNums = Array.from({ length: LOOKUPS }, () => Math.floor(r() * n))
  const ids = Array.from({ length: LOOKUPS }, () => 1 + Math.floor(r() * n))
  const starts = Array.from({ length: SHORT_RANGES }, () => Math.floor(r() * (n - SHORT_RANGE)))
  let codes: string[] = []
  // Fresh strings before every call, as keys parsed from requests are (no cached hash).
  const prepareCodes = (): void => {
    codes = codeNums.map(codeOf)
  }
  const lookups = LOOKUPS.toLocaleString('en')

  const groups: Group[] = [
    {
      id: 'short-eq',
      title: `short rows: unique text  code = :1  (${lookups} lookups, fresh key strings)`,
      target: { max: 1.3, label: '≤1.3× Map' },
      lookupOnly: true,
      plan: () => dc.run('code = :1', { params: [codeOf(1)] }).explain(),
      notes: [
        'baseline: Map keyed by folded code, map.get(foldPlain(k)); codes are C + 7 digits, so ' +
          'the engine and the baseline fold (lowercase) every key',
      ],
      cases: [
        {
          kind: 'baseline',
          impl: 'plain Map, folded key',
          opsPerCall: LOOKUPS,
          prepare: prepareCodes,
          run: () => {
            let hits = 0
            for (const k of codes) if (byCode.get(foldPlain(k)) !== undefined) hits++
            return hits
          },
        },
        {
          kind: 'entistore',
          impl: "entistore dc.query('code = :1')",
          targeted: true,
          opsPerCall: LOOKUPS,
          prepare: prepareCodes,
          run: () => {
            let hits = 0
            for (const k of codes) if (dc.query('code = :1', k).length > 0) hits++
            return hits
          },
        },
        {
          kind: 'entistore',
          impl: "entistore dc.query('code = :1').at(0)",
          note: 'also makes the Entity view',
          opsPerCall: LOOKUPS,
          prepare: prepareCodes,
          run: () => {
            let hits = 0
            for (const k of codes) if (dc.query('code = :1', k).at(0)) hits++
            return hits
          },
        },
      ],
    },
    {
      id: 'short-get',
      title: `short rows: primary key  dc.get(ID)  (${lookups} lookups)`,
      target: { max: 1.3, label: '≤1.3× Map' },
      lookupOnly: true,
      notes: ['baseline: Map<ID, row>.get(ID)'],
      cases: [
        {
          kind: 'baseline',
          impl: 'plain Map<ID,row>',
          opsPerCall: LOOKUPS,
          run: () => {
            let hits = 0
            for (const id of ids) if (byId.get(id) !== undefined) hits++
            return hits
          },
        },
        {
          kind: 'entistore',
          impl: 'entistore dc.get(ID)',
          targeted: true,
          opsPerCall: LOOKUPS,
          run: () => {
            let hits = 0
            for (const id of ids) if (dc.get(id) !== null) hits++
            return hits
          },
        },
      ],
    },
    {
      id: 'short-range',
      title: `short rows: range  code >= :1 and code < :2  (${SHORT_RANGE} rows each, ${SHORT_RANGES} per call)`,
      lookupOnly: true,
      plan: () =>
        dc.run('code >= :1 and code < :2', { params: [codeOf(0), codeOf(SHORT_RANGE)] }).explain(),
      notes: [
        'baseline: rows sorted by folded code, two binary searches, slice',
        "no goal in process; through HTTP it is held to ≤1.5× a GET by key's p25",
      ],
      cases: [
        {
          kind: 'baseline',
          impl: 'plain sorted array + 2 bsearch',
          opsPerCall: SHORT_RANGES,
          run: () =>
            starts.reduce((s, x) => {
              const a = bound(codeKeys, foldPlain(codeOf(x)), false)
              const b = bound(codeKeys, foldPlain(codeOf(x + SHORT_RANGE)), false)
              return s + codeSorted.slice(a, b).length
            }, 0),
        },
        {
          kind: 'entistore',
          impl: 'entistore dc.query(two bounds)',
          opsPerCall: SHORT_RANGES,
          run: () =>
            starts.reduce(
              (s, x) =>
                s + dc.query('code >= :1 and code < :2', codeOf(x), codeOf(x + SHORT_RANGE)).length,
              0,
            ),
        },
      ],
    },
  ]
  return { groups, loadMs: load.ms }
}
