/**
 * @module For tests: a small company whose employees have a computed `fullName` ("first last")
 * with every function 4D gives a computed attribute (get, set, query, orderBy), and a log of their
 * calls. `plain: true` gives the same data with a getter only (the sequential default), to compare.
 */
import type {
  ComputedAttributeFunctions,
  ComputedOrderByEvent,
  ComputedQueryEvent,
  ComputedQueryResult,
  ComputedSetEvent,
} from '../../schema/definitions.js'
import type { ModelJson } from '../../schema/model-json.js'
import { createDatastore, type Datastore } from './datastore.js'
import { ManualClock } from '../../clock/clock.js'

export const COMPUTED_MODEL: ModelJson = {
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
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'firstName', type: 'string', indexed: true },
        { name: 'lastName', type: 'string', indexed: true },
        { name: 'salary', type: 'number' },
        { name: 'secret', type: 'string', exposed: false },
        { name: 'employer', kind: 'relatedEntity', path: 'Company' },
        { name: 'manager', kind: 'relatedEntity', path: 'Employee' },
        { name: 'fullName', kind: 'calculated', type: 'string' },
        { name: 'bossName', kind: 'alias', path: 'manager.fullName' },
      ],
    },
  ],
}

// [ID, firstName, lastName, salary, employer, manager]
const EMPLOYEES = [
  [1, 'Ann', 'Smith', 5000, 1, null],
  [2, 'Bob', 'Smith', 3000, 1, 1],
  [3, 'Ann', 'Jones', 4000, 2, 1],
  [4, 'Carl', 'Brown', 2500, 2, 3],
  [5, 'Dana', 'White', 6000, 1, 3],
  [6, 'Flora', 'Pionsin', 5500, 2, 5],
  [7, 'Eve', 'Adams', 3500, null, 5],
  [8, 'Bob', 'Jones', 4500, 1, 2],
] as const

export const COMPUTED_DATA = {
  Company: [
    { ID: 1, name: 'Acme' },
    { ID: 2, name: 'Globex' },
  ],
  Employee: EMPLOYEES.map(([ID, firstName, lastName, salary, employer, manager]) => ({
    ID,
    firstName,
    lastName,
    salary,
    employer,
    manager,
    secret: `s${ID}`,
  })),
}

export interface ComputedLog {
  get: number
  readonly query: ComputedQueryEvent[]
  readonly orderBy: ComputedOrderByEvent[]
  readonly set: { self: unknown; value: unknown; event: ComputedSetEvent }[]
}

const split = (value: unknown): [string, string] => {
  const text = String(value ?? '')
  const at = text.indexOf(' ')
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + 1)]
}

/**
 * The query function 4D's documentation describes, for equality, inequality and IN: "first last"
 * compared part by part on the indexed storage attributes; anything else takes the default.
 */
export function fullNameQuery(event: ComputedQueryEvent): ComputedQueryResult {
  const { operator, value } = event
  if (operator === '==' || operator === '===') {
    const [first, last] = split(value)
    return {
      query: `firstName ${operator} :1 and lastName ${operator} :2`,
      parameters: [first, last],
    }
  }
  if (operator === '!=') {
    const [first, last] = split(value)
    return { query: 'firstName != :1 or lastName != :2', parameters: [first, last] }
  }
  if (operator === 'IN' && Array.isArray(value)) {
    const parts = value.map((v, i) => `(firstName = :${2 * i + 1} and lastName = :${2 * i + 2})`)
    return { query: parts.join(' or '), parameters: value.flatMap(split) }
  }
  return null
}

export function computedStore(
  options: { readonly plain?: boolean; readonly functions?: ComputedAttributeFunctions } = {},
): { ds: Datastore; log: ComputedLog } {
  const log: ComputedLog = { get: 0, query: [], orderBy: [], set: [] }
  const get = (e: { get(name: string): unknown }): unknown => {
    log.get++
    return `${String(e.get('firstName'))} ${String(e.get('lastName'))}`
  }
  const functions: ComputedAttributeFunctions = options.plain
    ? { get }
    : (options.functions ?? {
        get,
        set(value, event) {
          log.set.push({ self: this, value, event })
          const [firstName, lastName] = split(value)
          return { firstName, lastName }
        },
        query(event) {
          log.query.push(event)
          return fullNameQuery(event)
        },
        orderBy(event) {
          log.orderBy.push(event)
          return event.descending ? 'firstName desc, lastName desc' : 'firstName, lastName'
        },
      })
  const ds = createDatastore(COMPUTED_MODEL, {
    data: COMPUTED_DATA,
    clock: new ManualClock(Date.UTC(2026, 0, 2)),
    calculated: { Employee: { fullName: functions } },
  })
  return { ds, log }
}
