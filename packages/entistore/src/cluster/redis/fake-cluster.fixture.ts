/**
 * @module Processes of a test sharing one in-memory Redis (fake-redis.fixture.ts): each a
 * datastore on the writes fixture's model and data, with its mirrors wired as the participant
 * wires them (mirrors.ts). Test-only.
 */
import { createDatastore, ManualClock, type Datastore } from '@entistore/core'
import { writeData, writeModel } from '../../../../core/src/txn/writes.fixture.js'
import { FakeRedis } from './fake-redis.fixture.js'
import { createMirrors, type MirrorCommands, type Mirrors } from './mirrors.js'

/** A process of a test: its datastore (on the writes fixture's model and data) and its mirrors. */
export interface FakeProcess extends Mirrors {
  readonly ds: Datastore
  readonly clock: ManualClock
  /** What the mirrors reported (failures no request waits for). */
  readonly errors: unknown[]
  /** Resolves once every write to Redis made so far has an answer. */
  written(): Promise<void>
  stop(): void
}

/**
 * A connection to `redis` with some commands answered otherwise (late, or not as Redis would): a
 * process whose view of Redis a test bends. The others are the fake's own, bound to it (its
 * methods read its private fields).
 */
export function bentConnection(
  redis: FakeRedis,
  overrides: Partial<MirrorCommands>,
): MirrorCommands {
  return new Proxy(redis, {
    get(target, name) {
      const own = (overrides as Record<PropertyKey, unknown>)[name]
      if (own !== undefined) return own
      const value: unknown = Reflect.get(target, name, target)
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value
    },
  })
}

/**
 * Processes sharing one in-memory Redis, wired as the participant wires them (mirrors.ts), each
 * hearing the others' messages; one manual time runs the datastores' clocks and the fake's TTLs.
 * No lease is taken up (no heartbeat runs): every session a request names is read from Redis.
 */
export function fakeCluster(start = Date.UTC(2026, 0, 1)) {
  let ms = start
  const redis = new FakeRedis(() => ms)
  const clocks: ManualClock[] = []
  /** A process; `connection` makes its connection to Redis (by default, the fake itself). */
  const process = (connection: (redis: FakeRedis) => MirrorCommands = (r) => r): FakeProcess => {
    const clock = new ManualClock(ms)
    clocks.push(clock)
    const ds = createDatastore(writeModel(), { data: writeData(), clock })
    const errors: unknown[] = []
    const m = createMirrors(ds, connection(redis), { prefix: 'test:', now: () => ms }, (e) =>
      errors.push(e),
    )
    const stops = [
      ...m.observe(),
      redis.subscribe(m.keys.channel, (text) => m.onMessage(text)),
      redis.subscribe(m.presence.channel, (text) => m.presence.onDirect(text)),
    ]
    const written = async () => {
      await m.pending.settled()
      await m.pending.written()
    }
    return { ...m, ds, clock, errors, written, stop: () => stops.forEach((stop) => stop()) }
  }
  /** Moves every clock on by `step` ms. */
  const advance = (step: number) => {
    ms += step
    for (const clock of clocks) clock.advance(step)
  }
  return { redis, process, advance }
}
