/**
 * Golden tests of plans: on a fixed model and data set (indexes on some attributes only), the
 * exact `queryPlan`, `extendedQueryPlan`, `queryPath` (counts; times are 0 with a ManualClock) and
 * `explain()` text of representative queries, and proof that index reads do not scan.
 * Each expected text was checked by hand against the data below before it was frozen here.
 */
import { describe, expect, it, vi } from 'vitest'
import { ManualClock } from '../clock/clock.js'
import type { ModelJson } from '../schema/model-json.js'
import { createDatastore } from '../orda/objects/datastore.js'

const MODEL: ModelJson = {
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'name', type: 'string', indexed: true },
        { name: 'city', type: 'string' },
        { name: 'staff', kind: 'relatedEntities', path: 'employer' },
      ],
    },
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'firstName', type: 'string' },
        { name: 'lastName', type: 'string', indexed: true },
        { name: 'dept', type: 'string', indexed: true, indexKind: 'hash' },
        { name: 'salary', type: 'number', indexed: true, indexKind: 'sorted' },
        { name: 'age', type: 'long' },
        { name: 'employer', kind: 'relatedEntity', path: 'Company' },
      ],
    },
  ],
}

// [ID, lastName, firstName, dept, salary, age, employer]
const EMPLOYEES = [
  [1, 'Smith', 'Ann', 'Sales', 1000, 20, 1],
  [2, 'Smyth', 'Bob', 'Sales', 3800, 31, 2],
  [3, 'Jones', 'Carl', 'R&D', 6600, 42, 3],
  [4, 'Johnson', 'Dana', 'Admin', 9400, 53, 4],
  [5, 'Brown', 'Eve', 'Support', 2200, 24, 1],
  [6, 'Smith', 'Ann', 'Sales', 5000, 35, null],
  [7, 'Taylor', 'Bob', 'Sales', 7800, 46, 3],
  [8, 'Wilson', 'Carl', 'R&D', 10600, 57, 4],
  [9, 'Davidson', 'Dana', 'Admin', 3400, 28, 1],
  [10, 'Smithers', 'Eve', 'Support', 6200, 39, 2],
  [11, 'Evans', 'Ann', 'Sales', 9000, 50, 3],
  [12, 'Thomas', 'Bob', 'Sales', 1800, 21, null],
  [13, 'Jackson', 'Carl', 'R&D', 4600, 32, 1],
  [14, 'White', 'Dana', 'Admin', 7400, 43, 2],
  [15, 'Harris', 'Eve', 'Support', 10200, 54, 3],
  [16, 'Martin', 'Ann', 'Sales', 3000, 25, 4],
  [17, 'Thompson', 'Bob', 'Sales', 5800, 36, 1],
  [18, 'Garcia', 'Carl', 'R&D', 8600, 47, null],
  [19, 'Martinez', 'Dana', 'Admin', 1400, 58, 3],
  [20, 'Robinson', 'Eve', 'Support', 4200, 29, 4],
  [21, 'Clark', 'Ann', 'Sales', 7000, 40, 1],
  [22, 'Lewis', 'Bob', 'Sales', 9800, 51, 2],
  [23, 'Lee', 'Carl', 'R&D', 2600, 22, 3],
  [24, 'Walker', 'Dana', 'Admin', 5400, 33, null],
  [25, 'Hall', 'Eve', 'Support', 8200, 44, 1],
] as const

const DATA = {
  Company: [
    { ID: 1, name: 'Acme', city: 'Paris' },
    { ID: 2, name: 'Globex', city: 'Lyon' },
    { ID: 3, name: 'Initech', city: 'Paris' },
    { ID: 4, name: 'Umbrella', city: 'Nice' },
    { ID: 5, name: 'Hooli', city: 'Lille' },
  ],
  Employee: EMPLOYEES.map(([ID, lastName, firstName, dept, salary, age, employer]) => ({
    ID,
    lastName,
    firstName,
    dept,
    salary,
    age,
    employer,
  })),
}

const ds = createDatastore(MODEL, { data: DATA, clock: new ManualClock() })

interface Golden {
  readonly title: string
  readonly dataClass: 'Company' | 'Employee'
  readonly query: string
  readonly keys: readonly number[]
  readonly queryPlan: string
  readonly queryPath: string
  readonly explain: readonly string[]
}

const GOLDEN: Golden[] = [
  {
    title: 'indexed equality: a hash index seek',
    dataClass: 'Employee',
    query: "lastName = 'Smith'",
    keys: [1, 6],
    queryPlan: '{"item":"[index : Employee.lastName ] === Smith"}',
    queryPath:
      '{"steps":[{"description":"[index : Employee.lastName ] === Smith","time":0,"recordsfounds":2}]}',
    explain: ['QUERY PLAN', '`--SEARCH Employee USING HASH INDEX lastName (lastName=?) ~2 rows'],
  },
  {
    title: 'the primary key',
    dataClass: 'Employee',
    query: 'ID = 3',
    keys: [3],
    queryPlan: '{"item":"[index : Employee.ID ] === 3"}',
    queryPath:
      '{"steps":[{"description":"[index : Employee.ID ] === 3","time":0,"recordsfounds":1}]}',
    explain: ['QUERY PLAN', '`--SEARCH Employee USING PRIMARY KEY ID (ID=?) ~1 rows'],
  },
  {
    title: 'no index: a scan',
    dataClass: 'Employee',
    query: "firstName = 'Ann'",
    keys: [1, 6, 11, 16, 21],
    queryPlan: '{"item":"Employee.firstName === Ann"}',
    queryPath:
      '{"steps":[{"description":"Employee.firstName === Ann","time":0,"recordsfounds":5}]}',
    explain: ['QUERY PLAN', '`--SCAN Employee (firstName=?) ~25 rows'],
  },
  {
    title:
      'AND: the most selective indexed operand drives, the others filter by increasing estimate',
    dataClass: 'Employee',
    query: "salary > 5000 and dept = 'R&D' and lastName = 'Smith'",
    keys: [],
    queryPlan:
      '{"And":[{"item":"[index : Employee.lastName ] === Smith"},{"item":"[index : Employee.dept ] === R&D"},{"item":"[index : Employee.salary ] > 5000"}]}',
    queryPath:
      '{"steps":[{"description":"AND","time":0,"recordsfounds":0,"steps":[{"description":"[index : Employee.lastName ] === Smith","time":0,"recordsfounds":2},{"description":"[index : Employee.dept ] === R&D","time":0,"recordsfounds":0}]}]}',
    explain: [
      'QUERY PLAN',
      '`--AND ~2 rows',
      '   |--SEARCH Employee USING HASH INDEX lastName (lastName=?) ~2 rows',
      '   |--FILTER Employee (dept=?)',
      '   `--FILTER Employee (salary > ?)',
    ],
  },
  {
    title: 'AND without an indexed operand: one scan',
    dataClass: 'Employee',
    query: "firstName = 'Ann' and age > 30",
    keys: [6, 11, 21],
    queryPlan: '{"And":[{"item":"Employee.firstName === Ann"},{"item":"Employee.age > 30"}]}',
    queryPath:
      '{"steps":[{"description":"AND","time":0,"recordsfounds":3,"steps":[{"description":"Employee.firstName === Ann","time":0,"recordsfounds":5},{"description":"Employee.age > 30","time":0,"recordsfounds":3}]}]}',
    explain: [
      'QUERY PLAN',
      '`--AND (one scan) ~25 rows',
      '   |--FILTER Employee (firstName=?)',
      '   `--FILTER Employee (age > ?)',
    ],
  },
  {
    title: 'AND of two ranges on one sorted index',
    dataClass: 'Employee',
    query: 'salary >= 2000 and salary < 4000',
    keys: [2, 5, 9, 16, 23],
    // One read of the index between both bounds; the other bound stays as a filter all rows pass.
    queryPlan:
      '{"And":[{"item":"[index : Employee.salary ] >= 2000"},{"item":"[index : Employee.salary ] < 4000"}]}',
    queryPath:
      '{"steps":[{"description":"AND","time":0,"recordsfounds":5,"steps":[{"description":"[index : Employee.salary ] >= 2000","time":0,"recordsfounds":5},{"description":"[index : Employee.salary ] < 4000","time":0,"recordsfounds":5}]}]}',
    explain: [
      'QUERY PLAN',
      '`--AND ~5 rows',
      '   |--SEARCH Employee USING SORTED INDEX salary (salary >= ? AND salary < ?) ~5 rows',
      '   `--FILTER Employee (salary < ?) covered by the index range',
    ],
  },
  {
    title: 'OR: a union of index reads',
    dataClass: 'Employee',
    query: "lastName = 'Smith' or salary < 2000",
    keys: [1, 6, 12, 19],
    queryPlan:
      '{"Or":[{"item":"[index : Employee.lastName ] === Smith"},{"item":"[index : Employee.salary ] < 2000"}]}',
    queryPath:
      '{"steps":[{"description":"OR","time":0,"recordsfounds":4,"steps":[{"description":"[index : Employee.lastName ] === Smith","time":0,"recordsfounds":2},{"description":"[index : Employee.salary ] < 2000","time":0,"recordsfounds":3}]}]}',
    explain: [
      'QUERY PLAN',
      '`--OR (union) ~5 rows',
      '   |--SEARCH Employee USING HASH INDEX lastName (lastName=?) ~2 rows',
      '   `--SEARCH Employee USING SORTED INDEX salary (salary < ?) ~3 rows',
    ],
  },
  {
    title: 'NOT: the complement',
    dataClass: 'Employee',
    query: "not(dept = 'Sales')",
    keys: [3, 4, 5, 8, 9, 10, 13, 14, 15, 18, 19, 20, 23, 24, 25],
    queryPlan: '{"Not":[{"item":"[index : Employee.dept ] === Sales"}]}',
    queryPath:
      '{"steps":[{"description":"NOT","time":0,"recordsfounds":15,"steps":[{"description":"[index : Employee.dept ] === Sales","time":0,"recordsfounds":10}]}]}',
    explain: [
      'QUERY PLAN',
      '`--NOT (complement) ~25 rows',
      '   `--SEARCH Employee USING HASH INDEX dept (dept=?) ~10 rows',
    ],
  },
  {
    title: 'EXCEPT: a difference',
    dataClass: 'Employee',
    query: "salary >= 8000 except dept = 'Sales'",
    keys: [4, 8, 15, 18, 25],
    queryPlan:
      '{"Except":[{"item":"[index : Employee.salary ] >= 8000"},{"item":"[index : Employee.dept ] === Sales"}]}',
    queryPath:
      '{"steps":[{"description":"EXCEPT","time":0,"recordsfounds":5,"steps":[{"description":"[index : Employee.salary ] >= 8000","time":0,"recordsfounds":7},{"description":"[index : Employee.dept ] === Sales","time":0,"recordsfounds":10}]}]}',
    explain: [
      'QUERY PLAN',
      '`--EXCEPT (difference) ~7 rows',
      '   |--SEARCH Employee USING SORTED INDEX salary (salary >= ?) ~7 rows',
      '   `--SEARCH Employee USING HASH INDEX dept (dept=?) ~10 rows',
    ],
  },
  {
    title: 'a join through a relatedEntity',
    dataClass: 'Employee',
    query: "employer.name = 'Acme'",
    keys: [1, 5, 9, 13, 17, 21, 25],
    queryPlan:
      '{"item":"Join on Table : Company : Employee.employer = Company.ID","subquery":[{"item":"[index : Company.name ] === Acme"}]}',
    queryPath:
      '{"steps":[{"description":"Join on Table : Company : Employee.employer = Company.ID","time":0,"recordsfounds":7,"steps":[{"steps":[{"description":"[index : Company.name ] === Acme","time":0,"recordsfounds":1}]}]}]}',
    explain: [
      'QUERY PLAN',
      '`--JOIN Company : Employee.employer = Company.ID USING HASH INDEX ~5 rows',
      '   `--SEARCH Company USING HASH INDEX name (name=?) ~1 rows',
    ],
  },
  {
    title: 'a join driving an AND',
    dataClass: 'Employee',
    query: "employer.name = 'Acme' and salary < 3000",
    keys: [1, 5],
    queryPlan:
      '{"And":[{"item":"Join on Table : Company : Employee.employer = Company.ID","subquery":[{"item":"[index : Company.name ] === Acme"}]},{"item":"[index : Employee.salary ] < 3000"}]}',
    queryPath:
      '{"steps":[{"description":"AND","time":0,"recordsfounds":2,"steps":[{"description":"Join on Table : Company : Employee.employer = Company.ID","time":0,"recordsfounds":7,"steps":[{"steps":[{"description":"[index : Company.name ] === Acme","time":0,"recordsfounds":1}]}]},{"description":"[index : Employee.salary ] < 3000","time":0,"recordsfounds":2}]}]}',
    explain: [
      'QUERY PLAN',
      '`--AND ~5 rows',
      '   |--JOIN Company : Employee.employer = Company.ID USING HASH INDEX ~5 rows',
      '   |  `--SEARCH Company USING HASH INDEX name (name=?) ~1 rows',
      '   `--FILTER Employee (salary < ?)',
    ],
  },
  {
    title: 'to-many: companies with at least one matching employee',
    dataClass: 'Company',
    query: 'staff.salary > 9000',
    keys: [2, 3, 4],
    queryPlan:
      '{"item":"Join on Table : Employee : Company.ID = Employee.employer","subquery":[{"item":"[index : Employee.salary ] > 9000"}]}',
    queryPath:
      '{"steps":[{"description":"Join on Table : Employee : Company.ID = Employee.employer","time":0,"recordsfounds":3,"steps":[{"steps":[{"description":"[index : Employee.salary ] > 9000","time":0,"recordsfounds":4}]}]}]}',
    explain: [
      'QUERY PLAN',
      '`--JOIN Employee : Company.ID = Employee.employer USING HASH INDEX ~4 rows',
      '   `--SEARCH Employee USING SORTED INDEX salary (salary > ?) ~4 rows',
    ],
  },
  {
    title: 'begin: a prefix range of the sorted index',
    dataClass: 'Employee',
    query: "lastName begin 'sm'",
    keys: [1, 2, 6, 10],
    queryPlan: '{"item":"[index : Employee.lastName ] begin sm"}',
    queryPath:
      '{"steps":[{"description":"[index : Employee.lastName ] begin sm","time":0,"recordsfounds":4}]}',
    explain: [
      'QUERY PLAN',
      '`--SEARCH Employee USING SORTED INDEX lastName (lastName begin ?) ~4 rows',
    ],
  },
  {
    title: 'a wildcard with a literal prefix: the prefix range, then a re-check',
    dataClass: 'Employee',
    query: "lastName = 'Sm@th'",
    keys: [1, 2, 6],
    queryPlan: '{"item":"[index : Employee.lastName ] LIKE Sm@th"}',
    queryPath:
      '{"steps":[{"description":"[index : Employee.lastName ] LIKE Sm@th","time":0,"recordsfounds":3}]}',
    explain: [
      'QUERY PLAN',
      '`--SEARCH Employee USING SORTED INDEX lastName (lastName LIKE ?) then re-check ~4 rows',
    ],
  },
  {
    title: 'a wildcard without a prefix: a scan',
    dataClass: 'Employee',
    query: "lastName = '@son'",
    keys: [4, 8, 9, 13, 17, 20],
    queryPlan: '{"item":"Employee.lastName LIKE @son"}',
    queryPath:
      '{"steps":[{"description":"Employee.lastName LIKE @son","time":0,"recordsfounds":6}]}',
    explain: ['QUERY PLAN', '`--SCAN Employee (lastName LIKE ?) ~25 rows'],
  },
  {
    title:
      'IN of several contains patterns: a scan that checks them all in one pass over each text',
    dataClass: 'Employee',
    query: "firstName IN ['@nn@', '@ob@', '@xy@', '@zz@', '@qq@']",
    keys: [1, 2, 6, 7, 11, 12, 16, 17, 21, 22],
    queryPlan: '{"item":"Employee.firstName IN [@nn@, @ob@, @xy@, @zz@, @qq@]"}',
    queryPath:
      '{"steps":[{"description":"Employee.firstName IN [@nn@, @ob@, @xy@, @zz@, @qq@]","time":0,"recordsfounds":10}]}',
    explain: ['QUERY PLAN', '`--SCAN Employee (firstName IN ?) one pass over 5 patterns ~25 rows'],
  },
  {
    title: 'OR of patterns on one attribute: the contains patterns and the begin in one pass',
    dataClass: 'Employee',
    query:
      "firstName = '@nn@' or firstName = '@ob@' or firstName = '@xy@' or firstName = '@zz@' or firstName = '@qq@' or firstName begin 'd'",
    keys: [1, 2, 4, 6, 7, 9, 11, 12, 14, 16, 17, 19, 21, 22, 24],
    queryPlan:
      '{"Or":[{"item":"Employee.firstName LIKE @nn@"},{"item":"Employee.firstName LIKE @ob@"},{"item":"Employee.firstName LIKE @xy@"},{"item":"Employee.firstName LIKE @zz@"},{"item":"Employee.firstName LIKE @qq@"},{"item":"Employee.firstName begin d"}]}',
    queryPath:
      '{"steps":[{"description":"OR","time":0,"recordsfounds":15,"steps":[{"description":"Employee.firstName LIKE @nn@","time":0,"recordsfounds":5},{"description":"Employee.firstName LIKE @ob@","time":0,"recordsfounds":5},{"description":"Employee.firstName LIKE @xy@","time":0,"recordsfounds":0},{"description":"Employee.firstName LIKE @zz@","time":0,"recordsfounds":0},{"description":"Employee.firstName LIKE @qq@","time":0,"recordsfounds":0},{"description":"Employee.firstName begin d","time":0,"recordsfounds":5}]}]}',
    explain: [
      'QUERY PLAN',
      '`--OR (union; firstName: one pass over 6 patterns) ~25 rows',
      '   |--SCAN Employee (firstName LIKE ?) ~25 rows',
      '   |--SCAN Employee (firstName LIKE ?) ~25 rows',
      '   |--SCAN Employee (firstName LIKE ?) ~25 rows',
      '   |--SCAN Employee (firstName LIKE ?) ~25 rows',
      '   |--SCAN Employee (firstName LIKE ?) ~25 rows',
      '   `--SCAN Employee (firstName begin ?) ~25 rows',
    ],
  },
  {
    title: '=== reads @ as a character: a plain hash seek',
    dataClass: 'Employee',
    query: "lastName === 'Sm@th'",
    keys: [],
    queryPlan: '{"item":"[index : Employee.lastName ] === Sm@th"}',
    queryPath:
      '{"steps":[{"description":"[index : Employee.lastName ] === Sm@th","time":0,"recordsfounds":0}]}',
    explain: ['QUERY PLAN', '`--SEARCH Employee USING HASH INDEX lastName (lastName=?) ~0 rows'],
  },
  {
    title: 'IN: one hash seek per value',
    dataClass: 'Employee',
    query: "dept IN ['Sales', 'r&d']",
    keys: [1, 2, 3, 6, 7, 8, 11, 12, 13, 16, 17, 18, 21, 22, 23],
    queryPlan: '{"item":"[index : Employee.dept ] IN [Sales, r&d]"}',
    queryPath:
      '{"steps":[{"description":"[index : Employee.dept ] IN [Sales, r&d]","time":0,"recordsfounds":15}]}',
    explain: ['QUERY PLAN', '`--SEARCH Employee USING HASH INDEX dept (dept IN ?) ~15 rows'],
  },
  {
    title: '!=: a scan',
    dataClass: 'Employee',
    query: "dept != 'Sales'",
    keys: [3, 4, 5, 8, 9, 10, 13, 14, 15, 18, 19, 20, 23, 24, 25],
    queryPlan: '{"item":"Employee.dept # Sales"}',
    queryPath: '{"steps":[{"description":"Employee.dept # Sales","time":0,"recordsfounds":15}]}',
    explain: ['QUERY PLAN', '`--SCAN Employee (dept # ?) ~25 rows'],
  },
  {
    title: 'order by one sorted key: an index walk',
    dataClass: 'Employee',
    query: 'salary > 9000 order by salary desc',
    keys: [8, 15, 22, 4],
    queryPlan: '{"item":"[index : Employee.salary ] > 9000"}',
    queryPath:
      '{"steps":[{"description":"[index : Employee.salary ] > 9000","time":0,"recordsfounds":4}]}',
    explain: [
      'QUERY PLAN',
      '|--SEARCH Employee USING SORTED INDEX salary (salary > ?) ~4 rows',
      '`--ORDER BY salary DESC USING SORTED INDEX (no sort)',
    ],
  },
  {
    title: 'order by several keys: top-k',
    dataClass: 'Employee',
    query: 'salary > 9000 order by firstName, salary',
    keys: [22, 8, 4, 15],
    queryPlan: '{"item":"[index : Employee.salary ] > 9000"}',
    queryPath:
      '{"steps":[{"description":"[index : Employee.salary ] > 9000","time":0,"recordsfounds":4}]}',
    explain: [
      'QUERY PLAN',
      '|--SEARCH Employee USING SORTED INDEX salary (salary > ?) ~4 rows',
      '`--ORDER BY firstName, salary (top-k on demand)',
    ],
  },
]

// Pretty-printed (JSON.stringify(x, null, 2)): the text, key order included, must match.
const EXTENDED_AND = `{
  "type": "LogicOperatorNode",
  "logicOper": "And",
  "parts": [
    {
      "type": "SeqNode",
      "field": "lastName",
      "table": "Employee",
      "instance": 0,
      "oper": " === ",
      "value": "Smith",
      "index": "hash"
    },
    {
      "type": "SeqNode",
      "field": "dept",
      "table": "Employee",
      "instance": 0,
      "oper": " === ",
      "value": "R&D",
      "index": "hash"
    },
    {
      "type": "SeqNode",
      "field": "salary",
      "table": "Employee",
      "instance": 0,
      "oper": " > ",
      "value": 5000,
      "index": "sorted"
    }
  ]
}`

const EXTENDED_AND_PATH = `{
  "type": "LogicOperatorNode",
  "logicOper": "And",
  "parts": [
    {
      "type": "SeqNode",
      "field": "lastName",
      "table": "Employee",
      "instance": 0,
      "oper": " === ",
      "value": "Smith",
      "index": "hash",
      "timeTaken": 0,
      "foundRecords": 2
    },
    {
      "type": "SeqNode",
      "field": "dept",
      "table": "Employee",
      "instance": 0,
      "oper": " === ",
      "value": "R&D",
      "index": "hash",
      "timeTaken": 0,
      "foundRecords": 0
    },
    {
      "type": "SeqNode",
      "field": "salary",
      "table": "Employee",
      "instance": 0,
      "oper": " > ",
      "value": 5000,
      "index": "sorted"
    }
  ],
  "timeTaken": 0,
  "foundRecords": 0
}`

const EXTENDED_JOIN = `{
  "type": "LogicOperatorNode",
  "logicOper": "And",
  "parts": [
    {
      "type": "JoinNode",
      "targetTable": "Company",
      "instance": 0,
      "joinPath": [
        {
          "leftTable": "Employee",
          "leftField": "employer",
          "leftInstance": 0,
          "rightTable": "Company",
          "rightField": "ID",
          "rightInstance": 0
        }
      ],
      "filter": {
        "type": "SeqNode",
        "field": "name",
        "table": "Company",
        "instance": 0,
        "oper": " === ",
        "value": "Acme",
        "index": "hash"
      }
    },
    {
      "type": "SeqNode",
      "field": "salary",
      "table": "Employee",
      "instance": 0,
      "oper": " < ",
      "value": 3000,
      "index": "sorted"
    }
  ]
}`

const EXTENDED_JOIN_PATH = `{
  "type": "LogicOperatorNode",
  "logicOper": "And",
  "parts": [
    {
      "type": "JoinNode",
      "targetTable": "Company",
      "instance": 0,
      "joinPath": [
        {
          "leftTable": "Employee",
          "leftField": "employer",
          "leftInstance": 0,
          "rightTable": "Company",
          "rightField": "ID",
          "rightInstance": 0
        }
      ],
      "filter": {
        "type": "SeqNode",
        "field": "name",
        "table": "Company",
        "instance": 0,
        "oper": " === ",
        "value": "Acme",
        "index": "hash",
        "timeTaken": 0,
        "foundRecords": 1
      },
      "timeTaken": 0,
      "foundRecords": 7
    },
    {
      "type": "SeqNode",
      "field": "salary",
      "table": "Employee",
      "instance": 0,
      "oper": " < ",
      "value": 3000,
      "index": "sorted",
      "timeTaken": 0,
      "foundRecords": 2
    }
  ],
  "timeTaken": 0,
  "foundRecords": 2
}`

const EXTENDED_LIKE = `{
  "type": "SeqNode",
  "field": "lastName",
  "table": "Employee",
  "instance": 0,
  "oper": " LIKE ",
  "value": "Sm@th",
  "index": "sorted"
}`

describe('plans of representative queries', () => {
  it.each(GOLDEN)('$title: $query', (g) => {
    const run = ds.dataClass(g.dataClass).run(g.query, { queryPlan: true, queryPath: true })
    expect(run.selection.toArray().map((e) => e.getKey())).toEqual(g.keys)
    expect(JSON.stringify(run.queryPlan)).toBe(g.queryPlan)
    expect(JSON.stringify(run.queryPath)).toBe(g.queryPath)
    expect(run.explain()).toBe(g.explain.join('\n'))
  })

  it('gives no plan objects without a filter, and says so in explain()', () => {
    const run = ds.dataClass('Employee').run('', { queryPlan: true, queryPath: true })
    expect(run.queryPlan).toBeNull()
    expect(run.queryPath).toBeNull()
    expect(run.explain()).toBe('QUERY PLAN\n`--SCAN (every entity)')
    expect(ds.dataClass('Employee').run('order by salary').explain()).toBe(
      'QUERY PLAN\n`--ORDER BY salary USING SORTED INDEX (no sort)',
    )
  })
})

describe('extended plans', () => {
  const extended = (query: string) =>
    ds.dataClass('Employee').run(query, { queryPlan: true, queryPath: true })

  it('AND: the parts in execution order, each with its index', () => {
    const run = extended("salary > 5000 and dept = 'R&D' and lastName = 'Smith'")
    expect(JSON.stringify(run.extendedQueryPlan, null, 2)).toBe(EXTENDED_AND)
    // The AND stopped after dept found nothing: salary was not run and has no counts.
    expect(JSON.stringify(run.extendedQueryPath, null, 2)).toBe(EXTENDED_AND_PATH)
  })

  it('a join: the join path and the inner filter', () => {
    const run = extended("employer.name = 'Acme' and salary < 3000")
    expect(JSON.stringify(run.extendedQueryPlan, null, 2)).toBe(EXTENDED_JOIN)
    expect(JSON.stringify(run.extendedQueryPath, null, 2)).toBe(EXTENDED_JOIN_PATH)
  })

  it('a wildcard read through the sorted index', () => {
    const run = extended("lastName = 'Sm@th'")
    expect(JSON.stringify(run.extendedQueryPlan, null, 2)).toBe(EXTENDED_LIKE)
  })
})

describe('index reads do not scan', () => {
  /** Runs `query` and reads its whole selection, counting full-table reads of both tables. */
  function scans(dataClass: 'Company' | 'Employee', query: string): number {
    // A full-table read goes through records() or scanLength (the executor's tight loops).
    const spies = ['Company', 'Employee'].flatMap((name) => [
      vi.spyOn(ds.dataClass(name).table, 'records'),
      vi.spyOn(ds.dataClass(name).table, 'scanLength', 'get'),
    ])
    const run = ds.dataClass(dataClass).run(query)
    expect(run.selection.toArray().length).toBeGreaterThan(0)
    const calls = spies.reduce((n, spy) => n + spy.mock.calls.length, 0)
    for (const spy of spies) spy.mockRestore()
    return calls
  }

  it('answers indexed comparisons and joins without reading every row', () => {
    for (const query of [
      "lastName = 'Smith'",
      'ID = 3',
      "dept IN ['Sales', 'r&d']",
      'salary >= 2000 and salary < 4000',
      "lastName begin 'sm'",
      "lastName = 'Sm@th'",
      "salary >= 5000 and lastName = 'Smith'",
      "lastName = 'Smith' or salary < 2000",
      "employer.name = 'Acme'",
      "employer.name = 'Acme' and firstName = 'Ann'",
    ]) {
      expect(scans('Employee', query), query).toBe(0)
    }
    expect(scans('Company', 'staff.salary > 9000')).toBe(0)
  })

  it('scans where no index can answer', () => {
    for (const query of ["firstName = 'Ann'", "lastName = '@son'", "dept != 'Sales'"]) {
      expect(scans('Employee', query), query).toBe(1)
    }
  })

  it('reads an indexed equality as a hash seek in the plan tree', () => {
    const { plan } = ds.dataClass('Employee').run("lastName = 'Smith'")
    expect(plan.root).toMatchObject({
      kind: 'Leaf',
      access: { kind: 'hash', via: 'hash' },
      estimate: 2,
    })
    const and = ds
      .dataClass('Employee')
      .run("salary > 5000 and dept = 'R&D' and lastName = 'Smith'")
    expect(and.plan.root).toMatchObject({ kind: 'And', driven: true })
    const root = and.plan.root
    if (root?.kind !== 'And') throw new Error('expected an AND plan')
    const operands = root.operands.map((o) =>
      o.kind === 'Leaf' ? [o.bound.operand.attr.name, o.estimate] : [o.kind, o.estimate],
    )
    expect(operands).toEqual([
      ['lastName', 2],
      ['dept', 5],
      ['salary', 14],
    ])
  })
})
