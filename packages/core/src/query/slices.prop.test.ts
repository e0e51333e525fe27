/**
 * Issue 47: a read run in slices, with writes landing between any two of them, answers what the
 * same read answers in one piece at the moment it ends: one version, never a mix. Random filters
 * (on stored attributes, which a kept result is refreshed for, and through a relation, which is
 * run again), orderings and aggregates; random inserts, updates and deletes between slices.
 */
import { fc, test } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import { createDatastore, type Datastore } from '../index.js'
import { DatastoreError } from '../errors/datastore-error.js'

const N = 9_000 // three steps of 4,096 rows: every scan stops at least twice

function store(seed: number): Datastore {
  const ds = createDatastore({
    dataClasses: [
      {
        name: 'Team',
        attributes: [
          { name: 'ID', type: 'long' },
          { name: 'name', type: 'string' },
        ],
      },
      {
        name: 'Item',
        attributes: [
          { name: 'ID', type: 'long' },
          { name: 'age', type: 'long', indexed: true },
          { name: 'salary', type: 'number' },
          { name: 'city', type: 'string' },
          { name: 'teamID', type: 'long' },
          { name: 'team', kind: 'relatedEntity', path: 'Team', foreignKey: 'teamID' },
        ],
      },
    ],
  })
  const cities = ['Paris', 'Lyon', 'Évry', 'Nice', 'Zürich']
  ds.loadData({
    Team: Array.from({ length: 20 }, (_, i) => ({ ID: i + 1, name: `team ${i % 7}` })),
    Item: Array.from({ length: N }, (_, i) => ({
      ID: i + 1,
      age: (i * 7 + seed) % 90,
      salary: ((i * 7919 + seed) % 10_000) / 4,
      city: cities[(i + seed) % cities.length],
      teamID: (i % 20) + 1,
    })),
  })
  return ds
}

const READS = [
  { filter: 'salary > 1000 and city = "Paris"', order: 'salary desc', top: 5 },
  { filter: 'age < 30 or city = "é@"', order: 'city, ID desc', top: 7 },
  { filter: 'not (salary < 2000) and age >= 10', order: 'salary', top: 3 },
  {
    filter: '(team.name = "team 3" or salary > 2400) and city != "Nice"',
    order: 'salary desc',
    top: 4,
  },
  { filter: 'city != "Lyon"', order: 'age desc, salary', top: 6 },
  // Index walks (age is indexed), and the primary key's order (no order by).
  { filter: 'salary > 500', order: 'age desc', top: 5 },
  { filter: 'salary < 2400 and city # "Nice"', order: 'age', top: 3000 },
  { filter: 'salary > 1250', order: 'age', top: 2600 },
  { filter: 'salary > 2490', order: 'age', top: 50 },
  { filter: 'salary > 2490', order: 'age desc', top: 50 },
  { filter: 'salary > 300', order: '', top: 8 },
  { filter: 'salary > 2300', order: '', top: 2 },
  // Pages of a quarter of the rows or more: full sorts, merged in steps.
  { filter: 'age >= 0', order: 'salary desc', top: 4000 },
  { filter: 'salary > 100', order: 'city', top: 3000 },
  { filter: 'salary > 200', order: 'city desc, salary', top: 5000 },
] as const

type Write =
  | { op: 'update'; id: number; age: number; salary: number; city: string }
  | { op: 'create'; age: number; salary: number; city: string }
  | { op: 'drop'; id: number }
  | { op: 'team'; id: number; name: string }

const write: fc.Arbitrary<Write> = fc.oneof(
  fc.record({
    op: fc.constant('update' as const),
    id: fc.integer({ min: 1, max: N }),
    age: fc.integer({ min: 0, max: 89 }),
    salary: fc.integer({ min: 0, max: 3000 }),
    city: fc.constantFrom('Paris', 'Lyon', 'Évian', 'Nice'),
  }),
  fc.record({
    op: fc.constant('create' as const),
    age: fc.integer({ min: 0, max: 89 }),
    salary: fc.integer({ min: 0, max: 3000 }),
    city: fc.constantFrom('Paris', 'Lyon', 'Évian'),
  }),
  fc.record({ op: fc.constant('drop' as const), id: fc.integer({ min: 1, max: N }) }),
  fc.record({
    op: fc.constant('team' as const),
    id: fc.integer({ min: 1, max: 20 }),
    name: fc.constantFrom('team 3', 'team 4'),
  }),
)

function apply(ds: Datastore, w: Write, next: { id: number }): void {
  const Item = ds.dataClass('Item')
  switch (w.op) {
    case 'update':
      if (Item.get(w.id)) Item.update(w.id, { age: w.age, salary: w.salary, city: w.city })
      return
    case 'create':
      Item.create({ ID: next.id++, age: w.age, salary: w.salary, city: w.city, teamID: 4 })
      return
    case 'drop':
      if (Item.get(w.id)) Item.drop(w.id)
      return
    case 'team':
      ds.dataClass('Team').update(w.id, { name: w.name })
  }
}

/** What a read answers: its ordered page, its count, two aggregates and two distincts. */
function answer(ds: Datastore, read: (typeof READS)[number]) {
  const order = read.order === '' ? '' : ` order by ${read.order}`
  const selection = ds.dataClass('Item').query(`${read.filter}${order}`)
  return {
    page: selection
      .window(0, read.top)
      .members()
      .map((e) => e?.key ?? null),
    count: selection.length,
    sum: selection.sum('salary'),
    max: selection.max('age'),
    cities: selection.distinct('city'),
    ages: selection.distinct('age').length,
  }
}

describe('a read in slices', () => {
  test.prop(
    [
      fc.integer({ min: 0, max: 1000 }),
      fc.constantFrom(...READS),
      fc.array(fc.array(write, { maxLength: 4 }), { minLength: 1, maxLength: 30 }),
    ],
    { numRuns: process.env.ENTISTORE_LONG ? 800 : 60 },
  )('answers what the read answers in one piece when it ends', (seed, read, batches) => {
    const ds = store(seed)
    const next = { id: N + 1 }
    const scope = ds.sliceScope(() => true)
    let batch = 0
    const between = (): void => {
      for (const w of batches[batch++ % batches.length]!) apply(ds, w, next)
    }
    let result: ReturnType<typeof answer> | undefined
    let runs = 0
    while (result === undefined) {
      runs++
      try {
        result = ds.withoutUnbuiltIndexes(() => scope.run(() => answer(ds, read)))
      } catch (error) {
        if (!(DatastoreError.is(error) && error.name === 'QuerySuspended')) throw error
        while (!scope.drive()) between()
        between()
      }
    }
    scope.close()
    expect(runs).toBeGreaterThan(1)
    expect(scope.slices).toBeGreaterThan(2)
    expect(result).toEqual(answer(ds, read))
  })
})

describe('a read run again', () => {
  test('keeps the entity set it kept the first time', () => {
    const ds = store(1)
    const Item = ds.dataClass('Item')
    const scope = ds.sliceScope(() => true)
    const before = ds.entitySets.size
    let set: string | undefined
    for (;;) {
      try {
        set = scope.run(() => {
          const kept = ds.entitySets.keep(Item.query('age < 10'))
          // Work after the set is kept stops, and the read runs again from the start.
          Item.query('salary > 10').length
          return kept.id
        })
        break
      } catch (error) {
        if (!(DatastoreError.is(error) && error.name === 'QuerySuspended')) throw error
        while (!scope.drive());
      }
    }
    scope.close()
    expect(ds.entitySets.size).toBe(before + 1)
    expect(scope.runs).toBeGreaterThan(2)
    expect(ds.entitySets.get(set!)).toBeDefined()
  })
})
