/**
 * Issue 78: a restrict's answer never outlives what it read. Restricts written in 4D
 * (test-projects/lockdown) that read state outside the data, over REST through `serve --project`:
 * a lockdown flag in `Storage` and in a shared singleton, the role a session chose after login in
 * `Session.storage`, the clock. Each change shows at the next read, in both directions, to the
 * session that made it, to the other sessions of its view, to new sessions and to code
 * (`ds.Document.all()` in a function). That an answer which read none of it is kept: core's
 * restrict-outside.test.ts, four-d-code.events.test.ts ("runs once for the sessions of one view").
 */
import { ManualClock } from '@entistore/core'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { served, type Client } from './four-d-rest.fixture.js'

const PROJECT = fileURLToPath(new URL('test-projects/lockdown', import.meta.url))
const DATA = `${PROJECT}/csv`

const keys = async (c: Client, path = 'Document'): Promise<number[]> => {
  const r = await c.get(`${path}?$orderby="ID"`)
  expect(r.status).toBe(200)
  return (r.json.__ENTITIES as { ID: number }[]).map((e) => e.ID)
}

async function loggedIn(post: Awaited<ReturnType<typeof served>>, name: string): Promise<Client> {
  const c = post.client()
  expect((await c.post('$catalog/logIn', [name])).status).toBe(200)
  return c
}

const PUBLIC = [1, 2]
const STAFF = [1, 2, 3, 6]

describe('a restrict reading Storage, a singleton and Session.storage (issue 78)', () => {
  it('follows the lockdown flag in Storage both ways, for every session, old and new', async () => {
    const post = await served(PROJECT, { data: DATA })
    const [one, two] = [await loggedIn(post, 'ann'), await loggedIn(post, 'ann')]
    expect(await keys(one)).toEqual(PUBLIC)
    expect(await keys(two)).toEqual(PUBLIC)
    await one.post('$catalog/lockdown', [true])
    expect(await keys(one)).toEqual([])
    expect(await keys(two)).toEqual([])
    expect(await keys(await loggedIn(post, 'ann'))).toEqual([])
    expect((await two.post('$catalog/seen')).json.result).toEqual([])
    await two.post('$catalog/lockdown', [false])
    expect(await keys(one)).toEqual(PUBLIC)
    expect((await one.post('$catalog/seen')).json.result).toEqual(PUBLIC)
    expect(await keys(await loggedIn(post, 'ann'))).toEqual(PUBLIC)
  })

  it("follows a shared singleton's state, set by its shared function", async () => {
    const post = await served(PROJECT, { data: DATA })
    const ann = await loggedIn(post, 'ann')
    expect(await keys(ann)).toEqual(PUBLIC)
    await ann.post('$catalog/gate', [true])
    expect(await keys(ann)).toEqual([])
    await ann.post('$catalog/gate', [false])
    expect(await keys(ann)).toEqual(PUBLIC)
  })

  it('follows the role a session chose after login, for that session alone', async () => {
    const post = await served(PROJECT, { data: DATA })
    const [one, two] = [await loggedIn(post, 'ann'), await loggedIn(post, 'ann')]
    expect(await keys(one)).toEqual(PUBLIC)
    expect(await keys(two)).toEqual(PUBLIC)
    await one.post('$catalog/chooseRole', ['staff'])
    expect(await keys(one)).toEqual(STAFF)
    expect(await keys(two)).toEqual(PUBLIC)
    await one.post('$catalog/chooseRole', ['board'])
    expect(await keys(one)).toEqual([1, 2, 4, 5])
    await one.post('$catalog/chooseRole', [''])
    expect(await keys(one)).toEqual(PUBLIC)
    expect((await one.post('$catalog/seen')).json.result).toEqual(PUBLIC)
  })

  it('sees each write of a Use block at once, inside the block and after it', async () => {
    const post = await served(PROJECT, { data: DATA })
    const r = await (await loggedIn(post, 'ann')).post('$catalog/aroundLockdown')
    expect(r.json.result).toEqual({ before: 2, during: 0, after: 2, later: 2 })
  })
})

describe('a restrict reading the clock (issue 78)', () => {
  it('sees a notice from the day its embargo ends, without a write', async () => {
    const clock = new ManualClock('2024-06-01T12:00:00Z')
    const post = await served(PROJECT, { data: DATA, clock })
    const ann = post.client()
    expect(await keys(ann, 'Notice')).toEqual([1, 2])
    expect(await keys(ann, 'Notice')).toEqual([1, 2])
    clock.set('2024-06-02T12:00:00Z')
    expect(await keys(ann, 'Notice')).toEqual([1, 2, 3])
    expect(await keys(post.client(), 'Notice')).toEqual([1, 2, 3])
  })
})
