/**
 * Computed attributes in queries and sorts: a comparison on one with a query function becomes the
 * filter it returns (and reads indexes), an order on one with an orderBy function the keys it
 * returns; without them, or when they answer null, the getter runs for every entity as before.
 */
import { describe, expect, it, vi } from 'vitest'
import { thrown } from '../errors/thrown.fixture.js'
import { computedStore } from '../orda/objects/computed.fixture.js'
import type { Datastore } from '../orda/objects/datastore.js'
import type { ComputedAttributeFunctions, ComputedQueryResult } from '../schema/definitions.js'

const keys = (ds: Datastore, text: string, ...params: unknown[]): unknown[] =>
  ds
    .dataClass('Employee')
    .query(text, ...params)
    .toArray()
    .map((e) => e.getKey())

/** Runs `fn`, counting the full-table reads of Employee (as plan.golden.test.ts does). */
function scans(ds: Datastore, fn: () => unknown): number {
  const table = ds.dataClass('Employee').table
  const spies = [vi.spyOn(table, 'records'), vi.spyOn(table, 'scanLength', 'get')]
  fn()
  const calls = spies.reduce((n, spy) => n + spy.mock.calls.length, 0)
  for (const spy of spies) spy.mockRestore()
  return calls
}

/** A store whose fullName has a getter and this query function only. */
const withQuery = (query: (e: never) => unknown) =>
  computedStore({
    functions: {
      get: (e) => `${String(e.get('firstName'))} ${String(e.get('lastName'))}`,
      query: query as ComputedAttributeFunctions['query'],
    },
  }).ds

describe('a query function replaces the comparison', () => {
  it('finds what the sequential scan finds, through the indexes, without a scan', () => {
    const { ds, log } = computedStore()
    const plain = computedStore({ plain: true })
    for (const [text, params] of [
      ['fullName = :1', ['Flora Pionsin']],
      ['fullName == :1', ['ann smith']],
      ['fullName === :1', ['Ann Jones']],
      ['fullName = :1', ['Nobody Here']],
      ['fullName != :1', ['Ann Smith']],
      ['fullName in :1', [['Ann Smith', 'Bob Jones']]],
      ["fullName in ['Ann Smith', 'Carl Brown']", []],
    ] as const) {
      expect(keys(ds, text, ...params), text).toEqual(keys(plain.ds, text, ...params))
    }
    expect(log.get).toBe(0)
    expect(plain.log.get).toBeGreaterThan(0)
    expect(scans(ds, () => keys(ds, 'fullName = :1', 'Flora Pionsin'))).toBe(0)
    expect(scans(plain.ds, () => keys(plain.ds, 'fullName = :1', 'Flora Pionsin'))).toBe(1)
  })

  it('gives the function 4D’s event, with the operator spelled as 4D does', () => {
    const { ds, log } = computedStore()
    const cases: [string, unknown, string][] = [
      ['fullName = :1', 'A B', '=='],
      ['fullName == :1', 'A B', '=='],
      ['fullName === :1', 'A B', '==='],
      ['fullName IS :1', 'A B', '==='],
      ['fullName != :1', 'A B', '!='],
      ['fullName # :1', 'A B', '!='],
      ['fullName !== :1', 'A B', '!=='],
      ['fullName < :1', 'A B', '<'],
      ['fullName <= :1', 'A B', '<='],
      ['fullName > :1', 'A B', '>'],
      ['fullName >= :1', 'A B', '>='],
      ['fullName IN :1', ['A B', 'C D'], 'IN'],
      ['fullName % :1', 'Smith', '%'],
    ]
    for (const [text, value, operator] of cases) {
      log.query.length = 0
      ds.dataClass('Employee').query(text, value)
      expect(log.query, text).toEqual([
        { attributeName: 'fullName', dataClassName: 'Employee', kind: 'query', value, operator },
      ])
      expect(Object.isFrozen(log.query[0])).toBe(true)
    }
    // A literal list is given as an array; `begin` has no 4D operator: the getter answers.
    log.query.length = 0
    ds.dataClass('Employee').query("fullName in ['A B', 'C D']")
    expect(log.query[0]).toMatchObject({ operator: 'IN', value: ['A B', 'C D'] })
    log.query.length = 0
    expect(keys(ds, "fullName begin 'ann'")).toEqual([1, 3])
    expect(log.query).toEqual([])
  })

  it('is asked again with each value of a prepared query', () => {
    const { ds, log } = computedStore()
    const prepared = ds.dataClass('Employee').prepare('fullName = :1')
    expect(prepared.direct).toBe(false)
    expect(log.query).toEqual([])
    expect(
      prepared
        .select('Flora Pionsin')
        .toArray()
        .map((e) => e.getKey()),
    ).toEqual([6])
    expect(
      prepared
        .select('Bob Jones')
        .toArray()
        .map((e) => e.getKey()),
    ).toEqual([8])
    expect(prepared.count('Bob Smith')).toBe(1)
    expect(log.query.map((e) => e.value)).toEqual(['Flora Pionsin', 'Bob Jones', 'Bob Smith'])
    // `query()` keeps its prepared texts: the same holds there.
    expect(keys(ds, 'fullName = :1', 'Ann Jones')).toEqual([3])
    expect(keys(ds, 'fullName = :1', 'Ann Smith')).toEqual([1])
  })

  it('binds the returned filter with its own parameters, apart from the outer query’s', () => {
    const { ds } = computedStore()
    // The outer :1 and :2 are the comparison's value and the salary; the function's :1 and :2
    // are its first and last names.
    expect(keys(ds, 'salary > :2 and fullName = :1', 'Ann Smith', 1000)).toEqual([1])
    expect(keys(ds, 'fullName = :1 or salary > :2', 'Carl Brown', 5800)).toEqual([4, 5])
    expect(
      ds
        .dataClass('Employee')
        .run('fullName = :who', { parameters: { who: 'Dana White' } })
        .selection.toArray()
        .map((e) => e.getKey()),
    ).toEqual([5])
  })

  it('takes a plain query string', () => {
    const ds = withQuery(() => "lastName = 'Smith'")
    expect(keys(ds, 'fullName = :1', 'anything')).toEqual([1, 2])
  })

  it('applies at the end of a relation path, through an alias, under NOT and through a to-many relation', () => {
    const { ds } = computedStore()
    const plain = computedStore({ plain: true }).ds
    for (const text of [
      "manager.fullName = 'Ann Smith'",
      "bossName = 'Ann Jones'",
      "manager.manager.fullName = 'Ann Smith'",
    ]) {
      expect(keys(ds, text), text).toEqual(keys(plain, text))
      // Index reads and joins through the foreign key's index: no table is read whole.
      expect(
        scans(ds, () => keys(ds, text)),
        text,
      ).toBe(0)
    }
    expect(keys(ds, "not (fullName = 'Ann Smith')")).toEqual([2, 3, 4, 5, 6, 7, 8])
    expect(ds.dataClass('Employee').run("not (fullName = 'Ann Smith')").plan.root).toMatchObject({
      kind: 'Not',
      operand: { kind: 'Computed' },
    })
    const companies = (store: Datastore, text: string) =>
      store
        .dataClass('Company')
        .query(text)
        .toArray()
        .map((e) => e.getKey())
    expect(companies(ds, "staff.fullName = 'Flora Pionsin'")).toEqual([2])
    for (const text of ["staff.fullName = 'Flora Pionsin'", "staff.fullName != 'Ann Smith'"])
      expect(companies(ds, text), text).toEqual(companies(plain, text))
  })

  it('lets the returned filter name attributes a REST client may not', () => {
    const ds = withQuery(() => ({ query: 'secret = :1', parameters: ['s4'] }))
    const run = (text: string) =>
      ds
        .dataClass('Employee')
        .run(text, { exposedOnly: true })
        .selection.toArray()
        .map((e) => e.getKey())
    expect(run("fullName = 'x'")).toEqual([4])
    expect(thrown(() => run("secret = 's4'")).errCode).toBe(1500)
  })

  it('does not ask a function again for its own attribute inside its answer', () => {
    const seen: string[] = []
    const ds = withQuery((e: { value: string }) => {
      seen.push(e.value)
      return { query: 'fullName = :1 and lastName = :2', parameters: [e.value, 'Smith'] }
    })
    expect(keys(ds, 'fullName = :1', 'Bob Smith')).toEqual([2])
    expect(seen).toEqual(['Bob Smith'])
  })
})

describe('a query function that answers null', () => {
  it('leaves the sequential scan through the getter', () => {
    const { ds, log } = computedStore()
    // fullNameQuery answers null for ranges and `%`.
    expect(keys(ds, "fullName > 'D'")).toEqual([5, 6, 7])
    expect(keys(ds, "fullName % 'smith'")).toEqual([1, 2])
    expect(log.query.map((e) => e.operator)).toEqual(['>', '%'])
    expect(log.get).toBe(16)
    for (const answer of [null, undefined]) {
      const ds2 = withQuery(() => answer)
      expect(keys(ds2, "fullName = 'Bob Jones'")).toEqual([8])
      expect(ds2.dataClass('Employee').run("fullName = 'Bob Jones'").explain()).toBe(
        'QUERY PLAN\n`--SCAN Employee (fullName=?) ~8 rows',
      )
    }
  })
})

describe('a query function that fails', () => {
  const failing = (answer: ComputedQueryResult | number | object) =>
    thrown(() =>
      keys(
        withQuery(() => answer),
        "fullName = 'a b'",
      ),
    )

  it('throws its own error, as it is', () => {
    const oops = new Error('oops')
    const ds = withQuery(() => {
      throw oops
    })
    expect(() => keys(ds, "fullName = 'a b'")).toThrow(oops)
  })

  it('is a filter error (9001) when its text does not parse, naming the function', () => {
    for (const text of ['firstName = = 1', 'firstName = 1 order by lastName', '']) {
      const e = failing(text)
      expect(e.errCode, text).toBe(9001)
      expect(e.message).toContain('the query function of Employee.fullName')
    }
    const quote = failing("firstName = 'x")
    expect(quote.errCode).toBe(1808)
    expect(quote.message).toContain('the query function of Employee.fullName')
  })

  it('is AttributeNotFound (1500) when its text names an unknown attribute', () => {
    const e = failing('nickName = 1')
    expect(e.errCode).toBe(1500)
    expect(e.message).toBe(
      'The "nickName" attribute cannot be found in The "Employee" dataclass (in what the query function of Employee.fullName returned)',
    )
  })

  it('keeps the usual errors of values and placeholders', () => {
    expect(failing({ query: 'salary = :1', parameters: ['lots'] }).errCode).toBe(9003)
    const missing = failing({ query: 'firstName = :1 and lastName = :2', parameters: ['a'] })
    expect(missing.errCode).toBe(9002)
    expect(missing.message).toContain('the query function of Employee.fullName')
    // A plain string has no parameters.
    expect(failing('firstName = :1').errCode).toBe(9002)
  })

  it('is an Internal error (9099) when it returns something else than a query', () => {
    for (const answer of [
      42,
      ['firstName = 1'],
      { text: 'x' },
      { query: 'ID = :1', parameters: 1 },
    ]) {
      const e = failing(answer)
      expect(e.errCode, JSON.stringify(answer)).toBe(9099)
      expect(e.message).toContain('the query function of Employee.fullName returned')
    }
  })
})

describe('plans show the replacement', () => {
  it('in queryPlan, queryPath, the extended plan and explain()', () => {
    const { ds } = computedStore()
    const run = ds.dataClass('Employee').run('fullName = :1', {
      params: ['Flora Pionsin'],
      queryPlan: true,
      queryPath: true,
    })
    const item = "Employee.fullName == Flora Pionsin : replaced by its query function's filter"
    expect(run.queryPlan).toEqual({
      item,
      subquery: [
        {
          And: [
            { item: '[index : Employee.firstName ] === Flora' },
            { item: '[index : Employee.lastName ] === Pionsin' },
          ],
        },
      ],
    })
    expect(run.queryPath).toEqual({
      steps: [
        {
          description: item,
          time: 0,
          recordsfounds: 1,
          steps: [
            {
              description: 'AND',
              time: 0,
              recordsfounds: 1,
              steps: [
                {
                  description: '[index : Employee.firstName ] === Flora',
                  time: 0,
                  recordsfounds: 1,
                },
                {
                  description: '[index : Employee.lastName ] === Pionsin',
                  time: 0,
                  recordsfounds: 1,
                },
              ],
            },
          ],
        },
      ],
    })
    expect(run.extendedQueryPlan).toMatchObject({
      type: 'ComputedNode',
      field: 'fullName',
      table: 'Employee',
      oper: ' == ',
      value: 'Flora Pionsin',
      filter: {
        type: 'LogicOperatorNode',
        logicOper: 'And',
        parts: [
          { field: 'firstName', value: 'Flora', index: 'hash' },
          { field: 'lastName', value: 'Pionsin', index: 'hash' },
        ],
      },
    })
    expect(run.extendedQueryPath).toMatchObject({
      type: 'ComputedNode',
      foundRecords: 1,
      filter: { foundRecords: 1 },
    })
    expect(run.explain()).toBe(
      [
        'QUERY PLAN',
        "`--COMPUTED Employee (fullName == ?) REPLACED BY ITS QUERY FUNCTION'S FILTER ~1 rows",
        '   `--AND ~1 rows',
        '      |--SEARCH Employee USING HASH INDEX firstName (firstName=?) ~1 rows',
        '      `--FILTER Employee (lastName=?)',
      ].join('\n'),
    )
  })

  it('as the driver of an AND when its filter reads an index', () => {
    const { ds } = computedStore()
    const run = ds.dataClass('Employee').run("salary > 1000 and fullName = 'Ann Smith'")
    expect(run.plan.root).toMatchObject({
      kind: 'And',
      driven: true,
      operands: [{ kind: 'Computed' }, { kind: 'Leaf' }],
    })
    expect(run.explain()).toBe(
      [
        'QUERY PLAN',
        '`--AND ~2 rows',
        "   |--COMPUTED Employee (fullName == ?) REPLACED BY ITS QUERY FUNCTION'S FILTER ~2 rows",
        '   |  `--AND ~2 rows',
        '   |     |--SEARCH Employee USING HASH INDEX firstName (firstName=?) ~2 rows',
        '   |     `--FILTER Employee (lastName=?)',
        '   `--FILTER Employee (salary > ?)',
      ].join('\n'),
    )
  })
})

describe('an orderBy function replaces the sort', () => {
  const ordered = (ds: Datastore, text: string) =>
    ds
      .dataClass('Employee')
      .query(text)
      .toArray()
      .map((e) => e.getKey())

  it('by the keys it returns, without calling the getter', () => {
    const { ds, log } = computedStore()
    const event = (descending: boolean) => ({
      attributeName: 'fullName',
      dataClassName: 'Employee',
      kind: 'orderBy',
      operator: descending ? 'desc' : 'asc',
      descending,
    })
    expect(ordered(ds, 'order by fullName desc')).toEqual([6, 7, 5, 4, 2, 8, 1, 3])
    // Asked whenever the order is bound (a query text prepared, then run).
    expect(new Set(log.orderBy.map((e) => JSON.stringify(e)))).toEqual(
      new Set([JSON.stringify(event(true))]),
    )
    log.orderBy.length = 0
    expect(ordered(ds, 'order by fullName')).toEqual([3, 1, 8, 2, 4, 5, 7, 6])
    expect(log.orderBy[0]).toEqual(event(false))
    expect(log.get).toBe(0)
    // The same order as the getter gives on these names.
    const plain = computedStore({ plain: true }).ds
    expect(ordered(plain, 'order by fullName desc')).toEqual([6, 7, 5, 4, 2, 8, 1, 3])
  })

  it('in every way an order is given, and at the end of a relation path', () => {
    const { ds } = computedStore()
    const Employee = ds.dataClass('Employee')
    const byOption = Employee.run('', { orderBy: 'fullName desc' })
    expect(byOption.selection.toArray().map((e) => e.getKey())).toEqual([6, 7, 5, 4, 2, 8, 1, 3])
    expect(
      Employee.all()
        .orderBy('fullName')
        .toArray()
        .map((e) => e.getKey()),
    ).toEqual([3, 1, 8, 2, 4, 5, 7, 6])
    // Managers: Dana White (6, 7), Bob Smith (8), Ann Smith (2, 3), Ann Jones (4, 5), none (1).
    expect(ordered(ds, 'order by manager.fullName desc, ID')).toEqual([6, 7, 8, 2, 3, 4, 5, 1])
    expect(ordered(ds, 'order by bossName desc, ID')).toEqual([6, 7, 8, 2, 3, 4, 5, 1])
    expect(Employee.run('order by manager.fullName desc, ID').explain()).toBe(
      'QUERY PLAN\n`--ORDER BY manager.fullName DESC = (manager.firstName DESC, manager.lastName DESC), ID (top-k on demand)',
    )
  })

  it('walks a sorted index when it returns one indexed attribute', () => {
    const { ds, log } = computedStore({
      functions: {
        get: (e) => `${String(e.get('firstName'))} ${String(e.get('lastName'))}`,
        orderBy: (e) => `lastName${e.descending ? ' desc' : ''}`,
      },
    })
    const run = ds.dataClass('Employee').run('order by fullName desc')
    expect(run.explain()).toBe(
      'QUERY PLAN\n`--ORDER BY fullName DESC = (lastName DESC) USING SORTED INDEX (no sort)',
    )
    expect(run.selection.toArray().map((e) => e.get('lastName'))).toEqual([
      'White',
      'Smith',
      'Smith',
      'Pionsin',
      'Jones',
      'Jones',
      'Brown',
      'Adams',
    ])
    expect(log.get).toBe(0)
  })

  it('leaves the getter’s sort when it answers null, or when it names its own attribute', () => {
    for (const answer of [null, undefined, 'fullName desc']) {
      let calls = 0
      const { ds } = computedStore({
        functions: {
          get: (e) => {
            calls++
            return `${String(e.get('firstName'))} ${String(e.get('lastName'))}`
          },
          orderBy: () => answer,
        },
      })
      const keysInOrder = ordered(ds, 'order by fullName')
      expect(calls, String(answer)).toBe(8)
      // 'fullName desc' is the function's own text: bound as written, the getter's descending order.
      expect(keysInOrder).toEqual(
        answer === 'fullName desc' ? [6, 7, 5, 4, 2, 8, 1, 3] : [3, 1, 8, 2, 4, 5, 7, 6],
      )
    }
  })

  it('fails with the usual order errors, naming the function', () => {
    const failing = (answer: unknown) =>
      thrown(() =>
        computedStore({
          functions: { get: () => 'x', orderBy: () => answer as string },
        })
          .ds.dataClass('Employee')
          .query('order by fullName'),
      )
    for (const answer of ['firstName sideways', 'nickName', 'manager.staff']) {
      const e = failing(answer)
      expect(e.errCode, answer).toBe(1810)
      expect(e.message).toContain('the orderBy function of Employee.fullName')
    }
    expect(failing(3).errCode).toBe(9099)
    const oops = new Error('oops')
    expect(() =>
      computedStore({
        functions: {
          get: () => 'x',
          orderBy: () => {
            throw oops
          },
        },
      })
        .ds.dataClass('Employee')
        .query('order by fullName'),
    ).toThrow(oops)
  })
})
