/**
 * Issue 46: privileges all the way down, attacked through the hostile application
 * (hostile-app.fixture.ts) as a 4D developer would: function code runs as its caller (item 1),
 * `restrict` holds wherever a relation leads in what a reply writes (item 2), a creation needs
 * `create`, not `update` (item 4), and no answer depends on what the caller may not read (item 5).
 * Each attack here succeeded before the fix; the canaries (`leakedCanaries`) are the values a user
 * must never see, looked for in every reply.
 */
import {
  createDatastore,
  currentCall,
  defineFunctions,
  ManualClock,
  type ModelJson,
} from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { createRestHandler } from '../handler.js'
import {
  hostileApp,
  loggedIn,
  salaryOf,
  ssnOf,
  type Answer,
  type HostileClient,
} from './hostile-app.fixture.js'
import { clean, refused } from './hostile-checks.fixture.js'

const sum = (ids: readonly number[]): number => ids.reduce((t, id) => t + salaryOf(id), 0)
const COMPANY_1 = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]

describe('function code runs as its caller (item 1)', () => {
  it('a function without promote cannot read a dataclass the caller may not read', async () => {
    const { rest } = hostileApp()
    const ann = await loggedIn(rest, 'ann')
    refused(clean(await ann('/rest/Employee/leakSecrets', []), 'ann'), 403, 1557)
  })

  it('a selection function cannot sum an attribute the caller may not read', async () => {
    const { rest } = hostileApp()
    const ann = await loggedIn(rest, 'ann')
    refused(clean(await ann('/rest/Employee/totalSalary?$filter="ID=5"', []), 'ann'), 403, 1607)
  })

  it('promote gives its privileges to its function, for that call only', async () => {
    const { rest } = hostileApp()
    const ann = await loggedIn(rest, 'ann')
    refused(await ann('/rest/Employee/payrollUnpromoted', []), 403, 1607)
    // Promoted with `pricing`: the sum of what ann's restrict lets her see (company 1).
    const promoted = await ann('/rest/Employee/payroll', [])
    expect(promoted.status).toBe(200)
    expect(promoted.json.result).toBeCloseTo(sum(COMPANY_1), 2)
    // The next request is ann's own again.
    refused(await ann('/rest/Employee?$filter="salary>0"'), 403, 1607)
  })

  it('an async promoted function keeps its promotion after its await, and no interleaved request sees it', async () => {
    const { rest } = hostileApp()
    const ann = await loggedIn(rest, 'ann')
    const eve = await loggedIn(rest, 'eve')
    // The promoted call awaits a turn of the event loop; meanwhile the same session and another
    // one ask for salaries.
    const later = ann('/rest/Employee/payrollLater', [])
    const meanwhile = await Promise.all([
      ann('/rest/Employee/payrollUnpromoted', []),
      ann('/rest/Employee?$filter="salary>0"'),
      eve('/rest/Employee/totalSalary', []),
      eve('/rest/Employee?$orderby=salary'),
    ])
    for (const answer of meanwhile) expect(answer.status).toBe(403)
    const answer = await later
    expect(answer.status).toBe(200)
    expect(answer.json.result).toBeCloseTo(sum(COMPANY_1), 2)
  })

  it('promotions never leak across 300 rounds of interleaved requests of several sessions', async () => {
    const { rest } = hostileApp()
    type Four = [HostileClient, HostileClient, HostileClient, HostileClient]
    const [ann1, ann2, eve, paula] = (await Promise.all(
      ['ann', 'ann', 'eve', 'paula'].map((n) => loggedIn(rest, n)),
    )) as Four
    const eveTotal = sum([11, 12, 13, 14, 15, 16, 17, 18, 19, 20])
    for (let round = 0; round < 300; round++) {
      // Promoted calls awaiting a turn, interleaved with unpromoted reads of the same sessions,
      // of another user, and a session whose own privileges read salaries.
      const answers = await Promise.all([
        ann1('/rest/Employee/payrollLater', []),
        eve('/rest/Employee/payrollLater', []),
        ann2('/rest/Employee?$filter="salary>0"'),
        ann1('/rest/Employee/payrollUnpromoted', []),
        eve('/rest/Employee(15)?$attributes=salary'),
        paula('/rest/Employee/payrollUnpromoted', []),
      ])
      const [a1, e1, a2, a3, e2, p1] = answers
      expect(a1.json.result).toBeCloseTo(sum(COMPANY_1), 2)
      expect(e1.json.result).toBeCloseTo(eveTotal, 2)
      expect([a2.status, a3.status, e2.status]).toEqual([403, 403, 403])
      expect(p1.json.result).toBeCloseTo(sum(COMPANY_1), 2)
    }
  })

  it('an entity function cannot save an attribute the caller may not write', async () => {
    const { rest, ds } = hostileApp()
    const ed = await loggedIn(rest, 'ed')
    const answer = clean(await ed('/rest/Employee(3)/giveRaise', [1000]), 'ed')
    expect(answer.status).toBe(403)
    expect(ds.dataClass('Employee').get(3)!.get('salary')).toBe(salaryOf(3))
  })

  it('an entity given to a function is saved with the caller’s rights, within its restrict', async () => {
    const { rest, ds } = hostileApp()
    const ed = await loggedIn(rest, 'ed')
    const pwn = (key: number, values: Record<string, unknown>) =>
      ed('/rest/Employee/saveGiven', [
        { __DATACLASS: 'Employee', __ENTITY: true, __KEY: key, ...values },
      ])
    // ssn: only admin writes it.
    refused(clean(await pwn(5, { ssn: 'pwned' }), 'ed'), 403, 1608)
    expect(ds.dataClass('Employee').get(5)!.get('ssn')).toBe(ssnOf(5))
    // Employee 25 is company 3's: as if it did not exist.
    refused(clean(await pwn(25, { lastName: 'pwned' }), 'ed'), 404, 1542)
    expect(ds.dataClass('Employee').get(25)!.get('lastName')).toBe('Last25')
    // What ed may write goes through.
    expect((await pwn(5, { lastName: 'Renamed' })).json.result).toBe(true)
    expect(ds.dataClass('Employee').get(5)!.get('lastName')).toBe('Renamed')
  })

  it('a function cannot create an entity related to one the caller’s restrict hides', async () => {
    const { rest, ds } = hostileApp()
    const ed = await loggedIn(rest, 'ed')
    const before = ds.dataClass('Employee').length
    const hidden = clean(await ed('/rest/Employee/hire', [2, 'Mole']), 'ed')
    // Refused as a company that does not exist is.
    const missing = await ed('/rest/Employee/hire', [99, 'Mole'])
    refused(hidden, 400, 1570)
    expect(hidden.text.replaceAll('2', '99')).toBe(missing.text)
    expect(ds.dataClass('Employee').length).toBe(before)
    expect((await ed('/rest/Employee/hire', [1, 'Hired'])).status).toBe(200)
    expect(ds.dataClass('Employee').length).toBe(before + 1)
  })

  it('an entity event reads as the caller', async () => {
    const { rest, ds } = hostileApp()
    const carl = await loggedIn(rest, 'carl')
    const before = ds.dataClass('Project').length
    // Project's validateSave counts the secrets when the title is "peek": carl may not.
    refused(clean(await carl('/rest/Project?$method=update', { title: 'peek' }), 'carl'), 403, 1557)
    expect(ds.dataClass('Project').length).toBe(before)
    const root = await loggedIn(rest, 'root')
    const answer = await root('/rest/Project?$method=update', { title: 'peek', companyID: 1 })
    expect(answer.errCode).toBe(4602)
  })

  it('a computed attribute’s code reads as the caller: left out where it may not read', async () => {
    const { rest } = hostileApp()
    const ann = await loggedIn(rest, 'ann')
    const paula = await loggedIn(rest, 'paula')
    const one = clean(await ann('/rest/Employee(5)'), 'ann')
    expect(one.status).toBe(200)
    expect(one.json).not.toHaveProperty('band')
    expect(one.json.lastName).toBe('Last5')
    expect((await paula('/rest/Employee(5)')).json.band).toBe('low')
    // Named, its code is refused.
    refused(await ann('/rest/Employee/band?$distinct=true'), 403, 1607)
  })

  it('code outside any request keeps full rights; ds.actAs runs it as a session', async () => {
    const { ds, rest } = hostileApp()
    const ann = await loggedIn(rest, 'ann')
    const session = ds.sessions.peek(ann.cookie()!.split('=')[1]!)!
    expect(ds.dataClass('Secret').all().length).toBe(3)
    expect(() => ds.actAs(session, () => ds.dataClass('Secret').all())).toThrow(
      /No permission to read for the Secret dataclass/,
    )
    expect(ds.actAs(session, () => ds.dataClass('Employee').all().length)).toBe(10)
    expect(() => ds.actAs(session, () => ds.dataClass('Employee').get(1)!.get('salary'))).toThrow(
      /salary/,
    )
    // An await inside keeps the session; code after actAs is back to full rights.
    await expect(
      ds.actAs(session, async () => {
        await new Promise((resolve) => setImmediate(resolve))
        return ds.dataClass('Secret').all()
      }),
    ).rejects.toThrow(/Secret/)
    expect(ds.dataClass('Employee').length).toBe(30)
  })
})

describe('restrict wherever a relation leads, in what a reply writes (item 2)', () => {
  it('$attributes, $expand and deferred keys never show an entity the session may not see', async () => {
    const { rest } = hostileApp()
    const ann = await loggedIn(rest, 'ann')
    // Employee 3 (company 1) is managed by employee 12 (company 2).
    const projected = clean(await ann('/rest/Employee(3)?$attributes=manager.*'), 'ann')
    expect(projected.json.manager).toBeNull()
    const expanded = clean(await ann('/rest/Employee(3)?$expand=manager'), 'ann')
    expect(expanded.json.manager).toBeNull()
    expect(clean(await ann('/rest/Employee(3)'), 'ann').json.manager).toBeNull()
    // Employee 1 manages 2 and 4…10 and, across companies, 12.
    const reports = clean(await ann('/rest/Employee(1)?$attributes=reports.*'), 'ann')
    expect(reports.json.reports.__COUNT).toBe(8)
    expect(clean(await ann('/rest/Employee(1)/reports'), 'ann').json.__COUNT).toBe(8)
    const staff = clean(await ann('/rest/Company(1)?$attributes=staff.lastName'), 'ann')
    expect(staff.json.staff.__COUNT).toBe(10)
  })

  it('a selection read writes each related entity the session may see, and no other', async () => {
    const { rest } = hostileApp()
    const ann = await loggedIn(rest, 'ann')
    const read = clean(await ann('/rest/Employee?$top=100'), 'ann')
    expect(read.json.__COUNT).toBe(10)
    const byKey = new Map(read.json.__ENTITIES.map((e: any) => [e.__KEY, e]))
    // Her own company is written (the reply is written as her session, to its last piece).
    expect((byKey.get('1') as any).employer.__deferred.__KEY).toBe('1')
    expect((byKey.get('3') as any).manager).toBeNull()
    expect((byKey.get('4') as any).manager.__deferred.__KEY).toBe('1')
  })

  it('the pieces of a long reply written after the request returned are written as its session', async () => {
    // 3,000 employees of one visible company, written in many pieces, each with its company.
    const model: ModelJson = {
      dataClasses: [
        {
          name: 'Company',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'name', type: 'string' },
          ],
        },
        {
          name: 'Employee',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'lastName', type: 'string' },
            { name: 'employerID', type: 'long' },
            { name: 'employer', kind: 'relatedEntity', path: 'Company', foreignKey: 'employerID' },
          ],
        },
      ],
    }
    const restricted = createDatastore(model, {
      clock: new ManualClock(0),
      data: {
        Company: [
          { ID: 1, name: 'Seen' },
          { ID: 2, name: 'Hidden' },
        ],
        Employee: Array.from({ length: 3000 }, (_, i) => ({
          ID: i + 1,
          lastName: `Name-${'x'.repeat(40)}-${i}`,
          employerID: (i % 2) + 1,
        })),
      },
      functions: defineFunctions({
        dataClasses: {
          Company: {
            restrict({ session }) {
              return session ? this.query('ID = 1') : null
            },
          },
        },
      }),
    })
    const rest = createRestHandler(restricted)
    const reply = rest.respond({
      method: 'GET',
      path: '/rest/Employee',
      query: '$top=3000',
      headers: {},
    })
    if (reply instanceof Promise) throw new Error('expected a synchronous reply')
    // The transport asks for the pieces after respond() returned, outside any request.
    const body = reply.body as Iterable<string>
    expect(typeof body).not.toBe('string')
    const pieces = [...body]
    expect(pieces.length).toBeGreaterThan(2)
    const json = JSON.parse(pieces.join(''))
    const employers = json.__ENTITIES.map((e: any) => e.employer?.__deferred?.__KEY ?? null)
    expect(employers.filter((k: string | null) => k === '2')).toEqual([])
    expect(employers.filter((k: string | null) => k === '1')).toHaveLength(1500)
    // The last piece too.
    expect(pieces.at(-1)).not.toContain('Company[2]')
  })
})

describe('a creation needs create, not update (item 4)', () => {
  it('a user with only create on Project creates one with a title', async () => {
    const { rest, ds } = hostileApp()
    const carl = await loggedIn(rest, 'carl')
    const answer = clean(await carl('/rest/Project?$method=update', { title: 'Mine' }), 'carl')
    expect(answer.status).toBe(200)
    expect(answer.json.__STATUS).toEqual({ success: true })
    expect(
      ds
        .dataClass('Project')
        .all()
        .toArray()
        .map((p) => p.get('title')),
    ).toContain('Mine')
    // Without read, the reply shows no attribute, and a read is refused.
    expect(answer.json).not.toHaveProperty('title')
    refused(await carl(`/rest/Project(${answer.json.__KEY})`), 403, 1557)
    // Nor may carl update it.
    refused(
      await carl('/rest/Project?$method=update', { __KEY: answer.json.__KEY, title: 'X' }),
      403,
      1558,
    )
    // Nor name a Company, which carl may not read: whether company 2 exists is not carl's to learn.
    refused(await carl('/rest/Project?$method=update', { title: 'X', companyID: 2 }), 403, 1557)
  })

  it('update does not give create', async () => {
    const { rest } = hostileApp()
    const uma = await loggedIn(rest, 'uma')
    refused(await uma('/rest/Project?$method=update', { title: 'New' }), 403, 1559)
  })
})

describe('authentify runs as the guest calling it', () => {
  // A datastore closed to guests; the users' dataclass readable by `userReader` only.
  const model: ModelJson = {
    dataClasses: [
      {
        name: 'Users',
        attributes: [
          { name: 'ID', type: 'long' },
          { name: 'name', type: 'string' },
          { name: 'password', type: 'string' },
        ],
      },
    ],
  }
  const setup = (promote: boolean) => {
    const ds = createDatastore(model, {
      clock: new ManualClock(0),
      data: { Users: [{ ID: 1, name: 'ada', password: 'secret' }] },
      roles: {
        privileges: [
          { privilege: 'userReader', includes: [] },
          { privilege: 'member', includes: [] },
        ],
        permissions: {
          allowed: [
            { applyTo: 'ds', type: 'datastore', read: ['member'] },
            { applyTo: 'Users', type: 'dataclass', read: ['userReader'] },
            ...(promote
              ? [{ applyTo: 'ds.authentify', type: 'method' as const, promote: ['userReader'] }]
              : []),
          ],
        },
        restrictedByDefault: true,
        forceLogin: true,
      },
      functions: defineFunctions({
        dataStore: {
          authentify: {
            exposed: true,
            params: ['object'],
            call(who: { name: string; password: string }) {
              const user = this.dataClass('Users').query('name = :1', who.name).at(0)
              if (!user || user.get('password') !== who.password) return false
              currentCall()!.setPrivileges({ privileges: 'member', userName: who.name })
              return true
            },
          },
        },
      }),
    })
    return createRestHandler(ds)
  }
  const login = (rest: ReturnType<typeof setup>) =>
    rest.request('/rest/$catalog/authentify', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ name: 'ada', password: 'secret' }]),
    })

  it('reads the users only with a promote: without one, the guest is refused', async () => {
    const refused = await login(setup(false))
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as any).__ERROR[0].errCode).toBe(1557)
    const promoted = await login(setup(true))
    expect(promoted.status).toBe(200)
    expect(await promoted.json()).toEqual({ result: true })
  })
})

describe('no oracles (item 5)', () => {
  it('a write through an alias of an unreadable attribute answers the same for any guess', async () => {
    const { rest, ds } = hostileApp()
    const ed = await loggedIn(rest, 'ed')
    // Employee 5's manager is employee 1: managerSalary is salaryOf(1), which ed may not read.
    const right = await ed('/rest/Employee?$method=update', {
      __KEY: 5,
      managerSalary: salaryOf(1),
    })
    const wrong = await ed('/rest/Employee?$method=update', { __KEY: 5, managerSalary: 1 })
    clean(right, 'ed')
    expect(right.status).toBe(wrong.status)
    expect(right.status).toBeGreaterThanOrEqual(400)
    expect(right.text.replace(String(salaryOf(1)), '1')).toBe(wrong.text)
    // A batch of guesses tells nothing either.
    const guesses = [salaryOf(1) - 1, salaryOf(1), salaryOf(1) + 1].map((managerSalary) => ({
      __KEY: 5,
      managerSalary,
    }))
    const batch = await ed('/rest/Employee?$method=update', guesses)
    const statuses = batch.json.__ENTITIES.map((e: any) => JSON.stringify(e.__STATUS))
    expect(new Set(statuses).size).toBe(1)
    expect(ds.dataClass('Employee').get(5)!.getStamp()).toBe(1)
  })

  it('a creation answers the same whatever entity holds the key it names', async () => {
    const { rest, ds } = hostileApp()
    const paula = await loggedIn(rest, 'paula')
    const create = (ID: number) => paula('/rest/Employee?$method=update', { ID, lastName: 'New' })
    // 25: a hidden company's employee; 5: one paula sees; 99: nobody's.
    const answers = await Promise.all([create(25), create(5), create(99)])
    for (const a of answers) refused(clean(a, 'paula'), 400, 9139)
    expect(new Set(answers.map((a) => a.text.replace(/\d+/g, '#'))).size).toBe(1)
    expect(ds.dataClass('Employee').length).toBe(30)
    // Without a key, the creation goes through.
    expect((await paula('/rest/Employee?$method=update', { lastName: 'New' })).status).toBe(200)
  })

  it('an update or a drop by a hidden key answers as for a missing one', async () => {
    const { rest } = hostileApp()
    const ed = await loggedIn(rest, 'ed')
    const hidden = await ed('/rest/Employee?$method=update', { __KEY: 25, lastName: 'x' })
    const missing = await ed('/rest/Employee?$method=update', { __KEY: 99, lastName: 'x' })
    refused(hidden, 404, 1542)
    expect(hidden.text.replace('25', '99')).toBe(missing.text)
    const dropHidden = await ed('/rest/Employee(25)?$method=delete', {})
    const dropMissing = await ed('/rest/Employee(99)?$method=delete', {})
    expect(dropHidden.status).toBe(dropMissing.status)
    expect(dropHidden.text.replace('25', '99')).toBe(dropMissing.text)
  })

  it('a function reply that nests a selection of an unreadable dataclass is refused', async () => {
    const { rest } = hostileApp()
    const ann = await loggedIn(rest, 'ann')
    const answer = clean(await ann('/rest/$catalog/report', []), 'ann')
    refused(answer, 403, 1557)
    expect(answer.text).not.toContain('__KEY')
    const root = await loggedIn(rest, 'root')
    expect((await root('/rest/$catalog/report', [])).json.result.secrets.__COUNT).toBe(3)
  })

  it('$upload is taken only from a session that may write a picture or BLOB somewhere', async () => {
    const { rest } = hostileApp()
    const png = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10])
    const upload = (client: Awaited<ReturnType<typeof loggedIn>>) =>
      client('/rest/$upload?$rawPict=image/png', png, {
        headers: { 'content-type': 'application/octet-stream' },
      })
    refused(await upload(await loggedIn(rest)), 403, 1558)
    refused(await upload(await loggedIn(rest, 'ann')), 403, 1558)
    refused(await upload(await loggedIn(rest, 'carl')), 403, 1558)
    const ed = await upload(await loggedIn(rest, 'ed'))
    expect(ed.status).toBe(200)
    expect(typeof ed.json.ID).toBe('string')
  })
})
