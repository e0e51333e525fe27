/**
 * @module For the tests of large replies: the company demo, and the request of issue 28 that made
 * it write gigabytes, `$attributes=staff.employer.staff…ID`, whose reply multiplies by about 15
 * at each to-many level (each company has about 15 staff, each employee one employer).
 */
import { createDatastore, ManualClock, type Clock, type Datastore } from '@entistore/core'
import { DATA, MODEL } from '../node/company-rest.fixture.js'

/** A fresh company datastore (24 companies, 360 employees). */
export function companyDatastore(clock: Clock = new ManualClock(Date.UTC(2024, 0, 1))): Datastore {
  return createDatastore(MODEL, { data: structuredClone(DATA), clock })
}

/**
 * The company demo with `employees` employees, the demo's own repeated (no managers), spread
 * over its 24 companies in turn: past 2,400 each company's `staff` fills a page of 100.
 */
export function scaledCompany(employees: number): Datastore {
  const own = DATA.Employee as Record<string, unknown>[]
  const Employee = Array.from({ length: employees }, (_, i) => ({
    ...own[i % own.length],
    ID: i + 1,
    employerID: (i % 24) + 1,
    manager: null,
  }))
  return createDatastore(MODEL, {
    data: { ...structuredClone(DATA), Employee },
    clock: new ManualClock(Date.UTC(2024, 0, 1)),
  })
}

/** `staff.employer.staff…ID` with `levels` to-many steps. */
export const chain = (levels: number): string =>
  `${Array.from({ length: levels }, () => 'staff').join('.employer.')}.ID`
