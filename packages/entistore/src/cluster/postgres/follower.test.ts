// Following the log, without PostgreSQL: a fake listening connection delivers the notifications,
// the log's reads are counted, the store is a real one. A notification that follows on from what
// is applied is applied without reading the log; one past a gap, or unreadable, makes it read
// the log; this process's own is skipped; an acknowledgement is passed on. And the lag's summary.
import { EventEmitter } from 'node:events'
import { createDatastore, type LogRecord } from '@entistore/core'
import type pg from 'pg'
import { describe, expect, it } from 'vitest'
import type { ClusterWrites } from '../cluster-core.js'
import { Follower, LagStats, type FollowerLog } from './follower.js'
import { ITEM_MODEL, itemInsert as insert } from './items.fixture.js'
import type { LogRows } from './log.js'

const tick = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve()
}

function setUp(log: LogRows[] = [], acksFromStart = true) {
  const ds = createDatastore(ITEM_MODEL)
  const client = Object.assign(new EventEmitter(), {
    connect: async () => undefined,
    end: async () => undefined,
  })
  const reads: number[] = []
  const caughtUp: number[] = []
  const acks: [number, string][] = []
  const errors: Error[] = []
  const behind: string[] = []
  // What the listening connection was asked: LISTEN (with acknowledgements or not), then more.
  const listens: string[] = []
  const fake: FollowerLog = {
    pool: {} as pg.Pool,
    origin: 'me',
    ackChannel: 'rec_p_ack',
    catchUpRows: 1000,
    listenerClient: () => client as unknown as pg.Client,
    listen: async (_client, acks) => void listens.push(acks ? 'log+acks' : 'log'),
    hearAcks: async () => void listens.push('acks'),
    after: async (_client, seq) => {
      reads.push(seq)
      return log.shift() ?? { rows: [], floor: undefined }
    },
  }
  const writes = {
    behind: undefined,
    exclusive: <T>(fn: () => Promise<T>) => fn(),
    applyNow: (fn: () => void) => (fn(), true),
    fallBehind: (why: string) => void behind.push(why),
  } as unknown as ClusterWrites
  const stop = new AbortController()
  const follower = new Follower(fake, ds, 0, {
    onError: (e) => errors.push(e),
    signal: stop.signal,
    caughtUp: (applied) => void caughtUp.push(applied),
    heardAck: (seq, origin) => void acks.push([seq, origin]),
    acks: acksFromStart,
  })
  const notify = (channel: string, payload: string) =>
    client.emit('notification', { channel, payload, processId: 1 })
  return {
    ds,
    follower,
    writes,
    reads,
    caughtUp,
    acks,
    errors,
    behind,
    notify,
    stop,
    client,
    listens,
  }
}

const keys = (ds: ReturnType<typeof createDatastore>) =>
  ds
    .dataClass('Item')
    .all()
    .toArray()
    .map((e) => e.key)

const notice = (prev: number, first: number, last: number, origin: string, records?: LogRecord[]) =>
  `${prev}:${first}:${last}:${Date.now()}:${origin}\n${records ? JSON.stringify(records) : ''}`

describe('following the log', () => {
  it('catches up from the log when it starts listening', async () => {
    const { follower, writes, reads, ds } = setUp([
      { rows: [{ seq: 1, origin: 'b', at: Date.now(), record: insert(1) }], floor: 0 },
    ])
    await follower.start(writes, 60_000)
    await tick()
    follower.stop()
    expect(reads).toEqual([0])
    expect(keys(ds)).toEqual([1])
    expect(follower.applied).toBe(1)
  })

  it('applies a notification that follows on without reading the log, and says so', async () => {
    const { follower, writes, reads, caughtUp, notify, ds } = setUp()
    await follower.start(writes, 60_000)
    await tick()
    reads.length = 0
    caughtUp.length = 0
    notify('rec_p_log', notice(0, 1, 2, 'b:1', [insert(1), insert(2)]))
    await tick()
    follower.stop()
    expect(reads).toEqual([])
    expect(keys(ds)).toEqual([1, 2])
    expect(follower.applied).toBe(2)
    expect(caughtUp).toEqual([2])
    expect(follower.lag().count).toBe(1)
  })

  it('reads the log past a gap, and for a notification without its records', async () => {
    const { follower, writes, reads, notify, ds } = setUp()
    await follower.start(writes, 60_000)
    await tick()
    reads.length = 0
    // Rows 1-2 were missed: the notification of 3 does not follow on.
    notify('rec_p_log', notice(2, 3, 3, 'b', [insert(3)]))
    await tick()
    expect(reads).toEqual([0])
    expect(keys(ds)).toEqual([])
    notify('rec_p_log', notice(0, 1, 1, 'b'))
    await tick()
    follower.stop()
    expect(reads).toEqual([0, 0])
  })

  it('skips its own notifications, passes acknowledgements on, reads the log for an unreadable one', async () => {
    const { follower, writes, reads, acks, notify, ds } = setUp()
    await follower.start(writes, 60_000)
    await tick()
    reads.length = 0
    notify('rec_p_log', notice(0, 1, 1, 'me', [insert(1)]))
    notify('rec_p_ack', '7 b:1')
    notify('rec_p_ack', 'nonsense')
    await tick()
    expect(reads).toEqual([])
    expect(keys(ds)).toEqual([])
    expect(acks).toEqual([[7, 'b:1']])
    notify('rec_p_log', '0:1:1:5:b\n[not json')
    await tick()
    follower.stop()
    expect(reads).toEqual([0])
  })

  it('stops following when the log it needs was compacted away', async () => {
    const { follower, writes, errors, behind } = setUp([
      { rows: [{ seq: 9, origin: 'b', at: 0, record: insert(9) }], floor: 5 },
    ])
    await follower.start(writes, 60_000)
    await tick()
    follower.stop()
    const why = 'the log up to 5 was compacted away, and this process applied up to 0'
    expect(behind).toEqual([why])
    expect(errors.map((e) => e.message)).toContain(
      `entistore cluster: ${why}; restart this process`,
    )
    expect(follower.applied).toBe(0)
  })
})

describe('acknowledgements heard', () => {
  it('from the start where every process appends', async () => {
    const { follower, writes, listens } = setUp()
    await follower.start(writes, 60_000)
    expect(listens).toEqual(['log+acks'])
    expect(follower.hearAcks()).toBeUndefined()
    follower.stop()
  })

  it('under one writer, from before the first append on, and again after a reconnection', async () => {
    const { follower, writes, listens, client } = setUp([], false)
    await follower.start(writes, 60_000)
    expect(listens).toEqual(['log'])
    const hearing = follower.hearAcks()
    expect(hearing).toBeInstanceOf(Promise)
    await hearing
    expect(listens).toEqual(['log', 'acks'])
    // Once is enough: the next appends go at once.
    expect(follower.hearAcks()).toBeUndefined()
    client.emit('end')
    await new Promise((resolve) => setTimeout(resolve, 120))
    expect(listens).toEqual(['log', 'acks', 'log+acks'])
    follower.stop()
  })
})

describe('the lag', () => {
  it('sums up the last samples', () => {
    const lag = new LagStats(4)
    expect(lag.summary()).toEqual({ count: 0, p50: 0, p99: 0, max: 0 })
    for (const ms of [5, 1, 9, 3, 7, 2]) lag.add(ms)
    // The last four: 9, 3, 7, 2.
    expect(lag.summary()).toEqual({ count: 6, p50: 7, p99: 9, max: 9 })
  })
})
