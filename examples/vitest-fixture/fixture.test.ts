/**
 * Entistore as a vitest fixture: a server started once for the file, its data put back before
 * each test. Run it with `npx vitest run --project examples examples/vitest-fixture` (see
 * README.md). The first part talks to a real socket with fetch; the second answers in-process,
 * from a model and data given as objects, on a clock the test moves.
 */
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ManualClock } from 'entistore'
import {
  createFixture,
  startFixture,
  type InProcessFixture,
  type ServedFixture,
} from 'entistore/fixture'

// The company demo's files (24 companies, 360 employees, 40 projects).
const companyFile = (name: string): string =>
  fileURLToPath(new URL(`../company/${name}`, import.meta.url))

const json = { 'content-type': 'application/json' }

describe('a server on a free port', () => {
  let fx: ServedFixture
  beforeAll(async () => {
    fx = await startFixture({ model: companyFile('model.json'), data: companyFile('data.json') })
  })
  // Before each test: the data as loaded, no entity sets, no sessions.
  beforeEach(() => fx.reset())
  afterAll(() => fx.close())

  it('creates an employee', async () => {
    const reply = await fetch(`${fx.url}/rest/Employee?$method=update`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ firstName: 'Marie', lastName: 'Curie', employer: 2 }),
    })
    expect(reply.status).toBe(200)
    expect(await reply.json()).toMatchObject({ __KEY: '361', lastName: 'Curie' })
    const count = await fetch(`${fx.url}/rest/Employee?$top=0`).then((r) => r.json())
    expect(count).toMatchObject({ __COUNT: 361 })
  })

  it('starts again from the loaded data', async () => {
    const count = await fetch(`${fx.url}/rest/Employee?$top=0`).then((r) => r.json())
    expect(count).toMatchObject({ __COUNT: 360 })
    // The next key is the one the previous test got: the sequence was put back too.
    const created = await fetch(`${fx.url}/rest/Employee?$method=update`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ lastName: 'Lovelace' }),
    }).then((r) => r.json())
    expect(created).toMatchObject({ __KEY: '361' })
  })

  it('deletes with a filter, and the query sees it', async () => {
    const url = new URL(`${fx.url}/rest/Employee`)
    url.searchParams.set('$filter', '"employer.ID = 1"')
    // Company 1 employs 15 people in the demo data.
    expect(await fetch(url).then((r) => r.json())).toMatchObject({ __COUNT: 15 })
    url.searchParams.set('$method', 'delete')
    expect((await fetch(url, { method: 'POST' })).status).toBe(200)
    url.searchParams.delete('$method')
    expect(await fetch(url).then((r) => r.json())).toMatchObject({ __COUNT: 0 })
  })

  it('arranges data through the datastore itself', async () => {
    // fx.ds is the datastore behind the server: write to it directly, then ask over HTTP.
    fx.ds.dataClass('Employee').update(1, { salary: 99_999 })
    const one = await fetch(`${fx.url}/rest/Employee(1)?$attributes=salary`).then((r) => r.json())
    expect(one).toMatchObject({ salary: 99_999 })
  })
})

describe('in-process, no socket', () => {
  const clock = new ManualClock(Date.UTC(2026, 0, 5, 9))
  let fx: InProcessFixture
  beforeAll(async () => {
    fx = await createFixture({
      model: {
        dataClasses: [
          {
            name: 'Task',
            attributes: [
              { name: 'ID', type: 'long', autosequence: true },
              { name: 'title', type: 'string' },
              { name: 'done', type: 'bool' },
            ],
            key: [{ name: 'ID' }],
          },
        ],
      },
      data: { Task: [{ ID: 1, title: 'write the docs', done: false }] },
      clock,
    })
  })
  beforeEach(() => fx.reset())

  it('answers request(path) through the same REST handler a server uses', async () => {
    clock.advance(60_000)
    const saved = await fx
      .request('/rest/Task?$method=update', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ __KEY: 1, __STAMP: 1, done: true }),
      })
      .then((r) => r.json())
    expect(saved).toMatchObject({ __STAMP: 2, done: true })
    // The save's time is the fixture clock's.
    const read = await fx.request('/rest/Task(1)').then((r) => r.json())
    expect(read).toMatchObject({ __TIMESTAMP: '2026-01-05T09:01:00.000Z' })
  })

  it('starts from the loaded task again', async () => {
    const read = await fx.request('/rest/Task(1)').then((r) => r.json())
    expect(read).toMatchObject({ __STAMP: 1, done: false })
  })
})
