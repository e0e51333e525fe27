/**
 * Aggregates and distinct values of selections (query/aggregate.ts through EntitySelection): the
 * rules case by case, then a property comparing every aggregate and distinct list, on a datastore
 * with indexes and one without, to a plain computation over the same rows after random writes
 * (the columns and indexes must follow them). The plain side folds text by the documented rule
 * (NFD, marks removed, lowercase) and imports nothing of the engine.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createDatastore, type Datastore } from '../orda/objects/datastore.js'
import type { EntitySelection } from '../orda/objects/entity-selection.js'
import type { ModelJson } from '../schema/model-json.js'
import type { DataFile } from '../store/load-data.js'

const codeOf = (f: () => unknown): unknown => {
  try {
    f()
  } catch (e) {
    return (e as { errCode?: number }).errCode
  }
  return 'no error'
}

// ---- the rules, case by case ----

const MODEL: ModelJson = {
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'name', type: 'string' },
        { name: 'staff', kind: 'relatedEntities', path: 'employer' },
      ],
    },
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'lastName', type: 'string' },
        { name: 'city', type: 'string', indexed: true },
        { name: 'salary', type: 'number' },
        { name: 'bonus', type: 'long', indexed: true },
        { name: 'hired', type: 'date' },
        { name: 'active', type: 'bool' },
        { name: 'extra', type: 'object' },
        { name: 'photo', type: 'image' },
        { name: 'employerID', type: 'long' },
        { name: 'employer', kind: 'relatedEntity', path: 'Company', foreignKey: 'employerID' },
        { name: 'double', kind: 'calculated', type: 'number' },
        { name: 'company', kind: 'alias', path: 'employer.name' },
      ],
    },
  ],
}

const DATA: DataFile = {
  Company: [
    { ID: 1, name: 'Globex' },
    { ID: 2, name: 'acme' },
  ],
  Employee: [
    {
      ID: 1,
      lastName: 'smith',
      city: 'Paris',
      salary: 70000,
      bonus: 5,
      hired: '2020-03-01',
      active: true,
      extra: { level: 3, tags: ['a', 'b'] },
      employerID: 1,
    },
    {
      ID: 2,
      lastName: 'Smith',
      city: 'paris',
      salary: 99000,
      bonus: null,
      hired: '2019-01-15',
      active: false,
      extra: { level: 'senior', tags: ['b'] },
      employerID: 2,
    },
    {
      ID: 3,
      lastName: 'Élodie',
      city: 'Lyon',
      salary: 80000,
      bonus: 2,
      hired: null,
      active: true,
      extra: { level: 5 },
      employerID: 1,
    },
    {
      ID: 4,
      lastName: 'Adams',
      city: null,
      salary: 86000,
      bonus: 7,
      hired: '2021-06-30',
      active: null,
      extra: null,
    },
    { ID: 5, lastName: null, city: 'Lyon', salary: null, bonus: 2, extra: { level: null } },
  ],
}

const store = (): Datastore =>
  createDatastore(MODEL, {
    data: DATA,
    calculated: {
      Employee: {
        double: (e) => {
          const s = e.get('salary')
          return typeof s === 'number' ? 2 * s : null
        },
      },
    },
  })

describe('aggregates of a selection', () => {
  const ds = store()
  const Employee = ds.dataClass('Employee')
  const all = Employee.all()

  it('numbers: count of non-null values, sum, average, min, max', () => {
    expect(all.aggregates('salary')).toEqual({
      count: 4,
      sum: 335000,
      average: 83750,
      min: 70000,
      max: 99000,
    })
    expect(all.count('salary')).toBe(4)
    expect(all.sum('salary')).toBe(335000)
    expect(all.average('salary')).toBe(83750)
    expect(all.min('salary')).toBe(70000)
    expect(all.max('salary')).toBe(99000)
    expect(all.length).toBe(5)
  })

  it('an indexed number over the whole dataclass answers from the index, as a scan would', () => {
    expect(all.count('bonus')).toBe(4)
    expect(all.min('bonus')).toBe(2)
    expect(all.max('bonus')).toBe(7)
    expect(all.distinct('bonus')).toEqual([2, 5, 7])
    expect(all.orderBy('bonus desc').min('bonus')).toBe(2)
    expect(Employee.query('ID < 5').distinct('bonus')).toEqual([2, 5, 7])
  })

  it('after $filter: only the selected entities', () => {
    const paris = Employee.query("city = 'paris'")
    expect(paris.aggregates('salary')).toEqual({
      count: 2,
      sum: 169000,
      average: 84500,
      min: 70000,
      max: 99000,
    })
  })

  it('texts compare without case or accents; the spelling of the entity created first is given', () => {
    expect(all.aggregates('lastName')).toEqual({ count: 4, min: 'Adams', max: 'smith' })
    expect(all.distinct('lastName')).toEqual(['Adams', 'Élodie', 'smith'])
    expect(all.distinct('lastName', { diacritical: true })).toEqual([
      'Adams',
      'Élodie',
      'Smith',
      'smith',
    ])
    // The same with an index (city is indexed) and without (a query's selection).
    expect(all.distinct('city')).toEqual(['Lyon', 'Paris'])
    expect(Employee.query('ID > 0').distinct('city')).toEqual(['Lyon', 'Paris'])
    expect(all.aggregates('city')).toEqual({ count: 4, min: 'Lyon', max: 'Paris' })
    expect(all.max('city')).toBe('Paris')
    expect(all.distinct('city', { diacritical: true })).toEqual(['Lyon', 'Paris', 'paris'])
  })

  it('dates and booleans: count, min and max; no sum', () => {
    expect(all.aggregates('hired')).toEqual({ count: 3, min: '2019-01-15', max: '2021-06-30' })
    expect(all.distinct('hired')).toEqual(['2019-01-15', '2020-03-01', '2021-06-30'])
    expect(all.aggregates('active')).toEqual({ count: 3, min: false, max: true })
    expect(all.distinct('active')).toEqual([false, true])
    expect(codeOf(() => all.sum('hired'))).toBe(9050)
    expect(codeOf(() => all.average('active'))).toBe(9050)
    expect(codeOf(() => all.sum('lastName'))).toBe(9050)
  })

  it('object properties: numbers summed, other kinds counted; min and max of the first kind present', () => {
    expect(all.aggregates('extra.level')).toEqual({
      count: 3,
      sum: 8,
      average: 4,
      min: 'senior',
      max: 'senior',
    })
    expect(Employee.query('ID in :1', [1, 3]).aggregates('extra.level')).toEqual({
      count: 2,
      sum: 8,
      average: 4,
      min: 3,
      max: 5,
    })
    expect(all.distinct('extra.level')).toEqual(['senior', 3, 5])
    expect(all.sum('extra.missing')).toBe(0)
    expect(all.average('extra.missing')).toBeNull()
    // Through a collection: each element counts; an entity counts once.
    expect(all.count('extra.tags[]')).toBe(2)
    expect(all.distinct('extra.tags[]')).toEqual(['a', 'b'])
  })

  it('calculated and alias attributes: the value each entity computes', () => {
    expect(all.sum('double')).toBe(670000)
    expect(all.distinct('company')).toEqual(['acme', 'Globex'])
    expect(all.aggregates('company')).toEqual({ count: 3, min: 'acme', max: 'Globex' })
  })

  it('an empty selection: count 0, sum 0, the others null', () => {
    const none = Employee.query('ID > 100')
    expect(none.aggregates('salary')).toEqual({
      count: 0,
      sum: 0,
      average: null,
      min: null,
      max: null,
    })
    expect(none.aggregates('lastName')).toEqual({ count: 0, min: null, max: null })
    expect(none.distinct('lastName')).toEqual([])
    expect(none.min('bonus')).toBeNull()
  })

  it('refuses what cannot be computed: relations, pictures, whole objects, unknown names', () => {
    expect(codeOf(() => all.sum('employer'))).toBe(9050)
    expect(codeOf(() => all.count('employer.name'))).toBe(9050)
    expect(codeOf(() => ds.dataClass('Company').all().distinct('staff'))).toBe(9050)
    expect(codeOf(() => all.max('photo'))).toBe(9050)
    expect(codeOf(() => all.distinct('extra'))).toBe(9050)
    expect(codeOf(() => all.min('salary.x'))).toBe(9050)
    expect(codeOf(() => all.min('salary[]'))).toBe(9050)
    expect(codeOf(() => all.count('nope'))).toBe(1500)
    expect(codeOf(() => all.count(''))).toBe(1500)
  })

  it('deleted entities a selection still holds are left out; writes are seen', () => {
    const fresh = store()
    const E = fresh.dataClass('Employee')
    const before = E.all()
    expect(before.sum('salary')).toBe(335000)
    E.drop(2)
    E.update(1, { salary: 1000, city: 'Zurich' })
    expect(before.sum('salary')).toBe(1000 + 80000 + 86000)
    expect(before.distinct('city')).toEqual(['Lyon', 'Zurich'])
    const now = E.all()
    expect(now.max('city')).toBe('Zurich')
    expect(now.max('bonus')).toBe(7)
    E.create({ ID: 6, lastName: 'Zed', city: 'ZURICH', bonus: 9, salary: 5 })
    expect(E.all().distinct('city')).toEqual(['Lyon', 'Zurich'])
    expect(E.all().max('bonus')).toBe(9)
    expect(E.all().aggregates('salary')).toMatchObject({ count: 4, min: 5 })
  })
})

// ---- the property: every aggregate against a plain computation ----

/** Folding by the documented rule, written here without the engine's code. */
const plainFold = (s: string): string => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()

const NAMES = ['Smith', 'SMITH', 'smith', 'Élodie', 'elodie', 'Zoë', 'zoe', 'Ann', 'ann', 'Bob']
const DAYS = ['2020-01-01', '2020-01-02', '2019-12-31', '2021-07-14']

type Scalar = string | number | boolean
interface Row {
  ID: number
  n: number | null
  name: string | null
  day: string | null
  flag: boolean | null
  extra: { v?: unknown; tags?: unknown[] } | null
}

const scalarArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer({ min: -40, max: 40 }).map((x) => x / 4),
  fc.constantFrom(...NAMES),
  fc.boolean(),
  fc.constant(null),
  fc.constant({ nested: 1 }),
)

const rowArb = (ID: number): fc.Arbitrary<Row> =>
  fc.record({
    ID: fc.constant(ID),
    n: fc.option(
      fc.integer({ min: -400, max: 400 }).map((x) => x / 4),
      { freq: 4 },
    ),
    name: fc.option(fc.constantFrom(...NAMES), { freq: 4 }),
    day: fc.option(fc.constantFrom(...DAYS), { freq: 4 }),
    flag: fc.option(fc.boolean(), { freq: 4 }),
    extra: fc.option(
      fc.record(
        { v: scalarArb, tags: fc.array(scalarArb, { maxLength: 3 }) },
        { requiredKeys: [] },
      ),
      { freq: 4 },
    ),
  })

type Write =
  | { kind: 'update'; at: number; row: Row }
  | { kind: 'drop'; at: number }
  | { kind: 'create'; row: Row }

const scenarioArb = fc.integer({ min: 0, max: 30 }).chain((size) =>
  fc.record({
    rows: fc.tuple(...Array.from({ length: size }, (_, i) => rowArb(i + 1))),
    writes: fc.array(
      fc.oneof(
        fc.record({ kind: fc.constant('update' as const), at: fc.nat(), row: rowArb(0) }),
        fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }),
        fc.record({ kind: fc.constant('create' as const), row: rowArb(0) }),
      ),
      { maxLength: 8 },
    ),
    // The selection: every entity, or those whose ID is in the subset.
    subset: fc.option(fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 20 })),
    // Whether the selection is taken before the writes (it then holds deleted entities).
    early: fc.boolean(),
  }),
)

const propModel = (indexed: boolean): ModelJson => ({
  dataClasses: [
    {
      name: 'T',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'n', type: 'number', indexed },
        { name: 'name', type: 'string', indexed },
        { name: 'day', type: 'date', indexed },
        { name: 'flag', type: 'bool', indexed },
        { name: 'extra', type: 'object' },
      ],
    },
  ],
})

/** What a path reaches in a plain row: one value, or several through `[]`. */
function reach(row: Row, path: string): unknown[] {
  switch (path) {
    case 'extra.v':
      return row.extra && 'v' in row.extra ? [row.extra.v] : []
    case 'extra.tags[]':
      return Array.isArray(row.extra?.tags) ? row.extra.tags : []
    default:
      return [row[path as 'n' | 'name' | 'day' | 'flag']]
  }
}

const isScalar = (v: unknown): v is Scalar =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && isFinite(v))

/** Texts of `path` compare folded (name and object values) or as written (dates). */
const foldsText = (path: string): boolean => path !== 'day'
const kindRank = (v: Scalar): number => (typeof v === 'boolean' ? 0 : typeof v === 'string' ? 1 : 2)

/** The plain order: kinds, then false < true, numbers ascending, texts by folded form then as written. */
function plainCompare(a: Scalar, b: Scalar, folds: boolean): number {
  const ka = kindRank(a)
  const kb = kindRank(b)
  if (ka !== kb) return ka - kb
  if (typeof a === 'string' && typeof b === 'string') {
    const fa = folds ? plainFold(a) : a
    const fb = folds ? plainFold(b) : b
    return fa < fb ? -1 : fa > fb ? 1 : 0
  }
  return a < b ? -1 : a > b ? 1 : 0
}

/** Rows in creation order (the earliest spelling wins a tie). */
function plainAggregates(
  rows: readonly Row[],
  path: string,
  numeric: boolean,
): {
  count: number
  sum?: number
  average?: number | null
  min: Scalar | null
  max: Scalar | null
} {
  const folds = foldsText(path)
  let count = 0
  const values: Scalar[] = []
  for (const r of rows) {
    const vs = reach(r, path).filter(isScalar)
    if (vs.length) count++
    values.push(...vs)
  }
  const nums = values.filter((v): v is number => typeof v === 'number')
  const sum = nums.reduce((a, b) => a + b, 0)
  // min and max within the first kind present (booleans, texts, numbers); ties: first seen.
  const firstKind = Math.min(...values.map(kindRank))
  const ofKind = values.filter((v) => kindRank(v) === firstKind)
  let min: Scalar | null = null
  let max: Scalar | null = null
  for (const v of ofKind) {
    if (min === null || plainCompare(v, min, folds) < 0) min = v
    if (max === null || plainCompare(v, max, folds) > 0) max = v
  }
  const base = { count, min, max }
  return numeric ? { count, sum, average: nums.length ? sum / nums.length : null, min, max } : base
}

function plainDistinct(rows: readonly Row[], path: string, diacritical: boolean): Scalar[] {
  const folds = foldsText(path) && !diacritical
  const seen = new Map<string, Scalar>()
  for (const r of rows)
    for (const v of reach(r, path).filter(isScalar)) {
      const key = `${typeof v}:${typeof v === 'string' && folds ? plainFold(v) : String(v)}`
      if (!seen.has(key)) seen.set(key, v)
    }
  return [...seen.values()].sort((a, b) => {
    const c = plainCompare(a, b, foldsText(path))
    // Spellings that fold alike (diacritical): as written, by code unit.
    return c !== 0 ? c : a < b ? -1 : a > b ? 1 : 0
  })
}

const PATHS: readonly [string, boolean][] = [
  ['n', true],
  ['name', false],
  ['day', false],
  ['flag', false],
  ['extra.v', true],
  ['extra.tags[]', true],
]

describe('aggregates and distinct values against a plain computation (property)', () => {
  it('holds for every path, with and without indexes, after random writes', () => {
    fc.assert(
      fc.property(scenarioArb, ({ rows, writes, subset, early }) => {
        for (const indexed of [false, true]) {
          const ds = createDatastore(propModel(indexed), { data: { T: rows } as DataFile })
          const T = ds.dataClass('T')
          const pick = (): EntitySelection =>
            subset === null ? T.all() : T.query('ID in :1', [...new Set(subset)])
          // Columns and indexes made now must follow the writes below.
          for (const [path, numeric] of PATHS) {
            pick().aggregates(path)
            pick().distinct(path)
            if (numeric) pick().sum(path)
          }
          const selection = early ? pick() : undefined
          // The plain rows in creation order, and the IDs the early selection held.
          const live: Row[] = rows.map((r) => ({ ...r }))
          const held = new Set(
            live.filter((r) => subset === null || subset.includes(r.ID)).map((r) => r.ID),
          )
          let nextId = 100
          for (const w of writes) {
            if (w.kind === 'create') {
              const row = { ...w.row, ID: nextId++ }
              T.create(row)
              live.push(row)
              continue
            }
            if (live.length === 0) continue
            const at = w.at % live.length
            const target = live[at]!
            if (w.kind === 'drop') {
              T.drop(target.ID)
              live.splice(at, 1)
            } else {
              const { ID: _, ...values } = w.row
              T.update(target.ID, values)
              live[at] = { ...w.row, ID: target.ID }
            }
          }
          const sel = selection ?? pick()
          const inSel = live.filter((r) =>
            early ? held.has(r.ID) : subset === null || subset.includes(r.ID),
          )
          for (const [path, numeric] of PATHS) {
            const want = plainAggregates(inSel, path, numeric)
            expect(sel.aggregates(path), `${path} indexed=${indexed}`).toEqual(want)
            expect(sel.count(path)).toBe(want.count)
            expect(sel.min(path)).toEqual(want.min)
            expect(sel.max(path)).toEqual(want.max)
            if (numeric) {
              expect(sel.sum(path)).toBe(want.sum)
              expect(sel.average(path)).toBe(want.average)
            }
            expect(sel.distinct(path), `distinct ${path} indexed=${indexed}`).toEqual(
              plainDistinct(inSel, path, false),
            )
            expect(sel.distinct(path, { diacritical: true })).toEqual(
              plainDistinct(inSel, path, true),
            )
          }
        }
      }),
      { numRuns: Number(process.env.AGG_RUNS ?? 150) },
    )
  })
})
