/**
 * The in-memory Redis of the mirrors' tests (fake-redis.fixture.ts) against a real redis-server:
 * the same calls, in the same order, on both (the participant's Lua scripts there, their
 * TypeScript here), give the same answers, publish the same messages and leave the same keys.
 * Both run on real time, so that TTLs run out on both alike; remaining lives are compared as
 * live or not, since the two clocks read a few ms apart.
 */
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { redisMissing, startRedis, type RedisServer } from '../redis-server.fixture.js'
import { defineScripts } from './connect.js'
import { FakeRedis } from './fake-redis.fixture.js'
import type { MirrorCommands } from './mirrors.js'
import type { SetBatch } from './set-mirror.js'
import type { TouchBatch } from './touches.js'

/** Every command of the mirrors, with a MULTI of the sets' commands and a pipeline of touches. */
type Target = Omit<MirrorCommands, 'multi' | 'pipeline'> & {
  multi(): SetBatch
  pipeline(): TouchBatch
}

const missing = redisMissing()
let server: RedisServer
const clients: Redis[] = []

beforeAll(async () => {
  if (!missing) server = await startRedis()
})
afterAll(async () => {
  await Promise.all(clients.map((c) => c.quit()))
  await server?.stop()
})

const P = 'agree:'
const session = (created: number) => JSON.stringify({ c: created, t: 60_000, e: 1 })
const lock = (sid: string, key: number | string) =>
  JSON.stringify({ i: sid, d: 'Employee', k: key })
const isLock = (item: unknown) => typeof item === 'string' && item.startsWith('{"i":')
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The scripts and commands of one scenario, each step's answer kept. */
async function scenario(r: Target, keys: () => Promise<string[]>): Promise<unknown[]> {
  const out: unknown[] = []
  const step = async (answer: Promise<unknown>) => out.push(await answer)
  const told = (id: string) => `{"o":"me","n":1,"t":"session","id":"${id}"`
  await step(r.esSave(`${P}s:a`, P, session(1), 60_000, 'open', '', '0'))
  await step(r.esSave(`${P}s:b`, P, session(2), 60_000, 'open', '', '0'))
  // Short, but long enough that a busy machine's steps before it expires leave it 20 ms and
  // more (a life of 40 ms had 18 left at the 11th step once, on a loaded machine).
  await step(r.esSave(`${P}s:short`, P, session(3), 1_000, 'open', '', '0'))
  // A lock: taken, refused to another, asked by a session that is gone, its holder read.
  await step(r.esAcquire(`${P}l:x`, `${P}locks`, lock('a', 1), 'a', P))
  await step(r.esAcquire(`${P}l:x`, `${P}locks`, lock('a', 1), 'a', P))
  await step(r.esAcquire(`${P}l:x`, `${P}locks`, lock('b', 1), 'b', P))
  await step(r.esAcquire(`${P}l:y`, `${P}locks`, lock('nobody', 2), 'nobody', P))
  await step(r.esAcquire(`${P}l:z`, `${P}locks`, lock('short', 'k/3'), 'short', P))
  await step(r.esHolder(`${P}l:x`, P))
  await step(r.esHolder(`${P}l:y`, P))
  await step(r.esRelease(`${P}l:x`, `${P}locks`, 'b', P))
  await step(r.esLocks(`${P}locks`, P))
  // The processes serving: p1 live, p2 listed but gone (dropped by the next change told).
  await step(r.multi().set(`${P}m:p1`, '1', 'PX', 60_000).sadd(`${P}members`, 'p1').exec())
  await step(r.multi().sadd(`${P}members`, 'p2').exec())
  // A user on a: the index of open sessions counts it among those with a user; a session gone
  // is not brought back, nor indexed.
  await step(r.esSave(`${P}s:a`, P, session(1), 60_000, 'save', told('a'), '1'))
  await step(r.esSave(`${P}s:gone`, P, session(4), 60_000, 'save', told('gone'), '0'))
  await step(r.esSessions(P))
  // A login: the session and its lock under the new id, the old one gone.
  const renewed = [`${P}s:a`, `${P}s:a/2`, `${P}locks`, 'a', 'a/2', session(1), 60_000] as const
  await step(r.esRenew(...renewed, P, told('a'), '1'))
  await step(r.multi().get(`${P}l:x`).get(`${P}s:a`).pttl(`${P}s:a/2`).exec())
  await step(r.esClose(`${P}s:b`, `${P}locks`, 'b', P, told('b')))
  await step(r.esSessions(P))
  // Sets and their owners' lists, with their lives lengthened only (NX, GT).
  await step(
    r
      .multi()
      .set(`${P}e:1`, '{"dc":"Employee"}', 'PX', 30_000)
      .sadd(`${P}os:a`, '1')
      .pexpire(`${P}os:a`, 30_000, 'NX')
      // Longer by far: the same 30 s lengthened it or not as a millisecond passed in between.
      .pexpire(`${P}os:a`, 40_000, 'GT')
      .exec(),
  )
  await step(r.multi().pexpire(`${P}os:a`, 10_000, 'NX').pexpire(`${P}os:a`, 5_000, 'GT').exec())
  await step(r.pipeline().pexpire(`${P}e:1`, 50_000).pexpire(`${P}e:none`, 50_000).exec())
  await step(r.exists(`${P}e:1`))
  await step(r.smembers(`${P}os:a`))
  await step(r.set(`${P}set-id-key`, 'first', 'NX'))
  await step(r.set(`${P}set-id-key`, 'second', 'NX'))
  await step(r.get(`${P}set-id-key`))
  await step(r.srem(`${P}os:a`, '1', '2'))
  await step(r.multi().del(`${P}e:1`).publish(`${P}events`, 'released').exec())
  // The short session expires: its lock is free, and LOCKS drops it; the index, once read.
  await sleep(1_100)
  await step(r.esSessions(P))
  await step(r.esHolder(`${P}l:z`, P))
  await step(r.esLocks(`${P}locks`, P))
  await step(r.esRelease(`${P}l:x`, `${P}locks`, '', P))
  await step(r.esLocks(`${P}locks`, P))
  out.push(await keys())
  return out
}

/**
 * An answer with remaining lives (20 ms and more) as 'ttl', lists of members sorted, and the
 * triples of LOCKS sorted (both come in the order of a Redis set, which is no order).
 */
function normalized(value: unknown): unknown {
  if (typeof value === 'number') return value >= 20 ? 'ttl' : value
  if (!Array.isArray(value)) return value
  const items = value.map(normalized)
  if (items.length % 3 === 0 && items.length > 0 && items.every((i, n) => n % 3 !== 0 || isLock(i)))
    return Array.from({ length: items.length / 3 }, (_, n) => items.slice(3 * n, 3 * n + 3))
      .map((triple) => JSON.stringify(triple))
      .sort()
  return items.every((i) => typeof i === 'string' && !i.startsWith('{')) ? items.sort() : items
}

describe.skipIf(missing)('the fake Redis and a real one', () => {
  it('answer the same calls alike, publish the same messages and keep the same keys', async () => {
    const real = new Redis(server.url)
    const sub = new Redis(server.url)
    clients.push(real, sub)
    const heard: string[] = []
    sub.on('message', (_channel: string, text: string) => heard.push(text))
    await sub.subscribe(`${P}events`)
    const fake = new FakeRedis(() => performance.now())
    const fakeHeard: string[] = []
    fake.subscribe(`${P}events`, (text) => fakeHeard.push(text))

    const expected = await scenario(defineScripts(real), () => real.keys(`${P}*`))
    const got = await scenario(fake, async () => fake.keys())
    got.forEach((answer, i) =>
      expect([i, normalized(answer)]).toEqual([i, normalized(expected[i])]),
    )
    await sleep(50)
    expect(fakeHeard).toEqual(heard)
    expect(heard).toHaveLength(4)
    // The lock was given to the new id in place, `i` encoded as cjson does (`/` escaped).
    const renewed = (expected[18] as [null, unknown][])[0]
    expect(renewed).toEqual([null, lock('a/2', 1).replace('a/2', 'a\\/2')])
    expect(JSON.parse(renewed![1] as string)).toEqual(JSON.parse(lock('a/2', 1)))
    // The open sessions: a (with a user), b and short; then a/2 and short; then a/2 alone.
    expect([expected[16], expected[20], expected[31]]).toEqual([
      [3, 1],
      [2, 1],
      [1, 1],
    ])
  })
})
