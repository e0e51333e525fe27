/**
 * Issue 78: one computed attribute's getter call runs in steps in a read in slices. A getter with
 * steps (what a 4D project's getter gives) is gone into for its row: the read's slices end inside
 * it (row-steps.ts `codeStep`, schema/getter-calls.ts), and the row runs again with its value kept.
 * Filters, orderings and aggregates answer what the plain run answers; outside a scope's slices
 * (the plain path) the steps are never asked for.
 */
import { describe, expect, it } from 'vitest'
import {
  getterStore,
  inSlices,
  type Company,
  type Employee,
} from '../orda/objects/getter-steps.fixture.js'
import type { Datastore } from '../orda/objects/datastore.js'
import type { EntitySelection } from '../orda/objects/entity-selection.js'

// 40 employees of 4 companies (one in 5 of none); a call in steps stops 0 to 3 times.
const EMPLOYEES: Employee[] = Array.from({ length: 40 }, (_, i) => ({
  n: (i * 5) % 17,
  stops: i % 4,
  employer: i % 5 === 4 ? null : i % 4,
}))
const COMPANIES: Company[] = [0, 1, 2, 3].map((i) => ({ level: i * 3, stops: i + 1 }))

const score = (e: Employee): number => (e.n * 7) % 11
const keys = (s: EntitySelection): number[] => s.toArray().map((e) => e.getKey() as number)
const employees = (ds: Datastore) => ds.dataClass('Employee')
// The stops of the calls a read in steps makes of each employee's getter, once each.
const employeeStops = EMPLOYEES.reduce((n, e) => n + e.stops, 0)
// The same of the calls of each employee's company's getter, once an employee.
const companyStops = EMPLOYEES.reduce(
  (n, e) => n + (e.employer === null ? 0 : COMPANIES[e.employer]!.stops),
  0,
)

describe('a getter with steps in a read in slices', () => {
  it('is gone into by a filter: the slices end inside each call, the answer is the plain one', () => {
    const { ds, counts } = getterStore(EMPLOYEES, COMPANIES)
    const read = () => keys(employees(ds).query('score > 4'))
    const sliced = inSlices(ds, counts, read)
    // Each call is begun once, and each of its stops ends a slice.
    expect(counts).toEqual({ plain: 0, stepped: EMPLOYEES.length, inside: 0 })
    expect(sliced.stopsInside).toBe(employeeStops)
    const expected = EMPLOYEES.flatMap((e, i) => (score(e) > 4 ? [i + 1] : []))
    expect(sliced.value).toEqual(expected)
    expect(read()).toEqual(expected)
    expect(counts.stepped).toBe(EMPLOYEES.length)
  })

  it('is gone into through a relation, in an OR and in a filter of candidates', () => {
    const { ds, counts } = getterStore(EMPLOYEES, COMPANIES)
    for (const filter of [
      'employer.rank = 1',
      'score = 3 or employer.rank = 4',
      'ID < 12 and not (score < 5)',
    ]) {
      const read = () => keys(employees(ds).query(filter))
      const plain = read()
      const before = counts.stepped
      const sliced = inSlices(ds, counts, read)
      expect(sliced.value, filter).toEqual(plain)
      expect(sliced.stopsInside, filter).toBeGreaterThan(0)
      expect(counts.stepped, filter).toBeGreaterThan(before)
    }
  })

  it('is gone into by an ordering of several keys, one through a relation', () => {
    const { ds, counts } = getterStore(EMPLOYEES, COMPANIES)
    const read = () => keys(employees(ds).query('ID > 0 order by score desc, employer.rank, ID'))
    const sliced = inSlices(ds, counts, read)
    // Each employee's score, and its company's rank for each employee of one.
    expect(sliced.stopsInside).toBe(employeeStops + companyStops)
    expect(counts.plain).toBe(0)
    expect(sliced.value).toEqual(read())
  })

  it('is gone into by aggregates and distinct values, through an alias too', () => {
    const { ds, counts } = getterStore(EMPLOYEES, COMPANIES)
    const read = () => {
      const all = employees(ds).all()
      return [all.sum('score'), all.max('employerRank'), all.distinct('tag'), all.average('score')]
    }
    const sliced = inSlices(ds, counts, read)
    // The scores twice (a sum, an average), the tags once, each employee's company's rank once.
    expect(sliced.stopsInside).toBe(3 * employeeStops + companyStops)
    expect(counts.plain).toBe(0)
    expect(sliced.value).toEqual(read())
    expect(sliced.value[0]).toBe(EMPLOYEES.reduce((n, e) => n + score(e), 0))
  })

  it('answers the data as it is when the read ends, after writes between two of its stops', () => {
    const { ds, counts } = getterStore(EMPLOYEES, COMPANIES)
    const read = () => keys(employees(ds).query('score > 4 order by score desc, ID'))
    let writes = 0
    const sliced = inSlices(ds, counts, read, () => {
      // The rows whose getter is stopped and others, while their getters are in steps.
      if (counts.inside > 0 && writes < 6) employees(ds).update(2 + 3 * writes++, { n: 3 })
    })
    expect(writes).toBe(6)
    expect(sliced.value).toEqual(read())
  })

  it('fails the read with the error its code throws, as the plain run does', () => {
    const rows = EMPLOYEES.map((e, i) => (i === 20 ? { ...e, n: 13, stops: 2 } : e))
    const { ds, counts } = getterStore(rows, COMPANIES, { fail: true })
    const read = () => keys(employees(ds).query('score > 4'))
    expect(read).toThrow('unlucky 13')
    expect(() => inSlices(ds, counts, read)).toThrow('unlucky 13')
    // Its call in steps began, and ended with the throw.
    expect(counts.stepped).toBeGreaterThan(0)
    expect(counts.inside).toBe(0)
  })

  it('is not asked for outside a scope’s slices: a read in one piece calls the getter', () => {
    const { ds, counts } = getterStore(EMPLOYEES, COMPANIES)
    keys(employees(ds).query('score > 4 order by employer.rank'))
    employees(ds).all().sum('score')
    expect(counts.stepped).toBe(0)
    expect(counts.plain).toBeGreaterThan(EMPLOYEES.length)
  })
})
