/**
 * Property (issue 78): a read in slices that goes into its getters' steps, a row at a time,
 * answers what the same read answers in one piece, for any table, any stops of the getters' calls
 * and any filter, ordering or aggregate over them (through a relation and an alias too).
 */
import { fc, test } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import type { Datastore } from '../orda/objects/datastore.js'
import { getterStore, inSlices } from '../orda/objects/getter-steps.fixture.js'

const COMPANIES = 4

const employee = fc.record({
  n: fc.integer({ min: 0, max: 30 }),
  stops: fc.integer({ min: 0, max: 3 }),
  employer: fc.option(fc.integer({ min: 0, max: COMPANIES - 1 })),
})
const company = fc.record({
  level: fc.integer({ min: 0, max: 9 }),
  stops: fc.integer({ min: 0, max: 3 }),
})

// Filters over the getters (`:1` and `:2` take small numbers), alone, through a relation, in ORs,
// negated, and after an indexed comparison (a filter of candidates).
const FILTERS = [
  'score > :1',
  'score = :1 or employer.rank = :2',
  'not (score < :1) and employer.rank != :2',
  'employer.rank >= :1',
  'ID < :1 and score # :2',
  'tag = "T1" or score <= :2',
  'employerRank = :1 or (score > :2 and tag != "T0")',
]
const ORDERS = ['score desc', 'employer.rank', 'tag', 'employerRank desc', 'ID desc', 'n']

const read = fc.record({
  filter: fc.constantFrom(...FILTERS),
  a: fc.integer({ min: 0, max: 12 }),
  b: fc.integer({ min: 0, max: 12 }),
  // Several keys: a row's keys are read together, and the row runs again for any of them.
  order: fc.uniqueArray(fc.constantFrom(...ORDERS), { minLength: 1, maxLength: 3 }),
  top: fc.integer({ min: 1, max: 40 }),
})

/** What a read answers: its ordered page, its count, aggregates and distinct values. */
function answer(ds: Datastore, r: ReadArgs) {
  const selection = ds
    .dataClass('Employee')
    .query(`${r.filter} order by ${[...r.order, 'ID'].join(', ')}`, r.a, r.b)
  return {
    page: selection
      .window(0, r.top)
      .members()
      .map((e) => e?.key ?? null),
    count: selection.length,
    sum: selection.sum('score'),
    max: selection.max('employerRank'),
    tags: selection.distinct('tag'),
    // Every employee's score: each call is gone into.
    total: ds.dataClass('Employee').all().sum('score'),
  }
}

interface ReadArgs {
  readonly filter: string
  readonly a: number
  readonly b: number
  readonly order: readonly string[]
  readonly top: number
}

describe('getters in steps', () => {
  test.prop(
    [
      fc.array(employee, { minLength: 1, maxLength: 40 }),
      fc.array(company, { minLength: COMPANIES, maxLength: COMPANIES }),
      read,
    ],
    { numRuns: 100 },
  )('a read in slices answers what it answers in one piece', (employees, companies, r) => {
    const { ds, counts } = getterStore(employees, companies)
    const plain = answer(ds, r)
    const sliced = inSlices(ds, counts, () => answer(ds, r))
    expect(sliced.value).toEqual(plain)
    // Every call in steps ended (none left stopped), and the slices went into them.
    expect(counts.inside).toBe(0)
    if (employees.some((e) => e.stops > 0)) expect(sliced.stopsInside).toBeGreaterThan(0)
  })
})
