/**
 * Issue 61, break 3: computed attributes were a side door. A query was checked on the names in
 * the client's text, never on what its binding finally read (a computed attribute's `query` or
 * `orderBy` function's answer), and a write on the names given, never on what a `set` function
 * assigned. Each attack here succeeded before the fix, on the hostile application
 * (hostile-app.fixture.ts, `Employee.salary` readable by `pricing` only) given computed
 * attributes as its developer would write them.
 */
import {
  createDatastore,
  currentSession,
  ManualClock,
  type ComputedAttributeFunctions,
  type Datastore,
  type ModelJson,
  type RolesJson,
} from '@entistore/core'
import { describe, expect, it } from 'vitest'
import {
  HOSTILE_MODEL,
  HOSTILE_ROLES,
  hostileData,
  hostileFunctions,
  hostileRest,
  loggedIn,
  salaryOf,
  type Answer,
  type HostileClient,
} from './hostile-app.fixture.js'
import { clean, refused } from './hostile-checks.fixture.js'
import type { RestHandler } from '../handler.js'

/** The salary above which `band` is 'high' (the fixture's getter's). */
const HIGH = 7_110_000

// `band`: a getter, and a query, an order and a setter that all go through salary.
const band: ComputedAttributeFunctions = {
  get() {
    return (this.get('salary') as number) > HIGH ? 'high' : 'low'
  },
  query: ({ value }) => ({
    query: value === 'high' ? 'salary > :1' : 'salary <= :1',
    parameters: [HIGH],
  }),
  orderBy: ({ descending }) => (descending ? 'salary desc' : 'salary'),
  set: (value) => ({ salary: Number(value) }),
}

// `rank`: an order and a query whose answer depends on who asks (code outside any session, and
// `pricing`, rank by salary; anyone else by name and key).
const pricing = (): boolean => {
  const session = currentSession()
  return session === null || session.hasPrivilege('pricing')
}
const rank: ComputedAttributeFunctions = {
  get: () => null,
  query: ({ value }) => ({ query: pricing() ? 'salary > :1' : 'ID > :1', parameters: [value] }),
  orderBy: () => (pricing() ? 'salary desc' : 'lastName desc'),
}

// `level`: sorted by its getter (null for all: key order) for `pricing`, by name for anyone else.
const level: ComputedAttributeFunctions = {
  get: () => null,
  orderBy: () => (pricing() ? null : 'lastName desc'),
}

const MODEL: ModelJson = {
  ...HOSTILE_MODEL,
  dataClasses: HOSTILE_MODEL.dataClasses.map((dc) =>
    dc.name !== 'Employee'
      ? dc
      : {
          ...dc,
          attributes: [
            ...dc.attributes,
            // Written only: its setter writes salary.
            { name: 'payInput', kind: 'calculated', type: 'number' },
            { name: 'rank', kind: 'calculated', type: 'number' },
            { name: 'level', kind: 'calculated', type: 'number' },
          ],
        },
  ),
}

// The fixture's roles, with a salary only `pricing` may also create.
const ROLES: RolesJson = {
  ...HOSTILE_ROLES,
  permissions: {
    allowed: HOSTILE_ROLES.permissions!.allowed!.map((p) =>
      p.applyTo === 'Employee.salary' ? { ...p, create: ['pricing'] } : p,
    ),
  },
}

function sideDoorApp(): { ds: Datastore; rest: RestHandler } {
  const ds = createDatastore(MODEL, {
    data: hostileData(),
    clock: new ManualClock(Date.UTC(2026, 10, 25)),
    functions: hostileFunctions(),
    roles: ROLES,
    calculated: {
      Employee: { band, rank, level, payInput: { get: () => null, set: (v) => ({ salary: v }) } },
    },
  })
  return { ds, rest: hostileRest(ds) }
}

const message = (answer: Answer): string => answer.json?.__ERROR?.[0]?.message ?? ''

/** The session of a client logged in as `name`. */
async function sessionOf(app: { ds: Datastore; rest: RestHandler }, name: string) {
  const client: HostileClient = await loggedIn(app.rest, name)
  return app.ds.sessions.peek(client.cookie()!.split('=')[1]!)!
}

/** Employees 1 to 10 (company 1, ann's and ed's), by salary: 1 to 9 low, 10 high. */
const HIGH_IN_1 = [10]
const BY_SALARY_DESC = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
const BY_NAME_DESC = [9, 8, 7, 6, 5, 4, 3, 2, 10, 1]
const names = (ids: readonly number[]): string[] => ids.map((id) => `Last${id}`)

describe('a query is checked on what it finally reads (issue 61, break 3)', () => {
  it('a filter on a computed attribute whose query reads salary is refused as salary is', async () => {
    const { rest } = sideDoorApp()
    const ann = await loggedIn(rest, 'ann')
    refused(clean(await ann('/rest/Employee?$filter="salary>7110000"'), 'ann'), 403, 1607)
    const side = clean(await ann(`/rest/Employee?$filter="band='high'"&$top=0`), 'ann')
    refused(side, 403, 1607)
    // It names the attribute read, and the function whose answer read it.
    expect(message(side)).toMatch(/salary/)
    expect(message(side)).toMatch(/the query function of Employee\.band/)
    // Through a relation, a placeholder's path, an entity set's remake: the same.
    refused(await ann(`/rest/Company?$filter="staff.band='high'"`), 403, 1607)
    refused(await ann(`/rest/Employee?$filter=":1='high'"&$params='["band"]'`), 403, 1607)
    // Who reads salary gets the answer.
    const paula = await loggedIn(rest, 'paula')
    const found = await paula(`/rest/Employee?$filter="band='high'"&$attributes=ID`)
    expect(found.status).toBe(200)
    expect(found.json.__ENTITIES.map((e: { ID: number }) => e.ID)).toEqual(HIGH_IN_1)
  })

  it('an order on a computed attribute whose orderBy reads salary is refused as salary is', async () => {
    const { rest } = sideDoorApp()
    const ann = await loggedIn(rest, 'ann')
    refused(clean(await ann('/rest/Employee?$orderby="salary desc"'), 'ann'), 403, 1607)
    const side = clean(await ann('/rest/Employee?$orderby="band desc"&$attributes=ID'), 'ann')
    refused(side, 403, 1607)
    expect(message(side)).toMatch(/the orderBy function of Employee\.band/)
    // Ordering what a relation leads to, or a selection's members, asks the same.
    refused(await ann('/rest/Company(1)/staff?$orderby="band desc"'), 403, 1607)
    refused(await ann('/rest/Employee?$orderby="manager.band desc"'), 403, 1607)
    const paula = await loggedIn(rest, 'paula')
    const ordered = await paula('/rest/Employee?$orderby="band desc"&$attributes=ID')
    expect(ordered.json.__ENTITIES.map((e: { ID: number }) => e.ID)).toEqual(BY_SALARY_DESC)
  })

  it('$queryplan and $querypath do not print the rewrite to who may not read it', async () => {
    const { rest } = sideDoorApp()
    const ann = await loggedIn(rest, 'ann')
    for (const asked of ['$queryplan=true', '$querypath=true']) {
      const answer = clean(await ann(`/rest/Employee?$filter="band='high'"&${asked}`), 'ann')
      refused(answer, 403, 1607)
      expect(answer.text).not.toMatch(/7110000|salary >/)
    }
  })

  it('a delete by a filter is refused on what the filter reads: nothing is dropped', async () => {
    const { ds, rest } = sideDoorApp()
    const ed = await loggedIn(rest, 'ed')
    const before = ds.dataClass('Employee').length
    const answer = await ed(`/rest/Employee?$method=delete&$filter="band='high'"`, {})
    refused(clean(answer, 'ed'), 403, 1607)
    expect(ds.dataClass('Employee').length).toBe(before)
  })

  it('a live feed with such a filter is refused before it streams', async () => {
    const { ds, rest } = sideDoorApp()
    const ann = await loggedIn(rest, 'ann')
    const res = await rest.request(`/rest/Employee/$changes?$filter="band='high'"`, {
      headers: { cookie: ann.cookie()! },
    })
    if (res.status === 200) await res.body?.cancel()
    expect(res.status).toBe(403)
    expect(((await res.json()) as Answer['json']).__ERROR[0].errCode).toBe(1607)
    expect(ds.changeFeed.size).toBe(0)
    // The same from TypeScript, subscribed as ann's session.
    const session = ds.sessions.peek(ann.cookie()!.split('=')[1]!)!
    expect(() =>
      ds.changes({ dataClasses: ['Employee'], filter: "band = 'high'", session }),
    ).toThrow(/salary/)
  })

  it('ORDA code run as a session is held to the same: query, prepared lookup, order', async () => {
    const app = sideDoorApp()
    const { ds } = app
    const session = await sessionOf(app, 'ann')
    const E = ds.dataClass('Employee')
    const as = <T>(fn: () => T): T => ds.actAs(session, fn)
    expect(() => as(() => E.query("band = 'high'"))).toThrow(/salary/)
    // `lastName in :1` is answered by the index, its order kept from when it was prepared.
    expect(() =>
      as(() => E.query('lastName in :1 order by band desc', names(BY_NAME_DESC))),
    ).toThrow(/salary/)
    expect(() => as(() => E.all().orderBy('band desc'))).toThrow(/salary/)
    expect(() => as(() => E.prepare("band = 'low'").select())).toThrow(/salary/)
  })
})

describe('an expansion that depends on who asks is never served to another', () => {
  const ids = (run: () => { toArray(): { get(n: string): unknown }[] }): number[] =>
    run()
      .toArray()
      .map((e) => e.get('ID') as number)

  it('a prepared query kept by its text orders as each session’s own orderBy answer', async () => {
    const app = sideDoorApp()
    const { ds } = app
    const E = ds.dataClass('Employee')
    const paula = await sessionOf(app, 'paula')
    const ann = await sessionOf(app, 'ann')
    const text = 'lastName in :1 order by rank'
    const all = names(BY_NAME_DESC)
    expect(ids(() => ds.actAs(paula, () => E.query(text, all)))).toEqual(BY_SALARY_DESC)
    // The same text again, now kept prepared: ann's own answer, by name.
    expect(ids(() => ds.actAs(ann, () => E.query(text, all)))).toEqual(BY_NAME_DESC)
    expect(ids(() => ds.actAs(paula, () => E.query(text, all)))).toEqual(BY_SALARY_DESC)
    // A function that answered null (the getter's sort) for the first is asked again for the next.
    const byLevel = 'lastName in :1 order by level'
    expect(ids(() => ds.actAs(paula, () => E.query(byLevel, all)))).toEqual(
      BY_SALARY_DESC.toReversed(),
    )
    expect(ids(() => ds.actAs(ann, () => E.query(byLevel, all)))).toEqual(BY_NAME_DESC)
  })

  it('a feed filter is bound as its subscriber, not as the code that subscribed it', async () => {
    const app = sideDoorApp()
    const { ds } = app
    const session = await sessionOf(app, 'ann')
    // Outside any session, rank's query reads salary; as ann, the key.
    const sub = ds.changes({
      dataClasses: ['Employee'],
      filter: 'rank > 5',
      attributes: ['ID'],
      session,
    })
    ds.dataClass('Employee').update(3, { firstName: 'Three' })
    ds.dataClass('Employee').update(7, { firstName: 'Seven' })
    const first = await sub.next()
    expect(first.value).toMatchObject({ type: 'deleted', key: 3, left: true })
    const second = await sub.next()
    expect(second.value).toMatchObject({ type: 'updated', key: 7 })
    sub.close()
  })
})

describe('a write is checked on what it finally stores (issue 61, break 3)', () => {
  it('a setter does not write salary for an editor who may not', async () => {
    const { ds, rest } = sideDoorApp()
    const ed = await loggedIn(rest, 'ed')
    const E = ds.dataClass('Employee')
    refused(await ed('/rest/Employee?$method=update', { __KEY: '10', salary: 1 }), 403, 1608)
    const side = clean(
      await ed('/rest/Employee?$method=update', { __KEY: '10', payInput: 1 }),
      'ed',
    )
    refused(side, 403, 1608)
    expect(message(side)).toMatch(/salary/)
    expect(message(side)).toMatch(/the set function of Employee\.payInput/)
    expect(E.get(10)!.get('salary')).toBe(salaryOf(10))
    // Through a function given the entity: the same.
    const given = await ed('/rest/Employee/saveGiven', [
      { __DATACLASS: 'Employee', __ENTITY: true, __KEY: 10, payInput: 2 },
    ])
    refused(clean(given, 'ed'), 403, 1608)
    expect(E.get(10)!.get('salary')).toBe(salaryOf(10))
    // Who may write salary writes it through the setter.
    const paula = await loggedIn(rest, 'paula')
    const ok = await paula('/rest/Employee?$method=update', { __KEY: '10', payInput: 5 })
    expect(ok.status).toBe(200)
    expect(E.get(10)!.get('salary')).toBe(5)
  })

  it('a create through a setter does not store a salary the creator may not give', async () => {
    const { ds, rest } = sideDoorApp()
    const ed = await loggedIn(rest, 'ed')
    const E = ds.dataClass('Employee')
    const before = E.length
    const create = (values: Record<string, unknown>) =>
      ed('/rest/Employee?$method=update', { lastName: 'Mole', employer: 1, ...values })
    refused(await create({ salary: 777777 }), 403, 1608)
    refused(clean(await create({ band: '777777' }), 'ed'), 403, 1608)
    expect(E.length).toBe(before)
    expect(E.query('salary = 777777').length).toBe(0)
    // Without the value, the same create goes through.
    expect((await create({})).status).toBe(200)
    expect(E.length).toBe(before + 1)
  })

  it('ORDA writes by a session, with or without entity events, ask the same', async () => {
    const app = sideDoorApp()
    const { ds } = app
    const session = await sessionOf(app, 'ed')
    const E = ds.dataClass('Employee')
    expect(() => ds.actAs(session, () => E.update(2, { payInput: 3 }))).toThrow(/salary/)
    expect(() => ds.actAs(session, () => E.get(2)!.edit({ payInput: 3 }).saveOrFail())).toThrow(
      /salary/,
    )
    expect(() => ds.actAs(session, () => E.create({ lastName: 'X', band: '9' }))).toThrow(/salary/)
    expect(E.get(2)!.get('salary')).toBe(salaryOf(2))
    // Outside any session: full rights.
    E.update(2, { payInput: 3 })
    expect(E.get(2)!.get('salary')).toBe(3)
  })
})
