/**
 * Issue 46, item 3: an entity set id is not a key to the whole server. A set belongs to the session
 * that made it and to its user; any session naming its id reads and writes through it with its own
 * privileges and `restrict`, only the owning user releases or remakes it, `$info` lists one's own
 * sets, and one session's creations count against its own quota. Each attack of the issue, over
 * REST, against the hostile application (ann: company 1, eve: company 2, paula: company 1 editor).
 */
import { createDatastore, type ModelJson } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { createRestHandler } from '../handler.js'
import {
  hostileApp,
  hostileClient,
  leakedCanaries,
  loggedIn,
  STAFF,
  type HostileClient,
} from './hostile-app.fixture.js'

/** Makes a set with `path` (a read with `$method=entityset`); its id, as clients take it. */
async function makeSet(client: HostileClient, path: string): Promise<string> {
  const answer = await client(path)
  expect(answer.status, answer.text).toBe(200)
  return String(answer.json.__ENTITYSET).split('/').at(-1)!
}

const COMPANY_1 = `/rest/Employee?$filter="employerID=1"&$method=entityset`

describe('an entity set read by another session', () => {
  it('shows only what the reader’s restrict lets through: the set, $compute, $distinct, $clean', async () => {
    const { rest } = hostileApp()
    const ann = await loggedIn(rest, 'ann')
    const eve = await loggedIn(rest, 'eve')
    const id = await makeSet(ann, COMPANY_1)
    expect((await ann(`/rest/Employee/$entityset/${id}`)).json.__COUNT).toBe(STAFF)
    for (const path of [
      `/rest/Employee/$entityset/${id}`,
      `/rest/Employee/$entityset/${id}?$clean=true`,
      `/rest/Employee/$entityset/${id}?$attributes=employerName,lastName`,
      `/rest/Employee/$entityset/${id}?$method=entityset`,
    ]) {
      const read = await eve(path)
      expect(read.status, path).toBe(200)
      expect(read.json.__COUNT, path).toBe(0)
      expect(leakedCanaries(read.text, 'eve'), path).toEqual([])
    }
    const count = await eve(`/rest/Employee/lastName/$entityset/${id}?$compute=count`)
    expect(count.json).toBe(0)
    const distinct = await eve(`/rest/Employee/lastName/$entityset/${id}?$distinct=true`)
    expect(distinct.json).toEqual([])
    // The owner still sees the whole set.
    const own = await ann(`/rest/Employee/lastName/$entityset/${id}?$distinct=true`)
    expect(own.json).toHaveLength(STAFF)
  })

  it('narrows both operands of $logicOperator', async () => {
    const { rest } = hostileApp()
    const ann = await loggedIn(rest, 'ann')
    const eve = await loggedIn(rest, 'eve')
    const annSet = await makeSet(ann, COMPANY_1)
    const eveSet = await makeSet(eve, '/rest/Employee?$method=entityset')
    for (const operator of ['OR', 'AND', 'EXCEPT']) {
      const read = await eve(
        `/rest/Employee/$entityset/${annSet}?$logicOperator=${operator}&$otherCollection=${eveSet}`,
      )
      expect(read.status, operator).toBe(200)
      expect(read.json.__COUNT, operator).toBe(operator === 'OR' ? STAFF : 0)
      expect(leakedCanaries(read.text, 'eve'), operator).toEqual([])
    }
    const or = await eve(
      `/rest/Employee/$entityset/${eveSet}?$logicOperator=OR&$otherCollection=${annSet}`,
    )
    expect(or.json.__COUNT).toBe(STAFF)
    const intersect = await eve(
      `/rest/Employee/$entityset/${eveSet}?$logicOperator=INTERSECT&$otherCollection=${annSet}`,
    )
    expect(intersect.text).toBe('false')
  })

  it('runs a selection function on the members the caller may see', async () => {
    const { rest } = hostileApp()
    // paula reads salaries (pricing) in company 1; eve's set holds company 2's employees.
    const eve = await loggedIn(rest, 'eve')
    const paula = await loggedIn(rest, 'paula')
    const eveSet = await makeSet(eve, '/rest/Employee?$method=entityset')
    const own = await makeSet(paula, '/rest/Employee?$filter="ID=-1"&$method=entityset')
    const nothing = await paula(`/rest/Employee/$entityset/${own}/totalSalary`, [])
    const through = await paula(`/rest/Employee/$entityset/${eveSet}/totalSalary`, [])
    expect(nothing.status, nothing.text).toBe(200)
    expect(through.status, through.text).toBe(200)
    expect(through.json).toEqual(nothing.json)
    expect(leakedCanaries(through.text, 'paula')).toEqual([])
  })
})

describe('an entity set made by another view (issue 61)', () => {
  it('is read only by a view that could have made it: an order by salary is not a ranking for ann', async () => {
    const { rest } = hostileApp()
    const paula = await loggedIn(rest, 'paula')
    const ann = await loggedIn(rest, 'ann')
    for (const made of [
      '/rest/Employee?$orderby="salary desc"&$method=entityset',
      '/rest/Employee?$filter="salary>7110000"&$method=entityset',
      '/rest/Company(1)/staff?$filter="yearly>1"&$method=entityset',
    ]) {
      const id = await makeSet(paula, made)
      // Her own read is as before.
      expect((await paula(`/rest/Employee/$entityset/${id}`)).status, made).toBe(200)
      for (const path of [
        `/rest/Employee/$entityset/${id}?$attributes=ID`,
        `/rest/Employee/ID/$entityset/${id}?$distinct=true`,
        `/rest/Employee/$entityset/${id}?$method=entityset`,
      ]) {
        const read = await ann(path)
        expect([read.status, read.errCode], `${made} then ${path}`).toEqual([403, 1607])
      }
    }
  })

  it('by a view that could have made it, as before: ann reads root’s set through her restrict', async () => {
    const { rest } = hostileApp()
    const root = await loggedIn(rest, 'root')
    const ann = await loggedIn(rest, 'ann')
    const id = await makeSet(root, '/rest/Employee?$orderby="lastName"&$method=entityset')
    const read = await ann(`/rest/Employee/$entityset/${id}`)
    expect(read.status).toBe(200)
    expect(read.json.__COUNT).toBe(STAFF)
  })

  it('needs only what its making was granted: a rule that could not run asked nothing of the reader', async () => {
    const model: ModelJson = {
      dataClasses: [
        {
          name: 'Tree',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'age', type: 'long' },
          ],
        },
      ],
    }
    const ds = createDatastore(model, {
      data: { Tree: [{ ID: 1, age: 120 }] },
      roles: {
        privileges: [{ privilege: 'botanist', includes: [] }],
        permissions: { allowed: [{ applyTo: 'Tree.age', type: 'attribute', read: ['botanist'] }] },
      },
      // Old trees only: a rule a guest cannot run (it reads the age), so Tree is closed to guests.
      functions: {
        dataClasses: {
          Tree: {
            restrict(this: any) {
              return this.query('age > 100')
            },
          },
        },
      },
    })
    // The maker a guest, the reader a user without the botanist privilege: two views.
    const rest = createRestHandler(ds, {
      authenticate: ({ user }) => (user === 'gus' ? { name: 'gus', privileges: [] } : null),
      loginThrottle: false,
    })
    const maker = hostileClient(rest)
    const reader = await loggedIn(rest, 'gus')
    const id = await makeSet(maker, '/rest/Tree?$method=entityset')
    const read = await reader(`/rest/Tree/$entityset/${id}`)
    expect([read.status, read.json?.__COUNT], read.text).toEqual([200, 0])
  })

  it('needs what a computed getter read to rank it: a set ordered by salary times twelve', async () => {
    const model: ModelJson = {
      dataClasses: [
        {
          name: 'Pay',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'salary', type: 'long' },
            { name: 'yearly', kind: 'calculated', type: 'long' },
          ],
        },
      ],
    }
    const ds = createDatastore(model, {
      data: { Pay: [1, 2, 3].map((ID) => ({ ID, salary: [5, 9, 1][ID - 1] })) },
      roles: {
        privileges: [{ privilege: 'pricing', includes: [] }],
        permissions: { allowed: [{ applyTo: 'Pay.salary', type: 'attribute', read: ['pricing'] }] },
      },
      functions: {
        dataClasses: {
          Pay: { computed: { yearly: { get: (e) => (e.get('salary') as number) * 12 } } },
        },
      },
    })
    const rest = createRestHandler(ds, {
      authenticate: ({ user }) =>
        user === 'pam' ? { name: 'pam', privileges: ['pricing'] } : { name: user, privileges: [] },
      loginThrottle: false,
    })
    const pam = await loggedIn(rest, 'pam')
    const gus = await loggedIn(rest, 'gus')
    expect((await gus('/rest/Pay?$orderby="yearly"')).errCode).toBe(1607)
    const id = await makeSet(pam, '/rest/Pay?$orderby="yearly"&$method=entityset')
    const read = await gus(`/rest/Pay/$entityset/${id}`)
    expect([read.status, read.errCode], read.text).toEqual([403, 1607])
  })

  it('one code made is read by its own view only (9064): another session of the same user reads it', async () => {
    const { rest } = hostileApp()
    const paula = await loggedIn(rest, 'paula')
    const paula2 = await loggedIn(rest, 'paula')
    const ann = await loggedIn(rest, 'ann')
    const made = await paula('/rest/Employee/managersOf?$method=entityset', [1])
    expect(made.status, made.text).toBe(200)
    const id = String(made.json.__ENTITYSET).split('/').at(-1)!
    expect((await paula2(`/rest/Employee/$entityset/${id}`)).status).toBe(200)
    const read = await ann(`/rest/Employee/$entityset/${id}`)
    expect([read.status, read.errCode]).toEqual([403, 9064])
  })
})

describe('a delete through another session’s set', () => {
  it('deletes only the members the deleter can see', async () => {
    const { ds, rest } = hostileApp()
    const eve = await loggedIn(rest, 'eve')
    const paula = await loggedIn(rest, 'paula')
    const root = await loggedIn(rest, 'root')
    const Employee = ds.dataClass('Employee')
    const total = Employee.length
    // eve's set is company 2's: paula (company 1) deletes through it and removes nothing.
    const eveSet = await makeSet(eve, '/rest/Employee?$method=entityset')
    const none = await paula(`/rest/Employee/$entityset/${eveSet}?$method=delete`, {})
    expect(none.status, none.text).toBe(200)
    expect(Employee.length).toBe(total)
    // root's set is everyone: paula deletes company 1's members of it, and only those.
    const all = await makeSet(root, '/rest/Employee?$method=entityset')
    expect((await paula(`/rest/Employee/$entityset/${all}?$method=delete`, {})).status).toBe(200)
    expect(Employee.length).toBe(total - STAFF)
    const left = await root('/rest/Employee/employerID?$distinct=true')
    expect(left.json).toEqual([2, 3])
  })

  it('is refused whole to a session without the delete permission (1560)', async () => {
    const { ds, rest } = hostileApp()
    const ann = await loggedIn(rest, 'ann')
    const eve = await loggedIn(rest, 'eve')
    const total = ds.dataClass('Employee').length
    const id = await makeSet(ann, COMPANY_1)
    const answer = await eve(`/rest/Employee/$entityset/${id}?$method=delete`, {})
    expect(answer.errCode).toBe(1560)
    expect(ds.dataClass('Employee').length).toBe(total)
  })
})

describe('releasing and remaking a set', () => {
  it('is the owning user’s alone: another session is told the set does not exist (1802)', async () => {
    const { rest } = hostileApp()
    const ann = await loggedIn(rest, 'ann')
    const eve = await loggedIn(rest, 'eve')
    // uma reads company 1 too: she sees every member of ann's set, and still may not release it.
    const uma = await loggedIn(rest, 'uma')
    const id = await makeSet(ann, `${COMPANY_1}&$savedfilter=true`)
    expect((await uma(`/rest/Employee/$entityset/${id}`)).json.__COUNT).toBe(STAFF)
    for (const client of [eve, uma]) {
      const release = await client(`/rest/Employee/$entityset/${id}?$method=release`)
      expect([release.status, release.errCode]).toEqual([404, 1802])
      // The same answer as for an id that never was.
      const never = await client(`/rest/Employee/$entityset/${'F'.repeat(32)}?$method=release`)
      expect(never.text).toBe(release.text.replace(id, 'F'.repeat(32)))
    }
    expect((await ann(`/rest/Employee/$entityset/${id}`)).json.__COUNT).toBe(STAFF)
    // Another session of ann's is ann: it releases the set.
    const ann2 = await loggedIn(rest, 'ann')
    expect((await ann2(`/rest/Employee/$entityset/${id}?$method=release`)).json).toEqual({
      ok: true,
    })
    expect((await ann(`/rest/Employee/$entityset/${id}`)).errCode).toBe(1802)
  })

  it('cannot be used to swap the owner’s set for the attacker’s (release, then remake)', async () => {
    const { ds, rest } = hostileApp()
    // paula (company 1 editor) keeps the set of employee 5, to delete it later; ann, of the same
    // company, would have it hold employee 1 instead.
    const paula = await loggedIn(rest, 'paula')
    const ann = await loggedIn(rest, 'ann')
    const Employee = ds.dataClass('Employee')
    const id = await makeSet(
      paula,
      '/rest/Employee?$filter="ID=5"&$savedfilter=true&$method=entityset',
    )
    const attack = `/rest/Employee/$entityset/${id}?$savedfilter="ID=1"`
    expect((await ann(`/rest/Employee/$entityset/${id}?$method=release`)).errCode).toBe(1802)
    const read = await ann(attack) // the set is there: read as ann may, not remade
    expect(read.json.__ENTITIES.map((e: any) => e.ID)).toEqual([5])
    expect((await paula(`/rest/Employee/$entityset/${id}?$method=delete`, {})).status).toBe(200)
    expect(Employee.get(5)).toBeNull()
    expect(Employee.length).toBe(29)
  })

  it('remakes a gone set for its owning user only; the remade set is theirs', async () => {
    const { ds, rest, clock } = hostileApp()
    const paula = await loggedIn(rest, 'paula')
    const ann = await loggedIn(rest, 'ann')
    const eve = await loggedIn(rest, 'eve')
    const id = await makeSet(
      paula,
      '/rest/Employee?$filter="ID=5"&$savedfilter=true&$timeout=60&$method=entityset',
    )
    clock.advance(60_001)
    // Keep the sessions alive meanwhile.
    for (const client of [paula, ann, eve]) await client('/rest/$info')
    for (const [client, filter] of [
      [ann, 'ID=1'],
      [eve, 'employerID=2'],
    ] as const) {
      const remade = await client(`/rest/Employee/$entityset/${id}?$savedfilter="${filter}"`)
      expect([remade.status, remade.errCode]).toEqual([404, 1802])
      // And an id that never was answers the same.
      const never = await client(
        `/rest/Employee/$entityset/${'E'.repeat(32)}?$savedfilter="${filter}"`,
      )
      expect([never.status, never.errCode]).toEqual([404, 1802])
    }
    // Nothing was remade: the owner's delete through the id deletes nothing.
    expect((await paula(`/rest/Employee/$entityset/${id}?$method=delete`, {})).errCode).toBe(1802)
    expect(ds.dataClass('Employee').length).toBe(30)
    // paula remakes it, from another session of hers too; it is hers, not ann's to release.
    const paula2 = await loggedIn(rest, 'paula')
    const again = await paula2(`/rest/Employee/$entityset/${id}?$savedfilter="ID=5"`)
    expect(again.json.__ENTITIES.map((e: any) => e.ID)).toEqual([5])
    expect((await ann(`/rest/Employee/$entityset/${id}?$method=release`)).errCode).toBe(1802)
    expect((await paula(`/rest/Employee/$entityset/${id}?$method=release`)).json).toEqual({
      ok: true,
    })
  })
})

describe('$info', () => {
  it('lists the caller’s own sets only', async () => {
    const { rest } = hostileApp()
    const ann = await loggedIn(rest, 'ann')
    const eve = await loggedIn(rest, 'eve')
    const a1 = await makeSet(ann, COMPANY_1)
    const a2 = await makeSet(ann, '/rest/Company?$method=entityset')
    const e1 = await makeSet(eve, '/rest/Employee?$method=entityset')
    const ids = async (client: HostileClient) => {
      const info = (await client('/rest/$info')).json
      expect(info.entitySetCount).toBe(info.entitySet.length)
      return info.entitySet.map((s: any) => s.id).sort()
    }
    expect(await ids(ann)).toEqual([a1, a2].sort())
    expect(await ids(eve)).toEqual([e1])
    expect(await ids(await loggedIn(rest))).toEqual([])
    // Another session of the same user lists them too: they are ann's.
    expect(await ids(await loggedIn(rest, 'ann'))).toEqual([a1, a2].sort())
    const info = (await eve('/rest/$info')).json
    expect(Object.keys(info)).toEqual([
      'cacheSize',
      'usedCache',
      'entitySetCount',
      'entitySet',
      'ProgressInfo',
      'sessionInfo',
      'privileges',
    ])
    expect(info.usedCache).toBe(4 * STAFF) // 4 bytes a member: an Int32Array of row ids
  })
})

describe('a session’s sets', () => {
  it('stay its own across a login that renews it, and go with it at the logout', async () => {
    const { rest } = hostileApp()
    const client = await loggedIn(rest, 'ann')
    const eve = await loggedIn(rest, 'eve')
    const early = await makeSet(client, '/rest/Company?$method=entityset')
    const before = client.cookie()
    await client.login('ann') // a new session id, the same session
    expect(client.cookie()).not.toBe(before)
    const late = await makeSet(client, COMPANY_1)
    const info = (await client('/rest/$info')).json
    expect(info.entitySet.map((s: any) => s.id).sort()).toEqual([early, late].sort())
    expect(info.usedCache).toBe(4 * (1 + STAFF))
    expect((await eve(`/rest/Company/$entityset/${early}?$method=release`)).errCode).toBe(1802)
    expect((await client(`/rest/Company/$entityset/${early}?$method=release`)).json).toEqual({
      ok: true,
    })
    expect((await eve(`/rest/Employee/$entityset/${late}`)).status).toBe(200)
    await client('/rest/$directory/logout', {})
    expect((await eve(`/rest/Employee/$entityset/${late}`)).errCode).toBe(1802)
  })

  it('count against its own quota: 10,001 creations by eve leave ann’s set readable', async () => {
    const { ds, rest } = hostileApp()
    const ann = await loggedIn(rest, 'ann')
    const eve = await loggedIn(rest, 'eve')
    const id = await makeSet(ann, COMPANY_1)
    const cookie = eve.cookie()!
    const started = performance.now()
    for (let i = 0; i < 10_001; i++) {
      const res = await rest.request('/rest/Employee?$method=entityset&$top=0', {
        headers: { cookie },
      })
      if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`)
      await res.arrayBuffer()
    }
    const ms = performance.now() - started
    expect((await ann(`/rest/Employee/$entityset/${id}`)).json.__COUNT).toBe(STAFF)
    // eve holds her quota, no more.
    expect((await eve('/rest/$info')).json.entitySetCount).toBe(1000)
    expect(ds.entitySets.size).toBe(1001)
    console.log(`10,001 entity sets made by one session in ${Math.round(ms)} ms`)
  }, 120_000)
})
