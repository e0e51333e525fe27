/**
 * Sessions shared by two processes through the in-memory Redis (no server): written through one,
 * read through the other as written, changes heard by the one that holds it (never an older
 * state), lifetimes as Redis's TTLs restarted by touches, a logout and a login seen through the
 * other, and a write Redis cannot take answered 503.
 */
import { describe, expect, it } from 'vitest'
import { fakeCluster } from './fake-cluster.fixture.js'

/** One turn of the event loop: the touches' flush, the messages delivered. */
const turn = () => new Promise((resolve) => setImmediate(resolve))

/** Two processes, and a session opened through A (written) that B holds too (read). */
async function heldByBoth() {
  const cluster = fakeCluster()
  const [A, B] = [cluster.process(), cluster.process()]
  const session = A.ds.sessions.open()
  await A.written()
  await B.sessions.fetch(session.id)
  return { ...cluster, A, B, session }
}

describe('sessions through an in-memory Redis', () => {
  it('a session opened and changed through A is read through B as written', async () => {
    const { process, redis } = fakeCluster()
    const [A, B] = [process(), process()]
    const session = A.ds.sessions.open()
    A.ds.sessions.establish(session.id)
    session.data.set('cart', 3)
    A.sessionWrites.flushDirty()
    await A.written()
    expect(redis.keys()).toContain(`test:s:${session.id}`)
    expect(B.ds.sessions.peek(session.id)).toBeUndefined()
    await B.sessions.fetch(session.id)
    const there = B.ds.sessions.peek(session.id)!
    expect(there.established).toBe(true)
    expect(there.data.get('cart')).toBe(3)
    expect(there.createdAt).toBe(session.createdAt)
    expect([A.errors, B.errors]).toEqual([[], []])
  })

  it('a change through A is heard by B, which holds it; an older state is never adopted', async () => {
    const { A, B, session } = await heldByBoth()
    session.data.set('cart', 4)
    A.sessionWrites.flushDirty()
    await A.written()
    await turn()
    expect(B.ds.sessions.peek(session.id)?.data.get('cart')).toBe(4)
    // A message of an older version (sent before, heard late) changes nothing.
    const old = { v: 1, c: session.createdAt, t: session.timeout, e: 0, d: [['cart', 1]] }
    B.onMessage(JSON.stringify({ o: 'another', n: 1, t: 'session', id: session.id, s: old }))
    expect(B.ds.sessions.peek(session.id)?.data.get('cart')).toBe(4)
  })

  it('lives as long as its TTL in Redis, restarted by a touch through A', async () => {
    const { process, redis, advance } = fakeCluster()
    const [A, B] = [process(), process()]
    const session = A.ds.sessions.open()
    await A.written()
    const half = session.timeout / 2 + 1
    advance(half)
    A.ds.sessions.touch(session.id)
    await turn()
    await turn()
    advance(half)
    await B.sessions.fetch(session.id)
    expect(B.ds.sessions.peek(session.id)).toBeDefined()
    expect(await redis.pttl(`test:s:${session.id}`)).toBe(session.timeout - half)
    // No touch since: gone from Redis, and from B (which held it) when it reads it again.
    advance(session.timeout)
    expect(redis.keys()).not.toContain(`test:s:${session.id}`)
    await B.sessions.fetch(session.id)
    expect(B.ds.sessions.peek(session.id)).toBeUndefined()
  })

  it('a logout through A closes it in Redis and in B', async () => {
    const { redis, A, B, session } = await heldByBoth()
    A.ds.sessions.close(session.id)
    await A.written()
    await turn()
    expect(redis.keys()).not.toContain(`test:s:${session.id}`)
    expect(B.ds.sessions.peek(session.id)).toBeUndefined()
  })

  it('a login through A: the new id is read through B, the old one is closed there', async () => {
    const { redis, A, B, session } = await heldByBoth()
    const old = session.id
    const renewed = A.ds.sessions.renew(old)!
    await A.written()
    await turn()
    expect(renewed.id).not.toBe(old)
    // The index of open sessions (`sx`) holds the new id alone.
    expect(redis.keys()).toEqual([`test:s:${renewed.id}`, 'test:sx', 'test:version'])
    expect(await redis.esSessions('test:')).toEqual([1, 0])
    expect(B.ds.sessions.peek(old)).toBeUndefined()
    await B.sessions.fetch(renewed.id)
    expect(B.ds.sessions.peek(renewed.id)?.createdAt).toBe(session.createdAt)
  })

  it('a session Redis cannot take: the write answers 503 and the session is let go here', async () => {
    const { process, redis } = fakeCluster()
    const A = process()
    A.pending.writeBegins()
    redis.down = true
    const session = A.ds.sessions.open()
    const error = await A.pending.writeEnded()
    expect(error?.name).toBe('SharedStateUnavailable')
    expect(error?.details).toEqual({ retryAfter: 1 })
    expect(A.ds.sessions.peek(session.id)).toBeUndefined()
  })
})
