/**
 * The web server quotas across processes on one real Redis (`--redis`): a count per quota and
 * window (INCRBY), its TTL the time left in the window, the others' counts learnt from each answer;
 * a session's requests counted wherever they land. A request never waits for Redis.
 */
import { describe, expect, it } from 'vitest'
import { eventually, redisNodesForFile } from './redis-cluster.fixture.js'

const { missing, setup, server } = redisNodesForFile()

const HOUR = 3_600_000

describe.skipIf(missing)(`quotas through Redis${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('nbRequestsPerHour counts the requests of both processes in one key that expires with the hour', async () => {
    const nodes = await setup({ quotas: { nbRequestsPerHour: 4 } })
    const { A, B, admin, prefix, client } = nodes
    A.clock.set(B.clock.now())
    const start = A.clock.now() - (A.clock.now() % HOUR)
    const key = `${prefix}q:|nbRequestsPerHour|${start}`
    const c = client()
    for (let i = 0; i < 3; i++) expect((await c.get(A, '/rest/$catalog')).status).toBe(200)
    await eventually(async () => expect(await admin.get(key)).toBe('3'))
    const ttl = await admin.pttl(key)
    expect(ttl).toBeGreaterThan(0)
    expect(ttl).toBeLessThanOrEqual(start + HOUR - A.clock.now())
    // B learns the others' count from the answer to its own: its first request is let through
    // (the bound: what it admits before its report is answered), the next one is refused.
    expect((await c.get(B, '/rest/$catalog')).status).toBe(200)
    await eventually(async () => expect(await admin.get(key)).toBe('4'))
    await eventually(async () => {
      const refused = await c.get(B, '/rest/$catalog')
      expect(refused.status).toBe(429)
      expect(refused.json.__ERROR[0].errCode).toBe(9065)
      expect(Number(refused.retryAfter)).toBe(Math.ceil((start + HOUR - B.clock.now()) / 1000))
    })
    // A has not heard since its own report: it refuses once it does.
    await c.get(A, '/rest/$catalog')
    await eventually(async () => expect((await c.get(A, '/rest/$catalog')).status).toBe(429))
  })

  it("a session's requests count on its quota whichever process answers", async () => {
    const nodes = await setup({ quotas: { nbRequestsPerHourPerSession: 3 } })
    const { A, B, admin, prefix, client } = nodes
    A.clock.set(B.clock.now())
    const c = client()
    // A session the processes keep (it holds data); the request that opened it counts too.
    expect((await c.post(A, '/rest/$catalog/setCart', [1])).status).toBe(200)
    const start = A.clock.now() - (A.clock.now() % HOUR)
    const key = `${prefix}q:${c.session!}|nbRequestsPerHour|${start}`
    for (let i = 0; i < 2; i++) expect((await c.get(A, '/rest/$catalog')).status).toBe(200)
    await eventually(async () => expect(await admin.get(key)).toBe('3'))
    // On B: one let through before B's report is answered (counted apart, it would be three).
    // The next request is sent once that report is in Redis, as in the test above: B's answer
    // from Redis is then on its way before it, so what B admits is the bound, not a race with a
    // busy machine (CI once saw a second request answered before B heard the count).
    const onB: number[] = [(await c.get(B, '/rest/$catalog/cart')).status]
    await eventually(async () => expect(await admin.get(key)).toBe('4'))
    await eventually(async () => {
      onB.push((await c.get(B, '/rest/$catalog/cart')).status)
      expect(onB.at(-1)).toBe(429)
    })
    expect(onB.filter((s) => s === 200).length).toBeLessThanOrEqual(1)
    // Another client is not held by this session's count.
    expect((await client().get(B, '/rest/$catalog')).status).toBe(200)
  })
  // Issue 78: each process counted the sessions its mirror holds, not those opened elsewhere.
  it('nbGuestSessions counts the guests of every process: a third is refused on either', async () => {
    const { A, B, client } = await setup({ quotas: { nbGuestSessions: 2 } })
    const [a, b] = [client(), client()]
    expect((await a.get(A, '/rest/Company(1)')).status).toBe(200)
    expect((await b.get(B, '/rest/Company(1)')).status).toBe(200)
    for (const node of [A, B]) {
      // What each process heard of the others: both guests (a read is never waited for).
      await eventually(async () => {
        await node.sessions!.read()
        expect(node.sessions!.totals({ sessions: 0, users: 0 })).toEqual({ sessions: 2, users: 0 })
      })
      const third = await client().get(node, '/rest/Company(1)')
      expect([third.status, third.retryAfter]).toEqual([429, ''])
      expect(third.json.__ERROR[0].message).toContain('nbGuestSessions')
    }
    // The two guests are served on either process; a logout makes room for another.
    for (const node of [A, B]) expect((await a.get(node, '/rest/Company(1)')).status).toBe(200)
    expect((await b.post(B, '/rest/$directory/logout')).status).toBe(200)
    await eventually(async () => {
      await A.sessions!.read()
      expect(A.sessions!.totals({ sessions: 0, users: 0 }).sessions).toBe(1)
    })
    expect((await client().get(A, '/rest/Company(1)')).status).toBe(200)
  })

  it("a reader by key is held by its session's quota whichever process answers", async () => {
    const { A, B, client } = await setup({ quotas: { nbRequestsPerHourPerSession: 4 } })
    A.clock.set(B.clock.now())
    const c = client()
    const statuses: number[] = []
    await eventually(async () => {
      statuses.push((await c.get(statuses.length % 2 ? B : A, '/rest/Company(1)')).status)
      expect(statuses.at(-1)).toBe(429)
    })
    // Four let through, and a few more at most before a process heard of the others' (the
    // bound); counted apart, each process would let four through, eight in all.
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(4)
    expect(statuses.filter((s) => s === 200).length).toBeLessThan(8)
    expect((await client().get(B, '/rest/Company(1)')).status).toBe(200)
  })

  it('Redis down: a process counts its own, without waiting for Redis or failing on it', async () => {
    const { A, client } = await setup({ quotas: { nbRequestsPerHour: 2 } })
    await server().kill()
    try {
      const replies = []
      for (let i = 0; i < 3; i++) replies.push(await client().get(A, '/rest/$catalog'))
      // A new client's session cannot be written (503, Redis's own answer); the quota holds.
      expect(replies.map((r) => [r.status, r.json.__ERROR[0].errCode])).toEqual([
        [503, 9140],
        [503, 9140],
        [429, 9065],
      ])
    } finally {
      await server().restart()
    }
  })
})
