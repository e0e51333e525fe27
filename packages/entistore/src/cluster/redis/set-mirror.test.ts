/**
 * Entity sets shared by processes through the in-memory Redis (no server): kept through one and
 * listed under its owners, fetched through another by its members' keys with its owner and its
 * life, listed for `$info` through any process, released by its owner through one and gone
 * through all, and gone with its TTL.
 */
import type { SetOwner } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { fakeCluster, type FakeProcess } from './fake-cluster.fixture.js'

const turn = () => new Promise((resolve) => setImmediate(resolve))

/** A set of the employees earning more than 5000, kept through `p` for `owner`, written. */
async function keepThrough(p: FakeProcess, owner: SetOwner): Promise<string> {
  const selection = p.ds.dataClass('Employee').query('salary > 5000 order by salary desc')
  const { id } = p.ds.entitySets.keep(selection, { owner, timeout: 60, sorted: true })
  await p.written()
  return id
}

const keysIn = (p: FakeProcess, id: string) =>
  [...p.ds.entitySets.get(id)!.selection].map((entity) => entity.key)

describe('entity sets through an in-memory Redis', () => {
  it('kept through A: in Redis with its owners’ lists, and fetched through B as kept', async () => {
    const { process, redis } = fakeCluster()
    const [A, B] = [process(), process()]
    const { id: sid } = A.ds.sessions.open()
    const owner: SetOwner = { kind: 'session', id: sid, user: 'ada' }
    const id = await keepThrough(A, owner)
    expect(await redis.smembers(`test:os:${sid}`)).toEqual([id])
    expect(await redis.smembers('test:ou:ada')).toEqual([id])
    expect(await redis.pttl(`test:os:${sid}`)).toBe(60_000)
    await B.sets.confirm([id])
    const there = B.ds.entitySets.get(id)!
    expect(keysIn(B, id)).toEqual([3, 2])
    expect(there.owner).toEqual(owner)
    expect(there.sorted).toBe(true)
    expect(there.timeout).toBe(60)
  })

  it('listed for its session through B ($info), and let go there once gone from Redis', async () => {
    const { process, redis } = fakeCluster()
    const [A, B] = [process(), process()]
    const session = A.ds.sessions.open()
    await A.written()
    const owner: SetOwner = { kind: 'session', id: session.id }
    const [one, two] = [await keepThrough(A, owner), await keepThrough(A, owner)]
    await B.sessions.fetch(session.id)
    await B.sets.list(B.ds.sessions.peek(session.id)!)
    expect(B.ds.entitySets.has(one) && B.ds.entitySets.has(two)).toBe(true)
    await redis.del(`test:e:${one}`) // gone from Redis (expired, or released unheard)
    await B.sets.list(B.ds.sessions.peek(session.id)!)
    expect(B.ds.entitySets.has(one)).toBe(false)
    expect(await redis.smembers(`test:os:${session.id}`)).toEqual([two])
  })

  it('released by its owner through A: gone from Redis, from B which held it, and never fetched again', async () => {
    const { process, redis } = fakeCluster()
    const [A, B, C] = [process(), process(), process()]
    const { id: sid } = A.ds.sessions.open()
    const owner: SetOwner = { kind: 'session', id: sid }
    const id = await keepThrough(A, owner)
    await B.sets.confirm([id])
    expect(A.ds.entitySets.release(id, { by: owner })).toBe(true)
    await A.written()
    await turn()
    expect(redis.keys()).not.toContain(`test:e:${id}`)
    expect(B.ds.entitySets.has(id)).toBe(false)
    await C.sets.confirm([id])
    expect(C.ds.entitySets.has(id)).toBe(false)
  })

  it('lives as its TTL: read through A (a touch) it lasts, unread it is gone through B', async () => {
    const { process, advance } = fakeCluster()
    const [A, B] = [process(), process()]
    const id = await keepThrough(A, { kind: 'process', id: 'process' })
    await B.sets.confirm([id])
    advance(40_000)
    A.ds.entitySets.get(id) // read: its life restarts, here and in Redis
    await turn()
    await turn()
    advance(40_000)
    await B.sets.confirm([id])
    expect(B.ds.entitySets.has(id)).toBe(true)
    advance(60_000)
    await B.sets.confirm([id])
    expect(B.ds.entitySets.has(id)).toBe(false)
  })

  it('the key that signs set ids is the first process’s, for all', async () => {
    const { process, redis } = fakeCluster()
    const [A, B] = [process(), process()]
    await A.sets.shareIdKey()
    const key = await redis.get('test:set-id-key')
    await B.sets.shareIdKey()
    expect(await redis.get('test:set-id-key')).toBe(key)
    expect(key).toMatch(/^[0-9a-f]{32}$/)
  })
})
