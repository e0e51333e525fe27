/**
 * @module For tests: employees and companies whose computed attributes have steps beside their
 * getter, as a 4D project's have (`getSteps`): a call in steps stops as many times as its row says
 * (`stops`), then gives what `get` gives. And a read run in a scope whose slices end at every
 * step, counting the slices that ended inside a getter call.
 */
import { DatastoreError } from '../../errors/datastore-error.js'
import { createDatastore, type Datastore } from './datastore.js'
import type { ComputedAttributeFunctions, EntityView } from '../../schema/definitions.js'
import type { ModelJson } from '../../schema/model-json.js'

const MODEL: ModelJson = {
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'level', type: 'long' },
        { name: 'stops', type: 'long' },
        { name: 'staff', kind: 'relatedEntities', path: 'employer' },
        { name: 'rank', kind: 'calculated', type: 'number' },
      ],
    },
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long', indexed: true },
        { name: 'n', type: 'long' },
        { name: 'stops', type: 'long' },
        { name: 'employer', kind: 'relatedEntity', path: 'Company' },
        { name: 'score', kind: 'calculated', type: 'number' },
        { name: 'tag', kind: 'calculated', type: 'string' },
        { name: 'employerRank', kind: 'alias', path: 'employer.rank' },
      ],
    },
  ],
}

export interface Employee {
  readonly n: number
  readonly stops: number
  /** The company's index in `companies`, or null. */
  readonly employer: number | null
}

export interface Company {
  readonly level: number
  readonly stops: number
}

/** The getters' calls: plain ones, calls in steps begun, and those begun and not yet ended. */
export interface GetterCounts {
  plain: number
  stepped: number
  inside: number
}

// A getter's call in steps: its row's `stops` stops, then its value. One generator function for
// every call (a generator function made at each call makes its prototype each time: 10 µs).
function* valueInSteps(
  e: EntityView,
  value: (e: EntityView) => unknown,
  counts: GetterCounts,
): Generator<void, unknown, void> {
  counts.stepped++
  counts.inside++
  try {
    for (let i = 0; i < (e.get('stops') as number); i++) yield
    return value(e)
  } finally {
    counts.inside--
  }
}

/**
 * A datastore of `employees` (ID 1, 2, …) and `companies` (ID 1, 2, …) whose getters are
 * `Employee.score` ((n * 7) % 11), `Employee.tag` ("T" and n % 4) and `Company.rank` (level % 5),
 * each with steps that stop the row's `stops` times; `fail` makes a getter throw for n = 13.
 */
export function getterStore(
  employees: readonly Employee[],
  companies: readonly Company[],
  options: { readonly fail?: boolean } = {},
): { ds: Datastore; counts: GetterCounts } {
  const counts: GetterCounts = { plain: 0, stepped: 0, inside: 0 }
  const withSteps = (value: (e: EntityView) => unknown): ComputedAttributeFunctions => ({
    get(e) {
      counts.plain++
      return value(e)
    },
    getSteps(e) {
      return valueInSteps(e, value, counts)
    },
  })
  const n = (e: EntityView): number => {
    const v = e.get('n') as number
    if (options.fail && v === 13) throw new Error('unlucky 13')
    return v
  }
  const ds = createDatastore(MODEL, {
    data: {
      Company: companies.map((c, i) => ({ ID: i + 1, ...c })),
      Employee: employees.map((e, i) => ({
        ID: i + 1,
        n: e.n,
        stops: e.stops,
        employer: e.employer === null ? null : e.employer + 1,
      })),
    },
    calculated: {
      Employee: {
        score: withSteps((e) => (n(e) * 7) % 11),
        tag: withSteps((e) => `T${n(e) % 4}`),
      },
      Company: { rank: withSteps((e) => (e.get('level') as number) % 5) },
    },
  })
  return { ds, counts }
}

/**
 * `read` run as a REST request runs it, in a scope whose slices end at every step: its value, and
 * how many slices ended inside a getter call in steps.
 */
export function inSlices<T>(
  ds: Datastore,
  counts: GetterCounts,
  read: () => T,
  between: () => void = () => {},
): { value: T; stopsInside: number } {
  const scope = ds.sliceScope(() => true)
  let stopsInside = 0
  for (;;) {
    try {
      const value = scope.run(read)
      scope.close()
      return { value, stopsInside }
    } catch (error) {
      if (!(DatastoreError.is(error) && error.name === 'QuerySuspended')) throw error
      do {
        if (counts.inside > 0) stopsInside++
        between()
      } while (scope.drive() !== true)
    }
  }
}
