// Queries, orders and set algebra on a selection: query() with its querySettings, queryPlan and
// queryPath, orderBy's collection form, orderByFormula(), and/or/minus with an entity, each written
// from the example of 4D's page API/EntitySelectionClass (4D 21 R4).
import { describe, expect, expectTypeOf, it } from 'vitest'
import { keysOf, pageExamples } from './entity-selection.fixture.js'

describe('EntitySelection queries and orders (4D API/EntitySelectionClass)', () => {
  it('.query(): among the selection only, with values or named parameters', () => {
    const ds = pageExamples()
    const temp = ds.Employee.query('lastName = :1', 'H@')
    const emps = temp.query('manager.lastName = :1', 'H@')
    expect(keysOf(emps)).toEqual([702])
    expect(keysOf(temp.query('salary > :min', { parameters: { min: 100000 } }))).toEqual([701, 710])
    expect(keysOf(temp.query(':att > 100000', { attributes: { att: 'salary' } }))).toEqual([
      701, 710,
    ])
    expect(temp.query('salary > 0').isOrdered()).toBe(false)
    expect(keysOf(temp.query('salary > 0 order by salary desc'))).toEqual([710, 701, 702])
    expectTypeOf(emps.first()?.get('salary')).toEqualTypeOf<number | null | undefined>()
  })

  it('.query(formula, settings): the members the formula answers true for, with args', () => {
    const ds = pageExamples()
    const temp = ds.Employee.query('lastName = :1', 'H@')
    const rich = temp.query((e, min) => (e.get('salary') ?? 0) > min, { args: 100000 })
    expect(keysOf(rich)).toEqual([701, 710])
    expect(keysOf(temp.query(() => 'yes'))).toEqual([])
    expect(() => temp.query(() => true, { allowFormulas: false })).toThrow(
      expect.objectContaining({ errCode: 1278 }),
    )
  })

  it('.queryPlan and .queryPath: on a selection a query made with them asked', () => {
    const ds = pageExamples()
    const sel = ds.Employee.query('salary > :1', 100000, { queryPlan: true, queryPath: true })
    expect(sel.queryPlan).toMatchObject({ item: 'Employee.salary > 100000' })
    expect(sel.queryPath).toBeTruthy()
    const within = sel.query('city = :1', 'London', { queryPlan: true })
    expect(keysOf(within)).toEqual([710])
    expect(within.queryPlan).toBeDefined()
    expect(within.queryPath).toBeUndefined()
    expect(ds.Employee.query('salary > 1').queryPlan).toBeUndefined()
  })

  it('.orderBy(): a text, or a collection of { propertyPath, descending }', () => {
    const ds = pageExamples()
    const sel = ds.Employee.all()
    const byText = keysOf(sel.orderBy('firstName asc, salary desc'))
    const byCollection = keysOf(
      sel.orderBy([
        { propertyPath: 'firstName', descending: false },
        { propertyPath: 'salary', descending: true },
      ]),
    )
    expect(byCollection).toEqual(byText)
    expect(byText[0]).toBe(715)
    expect(
      keysOf(sel.orderBy([{ propertyPath: 'manager.lastName' }, { propertyPath: 'salary' }])),
    ).toEqual([714, 610, 701, 710, 715, 702, 686])
  })

  it('.orderByFormula(): by what a function returns, ascending or descending, with args', () => {
    const ds = pageExamples()
    const es1 = ds.Student.query('nationality = :1', 'French')
    expect(keysOf(es1.orderByFormula((s) => String(s.get('lastname')).length))).toEqual([2, 1, 3])
    expect(
      keysOf(
        es1.orderByFormula(
          function () {
            return String(this.get('lastname')).length
          },
          { descending: true },
        ),
      ),
    ).toEqual([3, 1, 2])
    const computeAverage = (s: { get(n: 'marks'): unknown }, coef: Record<string, number>) => {
      const marks = s.get('marks') as Record<string, number>
      const sum = Object.values(coef).reduce((a, b) => a + b, 0)
      return Object.keys(coef).reduce((a, k) => a + marks[k]! * coef[k]!, 0) / sum
    }
    const schoolA = { english: 1, math: 1, history: 1 }
    const schoolB = { english: 1, math: 2, history: 3 }
    expect(keysOf(es1.orderByFormula(computeAverage, { args: schoolA }))).toEqual([3, 1, 2])
    expect(keysOf(es1.orderByFormula(computeAverage, { descending: true, args: schoolB }))).toEqual(
      [2, 1, 3],
    )
    expect(es1.orderByFormula(computeAverage, { args: schoolA }).isOrdered()).toBe(true)
  })

  it('.and(): with an entity or a selection', () => {
    const ds = pageExamples()
    const employees = ds.Employee.query('lastName = :1', 'H@')
    const employee = ds.Employee.get(710)
    expect(keysOf(employees.and(employee))).toEqual([710])
    expect(employees.and(ds.Employee.get(610)).length).toBe(0)
    expect(employees.and(null).length).toBe(0)
    const jones = ds.Employee.query('lastName = :1', 'Jones')
    const newYork = ds.Employee.query('city = :1', 'New York')
    expect(keysOf(jones.and(newYork))).toEqual([714])
  })

  it('.or(): with a selection or an entity', () => {
    const ds = pageExamples()
    const employees1 = ds.Employee.query('lastName = :1', 'H@')
    const employees2 = ds.Employee.query('firstName = :1', 'C@')
    expect(keysOf(employees1.or(employees2)).sort()).toEqual([610, 701, 702, 710])
    expect(keysOf(employees1.or(ds.Employee.get(686))).sort()).toEqual([686, 701, 702, 710])
    expect(employees1.or(null)).toBe(employees1)
  })

  it('.minus(): an entity or a selection, the order kept on demand', () => {
    const ds = pageExamples()
    const employees = ds.Employee.query('lastName = :1', 'H@')
    expect(keysOf(employees.minus(ds.Employee.get(710)))).toEqual([701, 702])
    const jones = ds.Employee.query('lastName = :1', 'Jones')
    const newYork = ds.Employee.query('city = :1', 'New York')
    const women = jones.and(newYork).minus(ds.Employee.query("gender = 'male'"))
    expect(keysOf(women)).toEqual([714])
    const list = ds.Employee.all().orderBy('salary desc')
    const kept = list.minus(ds.Employee.query('city = :1', 'New York'), { keepOrder: true })
    expect(keysOf(kept)).toEqual([710, 702, 715])
    expect(kept.isOrdered()).toBe(true)
    expect(() => employees.minus(ds.Company.get(1) as never)).toThrow(
      expect.objectContaining({ errCode: 1803 }),
    )
  })
})
