/**
 * Locks shared by two processes through the in-memory Redis (no server), decided as the Lua
 * scripts decide them (the fake's TypeScript of them agrees with the scripts on a real server:
 * scripts-agree.test.ts): claimed in Redis first, refused to another session through any process
 * (which then holds the holder's lock and session), let go when the core did not take it,
 * released, refreshed before a write, and gone with their session.
 */
import type { RestRequest } from '@entistore/rest'
import { describe, expect, it } from 'vitest'
import { bentConnection, fakeCluster, type FakeProcess } from './fake-cluster.fixture.js'
import type { FakeRedis } from './fake-redis.fixture.js'

const request = (userAgent: string): RestRequest => ({
  method: 'GET',
  path: '/rest/Employee(1)',
  query: '$lock=true',
  headers: { 'user-agent': userAgent },
  remoteAddress: '127.0.0.1',
})
const LOCK = { dataClass: 'Employee', key: '1', wanted: true }
const UNLOCK = { ...LOCK, wanted: false }

/** A session opened through `p`, written to Redis. */
async function sessionOf(p: FakeProcess): Promise<string> {
  const { id } = p.ds.sessions.open()
  await p.written()
  return id
}

/** What a request through `p` does with `$lock=true`: claimed in Redis, then taken by the core. */
async function lockThrough(p: FakeProcess, sid: string): Promise<void> {
  const asked = request('agent of ' + sid)
  await p.locks.claim(asked, sid, LOCK)
  if (!p.ds.locks.holder('Employee', 1))
    p.ds.locks.take('Employee', 1, { id: sid, kind: 'session' })
  p.locks.afterRequest(asked)
  await p.written()
}

const holderIn = (p: FakeProcess) => p.ds.locks.holder('Employee', 1)?.owner.id
const holderInRedis = async (redis: FakeRedis) =>
  (JSON.parse((await redis.get('test:l:Employee:1')) ?? '{}') as { i?: string }).i
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r))
}

/**
 * A connection to `redis` whose releases, once `hold` is called, reach it only at `deliver`: a
 * process whose writes to Redis are late (a busy machine, a process that slept).
 */
function lateReleases() {
  const waiting: (() => void)[] = []
  let held = false
  const connect = (redis: FakeRedis) =>
    bentConnection(redis, {
      esRelease: (...args) =>
        held
          ? new Promise((resolve, reject) =>
              waiting.push(() => void redis.esRelease(...args).then(resolve, reject)),
            )
          : redis.esRelease(...args),
    })
  return {
    connect,
    hold: () => void (held = true),
    deliver: () => {
      held = false
      for (const send of waiting.splice(0)) send()
    },
  }
}

const OK_REPLY = { status: 200, headers: {}, body: '{"result":true}' }

/**
 * A request through A whose release reaches Redis late (`release`: what the request does after
 * its claim), then its client locks again through B as soon as it has its answer, while another
 * session asks B for the lock: the late release never takes the client's new lock away.
 */
async function lockAgainAfterLateRelease(
  release: (A: FakeProcess, a: string, asked: RestRequest) => void,
  claim: typeof LOCK,
) {
  const { process, redis } = fakeCluster()
  const late = lateReleases()
  const [A, B] = [process(late.connect), process()]
  const [a, b] = [await sessionOf(A), await sessionOf(B)]
  if (!claim.wanted) await lockThrough(A, a)
  const asked = request('a')
  const from = A.pending.seq
  await A.locks.claim(asked, a, claim)
  late.hold()
  release(A, a, asked)
  const reply = A.pending.settle(from, OK_REPLY, () => OK_REPLY, asked)
  // As B answers a request: the session its cookie names read from Redis first.
  const again = Promise.resolve(reply).then(async () => {
    await B.sessions.fetch(a)
    await lockThrough(B, a)
  })
  await turns(5)
  late.deliver()
  await again
  await B.locks.claim(request('b'), b, LOCK)
  return { inRedis: await holderInRedis(redis), inB: holderIn(B), a }
}

describe('locks through an in-memory Redis', () => {
  it('taken through A, refused to another session through B, which then holds the holder', async () => {
    const { process, redis } = fakeCluster()
    const [A, B] = [process(), process()]
    const [a, b] = [await sessionOf(A), await sessionOf(B)]
    await lockThrough(A, a)
    expect(JSON.parse((await redis.get('test:l:Employee:1'))!)).toMatchObject({ i: a, k: 1 })
    await B.locks.claim(request('b'), b, LOCK)
    expect(holderIn(B)).toBe(a)
    expect(B.ds.sessions.peek(a)).toBeDefined()
    // A client without a session yet through B: the holder is read first, as Redis has it.
    const C = process()
    await C.locks.fetchHolder(request('c'), LOCK)
    expect(holderIn(C)).toBe(a)
  })

  it('a client without a session, granted here while another process gave the lock first: its reply is answered again, refused as Redis decided', async () => {
    const { process } = fakeCluster()
    const [A, C] = [process(), process()]
    const asked = request('new client')
    // Free when C reads its holder, then taken through A before C's core runs the request.
    await C.locks.fetchHolder(asked, LOCK)
    expect(holderIn(C)).toBeUndefined()
    const a = await sessionOf(A)
    await lockThrough(A, a)
    const from = C.pending.seq
    const fresh = C.ds.sessions.open().id // the session the core makes for the new client
    C.ds.locks.take('Employee', 1, { id: fresh, kind: 'session' })
    const granted = { status: 200, headers: {}, body: '{"result":true}' }
    const again = { status: 200, headers: {}, body: '{"result":false}' }
    const answered = await C.pending.settle(from, granted, () => again, asked)
    C.locks.afterRequest(asked)
    // Answered again (the core then refuses it: the mirror holds A's lock), and no write of
    // another request is failed by it.
    expect({ answered, holder: holderIn(C), conflict: C.locks.takeConflict() }).toEqual({
      answered: again,
      holder: a,
      conflict: undefined,
    })
    // Another request's reply, settled from the same point, is not answered again for it.
    const other = await C.pending.settle(from, granted, () => again, request('other'))
    expect(other).toBe(granted)
  })

  it('a claim the core did not keep is let go after the request', async () => {
    const { process, redis } = fakeCluster()
    const A = process()
    const a = await sessionOf(A)
    const asked = request('a')
    await A.locks.claim(asked, a, LOCK)
    expect(redis.keys()).toContain('test:l:Employee:1')
    A.locks.afterRequest(asked) // the core answered without taking it
    await A.written()
    expect(redis.keys()).not.toContain('test:l:Employee:1')
  })

  it("$lock=false: its reply waits for the core's release too, which never undoes the session's next lock", async () => {
    const seen = await lockAgainAfterLateRelease((A, a, asked) => {
      A.ds.locks.release('Employee', 1, { id: a, kind: 'session' }) // the core's unlock
      A.locks.afterRequest(asked)
    }, UNLOCK)
    expect(seen).toEqual({ inRedis: seen.a, inB: seen.a, a: seen.a })
  })

  it('a claim the core did not keep: its reply waits for it to be let go, which never undoes the session’s next lock', async () => {
    const seen = await lockAgainAfterLateRelease((A, _a, asked) => {
      A.locks.afterRequest(asked) // the core answered without taking it
    }, LOCK)
    expect(seen).toEqual({ inRedis: seen.a, inB: seen.a, a: seen.a })
  })

  it('released through A: free in Redis, and dropped by B at its next refresh', async () => {
    const { process, redis } = fakeCluster()
    const [A, B] = [process(), process()]
    const a = await sessionOf(A)
    await lockThrough(A, a)
    await B.locks.refresh()
    expect(holderIn(B)).toBe(a)
    await A.locks.claim(request('a'), a, UNLOCK)
    A.ds.locks.release('Employee', 1, { id: a, kind: 'session' })
    await A.written()
    expect(await redis.esHolder('test:l:Employee:1', 'test:')).toEqual([1])
    await B.locks.refresh()
    expect(holderIn(B)).toBeUndefined()
  })

  it('taken by the core while Redis gives it to another: dropped, and the write fails', async () => {
    const { process } = fakeCluster()
    const [A, B] = [process(), process()]
    const [a, b] = [await sessionOf(A), await sessionOf(B)]
    await lockThrough(B, b)
    A.locks.writeBegins()
    A.ds.locks.take('Employee', 1, { id: a, kind: 'session' }) // before A heard of B's
    await A.pending.settled()
    expect(A.locks.takeConflict()).toMatchObject({ name: 'EntityLocked' })
    expect(A.locks.takeConflict()).toBeUndefined()
    expect(holderIn(A)).toBe(b)
  })

  it('taken by the core outside a write while Redis gives it to another: dropped, and no write fails for it', async () => {
    const { process } = fakeCluster()
    const [A, B] = [process(), process()]
    const [a, b] = [await sessionOf(A), await sessionOf(B)]
    await lockThrough(B, b)
    A.ds.locks.take('Employee', 1, { id: a, kind: 'session' }) // between two writes
    A.locks.writeBegins() // the next write enters the gate before Redis answered
    await A.pending.settled()
    expect({ conflict: A.locks.takeConflict(), holder: holderIn(A) }).toEqual({
      conflict: undefined,
      holder: b,
    })
  })

  it("a session's claim refused, then granted by the core once the holder's lock left the mirror: its reply is answered again, no write fails", async () => {
    const { process } = fakeCluster()
    const [A, B] = [process(), process()]
    const [a, b] = [await sessionOf(A), await sessionOf(B)]
    await lockThrough(A, a)
    const asked = request('b')
    await B.locks.claim(asked, b, LOCK) // refused: B's mirror holds A's lock
    expect(holderIn(B)).toBe(a)
    // A lets go; a write's refresh in B drops A's lock; A takes it again; then B's core runs.
    await A.locks.claim(request('a'), a, UNLOCK)
    A.ds.locks.release('Employee', 1, { id: a, kind: 'session' })
    await A.written()
    B.locks.writeBegins()
    await B.locks.refresh()
    expect(holderIn(B)).toBeUndefined()
    await lockThrough(A, a)
    const from = B.pending.seq
    B.ds.locks.take('Employee', 1, { id: b, kind: 'session' }) // the core answers the $lock
    const granted = { status: 200, headers: {}, body: '{"result":true}' }
    const again = { status: 200, headers: {}, body: '{"result":false}' }
    const answered = await B.pending.settle(from, granted, () => again, asked)
    B.locks.afterRequest(asked)
    expect({ answered, holder: holderIn(B), conflict: B.locks.takeConflict() }).toEqual({
      answered: again,
      holder: a,
      conflict: undefined,
    })
  })

  it('gone with its session: a logout frees it, and so does the session’s TTL', async () => {
    const { process, redis, advance } = fakeCluster()
    const [A, B] = [process(), process()]
    const [a, b] = [await sessionOf(A), await sessionOf(B)]
    await lockThrough(A, a)
    A.ds.sessions.close(a)
    await A.written()
    expect(redis.keys()).not.toContain('test:l:Employee:1')
    await lockThrough(B, b)
    expect(holderIn(B)).toBe(b)
    // B's session runs out in Redis: its lock is free for A's next session.
    advance(B.ds.sessions.peek(b)!.timeout + 1)
    const a2 = await sessionOf(A)
    await lockThrough(A, a2)
    expect(holderIn(A)).toBe(a2)
    expect(JSON.parse((await redis.get('test:l:Employee:1'))!).i).toBe(a2)
  })
})
