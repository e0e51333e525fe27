// The data of 4D's DataStore class page examples (developer.4d.com, API/DataStoreClass, 4D 21 R4):
// persons (a Peters renamed Smith in a transaction), employees and their companies. The model is a
// JSON literal kept `as const`, so the datastore is typed by it.
import { ManualClock } from '../../clock/clock.js'
import type { ModelJson } from '../../schema/model-json.js'
import type { Session } from '../../sessions/session-api.js'
import { createDatastore } from './datastore.js'

export const storeModel = {
  __NAME: 'company',
  dataClasses: [
    {
      name: 'Persons',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'firstname', type: 'string' },
        { name: 'lastname', type: 'string', indexed: true },
      ],
    },
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string' },
        { name: 'staff', kind: 'relatedEntities', path: 'employer' },
      ],
    },
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'lastName', type: 'string' },
        { name: 'salary', type: 'number', indexed: true },
        { name: 'email', type: 'string', unique: true },
        { name: 'employer', kind: 'relatedEntity', path: 'Company' },
      ],
    },
  ],
} as const satisfies ModelJson

export const storeData = () => ({
  Persons: [
    { ID: 1, firstname: 'Mary', lastname: 'Peters' },
    { ID: 2, firstname: 'John', lastname: 'Doe' },
  ],
  Company: [
    { ID: 1, name: 'Acme' },
    { ID: 2, name: 'Globex' },
  ],
  Employee: [
    { ID: 1, lastName: 'Lovelace', salary: 5000, email: 'ada@acme', employer: 1 },
    { ID: 2, lastName: 'Turing', salary: 6000, email: 'alan@acme', employer: 1 },
    { ID: 3, lastName: 'Hopper', salary: 7000, email: 'grace@globex', employer: 2 },
  ],
})

/** A fresh typed datastore of the page's data, on a manual clock. */
export const storeFixture = () => {
  const clock = new ManualClock(Date.UTC(2026, 0, 5, 9))
  const ds = createDatastore(storeModel, { data: storeData(), clock })
  return { ds, clock }
}

/** A new session of `ds`: what `ds.actAs` runs a process of its own as (a request would). */
export const sessionOf = (ds: { readonly sessions: { open(): Session } }): Session =>
  ds.sessions.open()

/** A promise and the function that resolves it: where a process's code waits for the test. */
export function gate(): { readonly wait: Promise<void>; readonly open: () => void } {
  let open!: () => void
  const wait = new Promise<void>((resolve) => (open = resolve))
  return { wait, open }
}
