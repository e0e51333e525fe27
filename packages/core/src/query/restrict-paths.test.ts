/**
 * Issue 46: a dataclass's `restrict` holds wherever a relation leads in the query engine. A hidden
 * entity is, for the session, as if it did not exist: the restricted datastore must answer every
 * query, ordering and aggregate as a twin does from which the hidden entities were dropped (a
 * dropped related entity leaves its foreign key behind: `employer = 2` still compares it). Every
 * plan shape a join takes is here: an index or a scan on the related side, a join that drives an
 * AND or filters its rows, inside an OR, a NOT, an EXCEPT, a computed attribute's query function,
 * two and three steps, to-one and to-many.
 */
import { describe, expect, it } from 'vitest'
import type { ModelJson } from '../schema/model-json.js'
import { createDatastore, type Datastore } from '../orda/objects/datastore.js'
import type { ComputedAttributeFunctions } from '../schema/definitions.js'

const MODEL: ModelJson = {
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'name', type: 'string', indexed: true },
        { name: 'city', type: 'string' },
        { name: 'public', type: 'bool' },
        { name: 'staff', kind: 'relatedEntities', path: 'employer' },
      ],
    },
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'lastName', type: 'string', indexed: true },
        { name: 'salary', type: 'number', indexed: true },
        { name: 'shown', type: 'bool' },
        { name: 'employerID', type: 'long' },
        { name: 'employer', kind: 'relatedEntity', path: 'Company', foreignKey: 'employerID' },
        { name: 'managerID', type: 'long' },
        { name: 'manager', kind: 'relatedEntity', path: 'Employee', foreignKey: 'managerID' },
        { name: 'reports', kind: 'relatedEntities', path: 'manager' },
        { name: 'employerName', kind: 'alias', path: 'employer.name' },
        { name: 'managerName', kind: 'alias', path: 'manager.lastName' },
        { name: 'employerCity', kind: 'calculated', type: 'string' },
      ],
    },
  ],
}

// Hidden: companies 2, 4 and 5 (5 is a second "Acme"), employees 4, 7 and 10.
const COMPANIES = [
  { ID: 1, name: 'Acme', city: 'Lyon', public: true },
  { ID: 2, name: 'Hidden', city: 'Paris', public: false },
  { ID: 3, name: 'Globex', city: 'Paris', public: true },
  { ID: 4, name: 'Secret', city: 'Oslo', public: false },
  { ID: 5, name: 'Acme', city: 'Rome', public: false },
]
// [ID, lastName, salary, employer, manager, shown]
const EMPLOYEES = [
  [1, 'Smith', 5000, 1, null, true],
  [2, 'Jones', 3000, 2, 1, true], // a hidden employer
  [3, 'Brown', 4000, 3, 2, true],
  [4, 'White', 2500, 2, 3, false],
  [5, 'Adams', 6000, 1, 4, true], // a hidden manager
  [6, 'Black', 5500, 4, 5, true], // a hidden employer
  [7, 'Green', 3500, null, 4, false],
  [8, 'Gray', 4500, 5, 6, true], // the hidden Acme
  [9, 'Stone', 7000, 3, 7, true], // a hidden manager
  [10, 'Young', 1000, 1, null, false], // hidden, in a visible company
] as const
const HIDDEN = { Company: [2, 4, 5], Employee: [4, 7, 10] }

// employerCity reads through the relation; its query and orderBy functions answer with a path
// through it, so that the filter and the sort they give are joins the engine narrows.
const employerCity: ComputedAttributeFunctions = {
  get: (e) => {
    const employer = e.get('employer') as { get(n: string): unknown } | null
    return employer ? employer.get('city') : null
  },
  query: ({ operator, value }) =>
    operator === '==' || operator === '==='
      ? { query: 'employer.city = :1', parameters: [value] }
      : null,
  orderBy: ({ descending }) => (descending ? 'employer.city desc' : 'employer.city'),
}

function data() {
  return {
    Company: COMPANIES.map((c) => ({ ...c })),
    Employee: EMPLOYEES.map(([ID, lastName, salary, employerID, managerID, shown]) => ({
      ID,
      lastName,
      salary,
      employerID,
      managerID,
      shown,
    })),
  }
}

/**
 * The restricted datastore: without a session (outside `runAs`) the public companies and the
 * shown employees; a session sees everything.
 */
function restricted(): Datastore {
  return createDatastore(MODEL, {
    data: data(),
    calculated: { Employee: { employerCity } },
    functions: {
      dataClasses: {
        Company: {
          restrict({ session }) {
            return session ? null : this.query('public = true')
          },
        },
        Employee: {
          restrict({ session }) {
            return session ? null : this.query('shown = true')
          },
        },
      },
    },
  })
}

/** No restrict; the entities restricted() hides are dropped, their foreign keys left behind. */
function pruned(): Datastore {
  const ds = createDatastore(MODEL, { data: data(), calculated: { Employee: { employerCity } } })
  for (const id of HIDDEN.Employee) ds.dataClass('Employee').drop(id)
  for (const id of HIDDEN.Company) ds.dataClass('Company').drop(id)
  return ds
}

/** Every dataclass seen by a session of `ds` (its restrict answers null). */
function asSession<T>(ds: Datastore, fn: () => T): T {
  const session = ds.sessions.open()
  return ds.runAs({ kind: 'session', id: session.id }, fn)
}

const keysOf = (selection: { toArray(): { getKey(): unknown }[] }): unknown[] =>
  selection.toArray().map((e) => e.getKey())

const EMPLOYEE_QUERIES = [
  // The related side through its hash index, or a scan (city has no index).
  "employer.name = 'Acme'",
  "employer.name = 'Hidden'",
  "employer.city = 'Paris'",
  "employer.city = 'Oslo'",
  'employer.name = null',
  "employer.name # 'Acme'",
  "employer.name != 'Globex'",
  "not(employer.name = 'Acme')",
  "employer.name in ['Acme', 'Hidden', 'Secret']",
  "employer.name begin 'Sec'",
  "employer.name = 'S@'",
  "employer.name > 'B'",
  // The foreign key itself: the visible entity's own value, compared as it is.
  'employer = null',
  'employer = 2',
  'employer # null',
  // Longer paths.
  "manager.lastName = 'White'",
  "manager.lastName in ['White', 'Green', 'Smith']",
  "manager.employer.name = 'Hidden'",
  "manager.employer.city = 'Paris'",
  "manager.manager.lastName = 'Jones'",
  // A join that drives an AND, one that filters its rows (per-row test), in an OR, under a NOT.
  "salary > 3000 and employer.name = 'Acme'",
  "ID = 2 and employer.city = 'Paris'",
  "ID = 5 and manager.lastName = 'White'",
  "salary >= 4000 and salary < 6000 and manager.employer.city = 'Paris'",
  "employer.city = 'Paris' or salary > 6000",
  "employer.name = 'Acme' or manager.lastName = 'White'",
  "not(manager.lastName = 'White') and salary > 1000",
  // Tested per row as an AND's filter: an OR of joins, a NOT, a query function's join, an EXCEPT.
  "ID <= 5 and (employer.name = 'Acme' or manager.lastName = 'White')",
  "ID = 5 and not(manager.lastName = 'White')",
  "ID = 2 and employerCity = 'Paris'",
  "ID = 3 and reports.lastName != 'Adams'",
  // To-many, and its `!=` (an EXCEPT).
  "reports.lastName = 'White'",
  'reports.salary > 4000',
  "reports.lastName != 'Adams'",
  "ID = 3 and reports.lastName = 'White'",
  "reports.lastName = 'Green' or reports.lastName = 'Gray'",
  // Aliases and a computed attribute whose query function answers with a join.
  "employerName = 'Acme'",
  "managerName = 'Green'",
  "employerCity = 'Paris'",
  "employerCity = 'Oslo'",
]

const COMPANY_QUERIES = [
  "staff.lastName = 'White'",
  "staff.lastName = 'Young'",
  'staff.salary > 4000',
  "staff.lastName != 'Smith'",
  'not(staff.salary > 0)',
  "staff.manager.lastName = 'White'",
  "staff.employer.name = 'Acme'",
]

const ORDERINGS = [
  'manager.lastName',
  'manager.lastName desc',
  'employer.name desc, ID',
  'employerName, ID desc',
  'managerName desc',
  'employerCity desc, ID',
  'employerCity',
  'manager.employer.city, salary desc',
  'manager.manager.lastName desc, lastName',
]

/** A query path without its times (which differ from run to run). */
const untimed = (json: unknown): string =>
  JSON.stringify(json, (key, value: unknown) =>
    key === 'time' || key === 'timeTaken' ? undefined : value,
  )

/** Every count of a query path (`recordsfounds`, `foundRecords`). */
function counts(node: unknown): number[] {
  if (Array.isArray(node)) return node.flatMap(counts)
  if (typeof node !== 'object' || node === null) return []
  const o = node as Record<string, unknown>
  const own = [o.recordsfounds, o.foundRecords].filter((v): v is number => typeof v === 'number')
  return [...own, ...Object.values(o).flatMap(counts)]
}

describe('restrict through relation paths (issue 46)', () => {
  const ds = restricted()
  const twin = pruned()

  it('filters: as if the hidden entities had been dropped, in every plan shape', () => {
    for (const [name, queries] of [
      ['Employee', EMPLOYEE_QUERIES],
      ['Company', COMPANY_QUERIES],
    ] as const)
      for (const text of queries) {
        const expected = keysOf(twin.dataClass(name).query(text))
        expect(keysOf(ds.dataClass(name).query(text)), `${name}: ${text}`).toEqual(expected)
        // With a query path, each AND and OR part runs by itself: the same rows.
        const traced = ds.dataClass(name).run(text, { queryPath: true })
        expect(keysOf(traced.selection), `${name}: ${text} (query path)`).toEqual(expected)
      }
  })

  it('spells out what a hidden related entity is, against the unrestricted session', () => {
    const Employee = ds.dataClass('Employee')
    // Acme 5 is hidden: Gray (8) is not one of Acme's; Jones (2) and Black (6) have no employer
    // for the query, but their foreign keys are theirs.
    expect(keysOf(Employee.query("employer.name = 'Acme'"))).toEqual([1, 5])
    expect(keysOf(Employee.query("not(employer.name = 'Acme')"))).toEqual([2, 3, 6, 8, 9])
    expect(keysOf(Employee.query('employer.name = null'))).toEqual([])
    expect(keysOf(Employee.query('employer = 2'))).toEqual([2])
    expect(keysOf(Employee.query("manager.lastName = 'White'"))).toEqual([])
    expect(keysOf(Employee.query("reports.lastName = 'White'"))).toEqual([])
    expect(keysOf(ds.dataClass('Company').query("staff.lastName = 'Young'"))).toEqual([])
    asSession(ds, () => {
      expect(keysOf(Employee.query("employer.name = 'Acme'"))).toEqual([1, 5, 8, 10])
      expect(keysOf(Employee.query("manager.lastName = 'White'"))).toEqual([5, 7])
      expect(keysOf(Employee.query("reports.lastName = 'White'"))).toEqual([3])
      expect(keysOf(ds.dataClass('Company').query("staff.lastName = 'Young'"))).toEqual([1])
    })
  })

  it('orderings: a hidden related entity sorts as a null', () => {
    const Employee = ds.dataClass('Employee')
    for (const order of ORDERINGS) {
      const expected = keysOf(twin.dataClass('Employee').all().orderBy(order))
      expect(keysOf(Employee.all().orderBy(order)), order).toEqual(expected)
      expect(keysOf(Employee.query(`salary > 0 order by ${order}`)), order).toEqual(expected)
      expect(keysOf(Employee.run('salary > 0', { orderBy: order }).selection), order).toEqual(
        expected,
      )
    }
    // Adams (5) and Stone (9) have hidden managers: they sort with Smith (1), who has none.
    expect(keysOf(Employee.all().orderBy('manager.lastName, ID')).slice(0, 3)).toEqual([1, 5, 9])
    // Through a prepared query too.
    expect(keysOf(Employee.prepare('salary > :1 order by manager.lastName, ID').select(0))).toEqual(
      keysOf(twin.dataClass('Employee').all().orderBy('manager.lastName, ID')),
    )
  })

  it('an ordering keeps what the session that made it could see', () => {
    const Employee = ds.dataClass('Employee')
    // Made without a session, read by one: still the restricted order (and the other way round).
    const outside = Employee.all().orderBy('manager.lastName desc, ID')
    const expected = keysOf(twin.dataClass('Employee').all().orderBy('manager.lastName desc, ID'))
    expect(asSession(ds, () => keysOf(outside))).toEqual(expected)
    const inside = asSession(ds, () => Employee.query('ID in [5, 9] order by manager.lastName'))
    expect(keysOf(inside)).toEqual([9, 5])
  })

  it('aggregates and distinct values of aliases and calculated attributes through relations', () => {
    const mine = ds.dataClass('Employee').all()
    const theirs = twin.dataClass('Employee').all()
    for (const path of ['employerName', 'managerName', 'employerCity']) {
      expect(mine.distinct(path), path).toEqual(theirs.distinct(path))
      expect(mine.aggregates(path), path).toEqual(theirs.aggregates(path))
    }
    expect(mine.distinct('employerName')).toEqual(['Acme', 'Globex'])
    // Brown (3) manages only White (4), hidden; Adams's and Stone's managers are hidden.
    expect(mine.distinct('managerName')).toEqual(['Adams', 'Black', 'Jones', 'Smith'])
    const some = ds.dataClass('Employee').query("employer.city = 'Paris'")
    expect(some.distinct('employerCity')).toEqual(['Paris'])
  })

  it('query paths count only what the session can see, and end on the selection’s count', () => {
    const visible = { Employee: 7, Company: 2 }
    let compared = 0
    for (const [name, queries] of [
      ['Employee', EMPLOYEE_QUERIES],
      ['Company', COMPANY_QUERIES],
    ] as const)
      for (const text of queries) {
        const run = ds.dataClass(name).run(text, { queryPath: true, queryPlan: true })
        const all = [...counts(run.queryPath), ...counts(run.extendedQueryPath)]
        for (const n of all) expect(n, text).toBeLessThanOrEqual(7)
        const root = (run.queryPath as { steps: { recordsfounds: number }[] }).steps[0]!
        expect(root.recordsfounds, text).toBe(run.selection.length)
        expect((run.extendedQueryPath as { foundRecords: number }).foundRecords, text).toBe(
          run.selection.length,
        )
        expect(run.selection.length).toBeLessThanOrEqual(visible[name])
        // Where the twin planned the same way, every step counts what it counted.
        const other = twin.dataClass(name).run(text, { queryPath: true, queryPlan: true })
        if (untimed(other.queryPlan) === untimed(run.queryPlan)) {
          expect(untimed(run.queryPath), text).toBe(untimed(other.queryPath))
          expect(untimed(run.extendedQueryPath), text).toBe(untimed(other.extendedQueryPath))
          compared++
        }
      }
    expect(compared).toBeGreaterThan(30)
    // An unrestricted session counts every row.
    asSession(ds, () => {
      const run = ds.dataClass('Employee').run('ID > 0', { queryPath: true })
      expect(counts(run.queryPath)).toEqual([10])
    })
    expect(counts(ds.dataClass('Employee').run('ID > 0', { queryPath: true }).queryPath)).toEqual([
      7,
    ])
  })

  it('explain() says where rows are restricted, and estimates no more than is visible', () => {
    const Employee = ds.dataClass('Employee')
    expect(Employee.run("employer.name = 'Acme' order by manager.lastName").explain()).toBe(
      [
        'QUERY PLAN',
        '|--JOIN Company : Employee.employerID = Company.ID USING HASH INDEX ~4 rows',
        '|  |--SEARCH Company USING HASH INDEX name (name=?) ~2 rows',
        '|  `--RESTRICT Company BY ITS restrict EVENT (2 rows)',
        '|--RESTRICT Employee BY ITS restrict EVENT (7 rows)',
        '`--ORDER BY manager.lastName (top-k on demand)',
      ].join('\n'),
    )
    expect(Employee.run('ID > 0').explain()).toBe(
      [
        'QUERY PLAN',
        '|--SEARCH Employee USING SORTED INDEX ID (ID > ?) ~7 rows',
        '`--RESTRICT Employee BY ITS restrict EVENT (7 rows)',
      ].join('\n'),
    )
    expect(Employee.run('').explain()).toBe(
      [
        'QUERY PLAN',
        '|--SCAN (every entity)',
        '`--RESTRICT Employee BY ITS restrict EVENT (7 rows)',
      ].join('\n'),
    )
    // Read later, outside the session that ran it: what that session saw.
    const run = asSession(ds, () => Employee.run("employer.name = 'Acme'"))
    expect(run.explain()).toBe(
      [
        'QUERY PLAN',
        '`--JOIN Company : Employee.employerID = Company.ID USING HASH INDEX ~4 rows',
        '   `--SEARCH Company USING HASH INDEX name (name=?) ~2 rows',
      ].join('\n'),
    )
  })

  it('asks nothing of a datastore without a restrict', () => {
    expect(twin.querySource.visibility).toBeUndefined()
    expect(ds.querySource.visibility).toBeDefined()
  })
})
