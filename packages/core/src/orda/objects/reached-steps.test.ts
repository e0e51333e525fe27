/**
 * Issue 78: the restricts a query's text, an ordering or a path reaches through relations,
 * answered ahead in steps (what a 4D function's code in a REST call runs before
 * `ds.Employee.query("employer.name = :1"; …)`): the read then finds them kept and runs no
 * restrict of its own; one whose answer is kept, or that has no steps, is not run ahead.
 */
import { describe, expect, it } from 'vitest'
import { REACH_MODEL as MODEL } from './reach-model.fixture.js'
import { createDatastore } from './datastore.js'
import { orderReachInSteps, pathReachInSteps, queryReachInSteps } from './reached-steps.js'

const COMPANIES = [
  { ID: 1, name: 'Acme', open: true },
  { ID: 2, name: 'Acme', open: false },
  { ID: 3, name: 'Globex', open: true },
]
const EMPLOYEES = [
  { ID: 1, lastName: 'Smith', employerID: 1 },
  { ID: 2, lastName: 'Jones', employerID: 2 },
  { ID: 3, lastName: 'Brown', employerID: 3 },
]

type Queried = { query(q: string, ...a: unknown[]): unknown }

/** A datastore whose Company restrict lets the open ones through, in `stops` + 1 steps. */
function companies(stops: number, withSteps = true) {
  const counts = { calls: 0, stepRuns: 0 }
  const restrict = function (this: Queried) {
    counts.calls++
    return this.query('open = true')
  }
  if (withSteps)
    restrict.steps = function* (this: Queried) {
      counts.stepRuns++
      for (let i = 0; i < stops; i++) yield
      return this.query('open = true')
    }
  const ds = createDatastore(MODEL, {
    data: { Company: COMPANIES, Employee: EMPLOYEES },
    functions: { dataClasses: { Company: { restrict: restrict as never } } },
  })
  return { ds, counts, session: ds.sessions.open() }
}

function stopsOf(work: Generator<unknown, void, void>): number {
  let stops = 0
  while (work.next().done !== true) stops++
  return stops
}

describe('the restricts a text reaches, answered ahead in steps', () => {
  it('makes the restrict a query reaches through a relation ahead, which the query finds', () => {
    const { ds, counts, session } = companies(3)
    const employee = ds.dataClass('Employee')
    ds.actAs(session, () => {
      expect(stopsOf(queryReachInSteps(employee, 'employer.name = :1', () => ['Acme']))).toBe(3)
      expect(counts).toEqual({ calls: 0, stepRuns: 1 })
      const found = employee.query('employer.name = :1', 'Acme')
      expect(found.toArray().map((e) => e.getKey())).toEqual([1])
      expect(counts).toEqual({ calls: 0, stepRuns: 1 })
      // Kept: not run ahead again.
      expect(stopsOf(queryReachInSteps(employee, 'employer.name = x', () => []))).toBe(0)
      expect(counts.stepRuns).toBe(1)
    })
  })

  it('reads the placeholder values only for a path placeholder, settings included', () => {
    const { ds, counts, session } = companies(1)
    const employee = ds.dataClass('Employee')
    let asked = 0
    const params = () => (asked++, [1, { attributes: { at: 'employer.name' } }])
    ds.actAs(session, () => {
      expect(stopsOf(queryReachInSteps(employee, 'ID = :1', params))).toBe(0)
      expect(asked).toBe(0)
      expect(stopsOf(queryReachInSteps(employee, ':at = :1', params))).toBe(1)
      expect(asked).toBe(1)
      expect(counts.stepRuns).toBe(1)
    })
  })

  it('runs nothing for a foreign key alone, a text that does not parse, a restrict without steps', () => {
    const { ds, counts, session } = companies(2)
    const employee = ds.dataClass('Employee')
    ds.actAs(session, () => {
      expect(stopsOf(queryReachInSteps(employee, 'employer = 2', () => []))).toBe(0)
      expect(stopsOf(queryReachInSteps(employee, 'employer.name = = ', () => []))).toBe(0)
      expect(counts.stepRuns).toBe(0)
    })
    const plain = companies(2, false)
    plain.ds.actAs(plain.session, () => {
      const e = plain.ds.dataClass('Employee')
      expect(stopsOf(queryReachInSteps(e, 'employer.name = x', () => []))).toBe(0)
      expect(plain.counts).toEqual({ calls: 0, stepRuns: 0 })
    })
  })

  it('makes ahead what an ordering and a path reach', () => {
    const { ds, counts, session } = companies(2)
    const employee = ds.dataClass('Employee')
    ds.actAs(session, () => {
      expect(stopsOf(pathReachInSteps(employee, 'employer', false))).toBe(0)
      expect(stopsOf(orderReachInSteps(employee, [{ propertyPath: 'employer.name' }]))).toBe(2)
      expect(counts).toEqual({ calls: 0, stepRuns: 1 })
      const names = employee.all().orderBy('employer.name desc').extract('employer.name', {
        keepNull: true,
      })
      expect(names).toEqual(['Globex', 'Acme', null])
      expect(counts).toEqual({ calls: 0, stepRuns: 1 })
    })
    const other = companies(1)
    other.ds.actAs(other.session, () => {
      const e = other.ds.dataClass('Employee')
      expect(stopsOf(pathReachInSteps(e, 'employer', true))).toBe(1)
      expect(e.all().extract('employer').length).toBe(2)
      expect(other.counts).toEqual({ calls: 0, stepRuns: 1 })
    })
  })
})
