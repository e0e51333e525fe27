/**
 * A `$lock=true` of a client without a session, granted by this process's core while Redis gave
 * the lock to another session meanwhile: the request is answered again, through the participant
 * as the first answer was (what the new answer writes waited for too), and refused as Redis
 * decided; when Redis keeps disagreeing with what this process reads of it, it is refused 503
 * after two answers again rather than answered for ever. The other process is one of the
 * in-memory cluster's (fake-cluster.fixture.ts); this one is a whole participant around the REST
 * core, on the same in-memory Redis.
 */
import { createDatastore, ManualClock } from '@entistore/core'
import { createRestHandler, isPending, type RestReply, type RestRequest } from '@entistore/rest'
import type { Redis } from 'ioredis'
import { describe, expect, it } from 'vitest'
import { writeData, writeModel } from '../../../../core/src/txn/writes.fixture.js'
import { ClusterWrites } from '../cluster-core.js'
import { bentConnection, fakeCluster } from './fake-cluster.fixture.js'
import type { FakeRedis } from './fake-redis.fixture.js'
import { RedisParticipant, type Commands } from './redis-participant.js'

const LOCK_REQUEST: RestRequest = {
  method: 'GET',
  path: '/rest/Employee(1)',
  query: '$lock=true',
  headers: { 'content-type': 'application/json', 'user-agent': 'new client' },
  remoteAddress: '127.0.0.1',
}

/**
 * A process around the REST core whose reads of a lock's holder say it is free `lies` times: the
 * lock was let go as it read it, and taken again by the other session before its core took it.
 */
function liarProcess(redis: FakeRedis, lies: number) {
  let told = 0
  const connection = bentConnection(redis, {
    esHolder: (...args) => (told < lies ? (told++, Promise.resolve([1])) : redis.esHolder(...args)),
  }) as Commands
  const ds = createDatastore(writeModel(), {
    data: writeData(),
    clock: new ManualClock(Date.now()),
  })
  // Its subscriber is never used: the test does not `listen` (no lease, sessions read from Redis).
  const participant = new RedisParticipant(
    ds,
    connection,
    {} as Redis,
    { prefix: 'test:' },
    () => {},
  )
  const core = participant.wrap(new ClusterWrites(ds, [participant]).wrap(createRestHandler(ds)))
  return {
    told: () => told,
    respond: async (request: RestRequest): Promise<RestReply> => {
      const reply = core.respond(request)
      return isPending(reply) ? await reply : reply
    },
  }
}

/** Session `a`, opened through the in-memory process A, holds Employee(1) in Redis. */
async function heldThroughA() {
  const { process, redis } = fakeCluster()
  const A = process()
  const a = A.ds.sessions.open().id
  await A.written()
  const asked = { ...LOCK_REQUEST, headers: {} }
  await A.locks.claim(asked, a, { dataClass: 'Employee', key: '1', wanted: true })
  A.ds.locks.take('Employee', 1, { id: a, kind: 'session' })
  A.locks.afterRequest(asked)
  await A.written()
  return { redis, a }
}

const bodyOf = (reply: RestReply) => JSON.parse(String(reply.body)) as Record<string, unknown>

describe('a $lock granted here while Redis gave it to another session', () => {
  it('is answered again and refused as Redis decided (status 3); Redis keeps the holder', async () => {
    const { redis, a } = await heldThroughA()
    const C = liarProcess(redis, 1)
    const reply = await C.respond(LOCK_REQUEST)
    expect({ status: reply.status, body: bodyOf(reply), told: C.told() }).toMatchObject({
      status: 200,
      body: { result: false, __STATUS: { status: 3, statusText: 'Already locked' } },
      told: 1,
    })
    expect(JSON.parse((await redis.get('test:l:Employee:1'))!)).toMatchObject({ i: a })
  })

  it('is refused 503 (SharedStateUnavailable) after two answers again when Redis keeps disagreeing', async () => {
    const { redis, a } = await heldThroughA()
    const C = liarProcess(redis, Infinity)
    const reply = await C.respond(LOCK_REQUEST)
    expect({ status: reply.status, told: C.told() }).toEqual({ status: 503, told: 3 })
    expect(bodyOf(reply)).toMatchObject({
      __ERROR: [{ message: expect.stringContaining('the lock was taken through another process') }],
    })
    expect(JSON.parse((await redis.get('test:l:Employee:1'))!)).toMatchObject({ i: a })
  })
})
