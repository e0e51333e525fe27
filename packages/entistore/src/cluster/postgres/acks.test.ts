// Acknowledgements, without PostgreSQL: their NOTIFY and its payload read back; whom a write waits
// for, among the processes serving; and the waits themselves, on a clock of the test's (a late
// process fenced, its lease waited out; one that cannot be fenced refuses the write's wait).
import type pg from 'pg'
import { describe, expect, it } from 'vitest'
import { ackSql, Acknowledgements, awaited, readAck, type AckLog } from './acks.js'
import type { Member } from './members.js'
import { LogTables } from './schema.js'

const t = new LogTables('rec', 'p_')

describe('an acknowledgement', () => {
  it('is a NOTIFY on the acknowledgements’ channel of `seq origin`', () => {
    expect(ackSql(t, 3, "o'1")).toBe("SELECT pg_notify('rec_p_ack', '3 o''1')")
    expect(() => ackSql(t, -1, 'o')).toThrow('postgres: a log position must be an integer')
  })

  it('is read back, the origin with its spaces; anything else is not one', () => {
    expect(readAck('3 o:1')).toEqual({ seq: 3, origin: 'o:1' })
    expect(readAck('12 host name:9')).toEqual({ seq: 12, origin: 'host name:9' })
    for (const bad of ['', '3', ' o', 'x o', '1.5 o']) expect(readAck(bad)).toBeUndefined()
  })
})

const member = (origin: string, applied: number, evicted = false, remaining = 1000): Member => ({
  origin,
  applied,
  evicted,
  remaining,
})

describe('whom a write waits for', () => {
  it('the processes that have not applied it, by their lease row or an acknowledgement heard', () => {
    const acked = new Map([['c', 10]])
    const { missing, fencedMs } = awaited(
      [member('a', 10), member('b', 9), member('c', 2), member('d', 0)],
      10,
      acked,
    )
    expect([...missing]).toEqual(['b', 'd'])
    expect(fencedMs).toBe(0)
  })

  it('the fenced ones only for the longest time their lease has left', () => {
    const { missing, fencedMs } = awaited(
      [member('a', 1, true, 250.5), member('b', 1, true, 900), member('c', 99, true, 5000)],
      10,
      new Map(),
    )
    expect(missing.size).toBe(0)
    expect(fencedMs).toBe(900)
  })
})

/** A clock of the test's: `run(ms)` runs what is due by then. */
function manualClock() {
  let now = 0
  const timers = new Set<{ at: number; fn: () => void }>()
  return {
    schedule: (fn: () => void, ms: number) => {
      const timer = { at: now + ms, fn }
      timers.add(timer)
      return () => void timers.delete(timer)
    },
    async run(ms: number) {
      now += ms
      for (const timer of [...timers].sort((a, b) => a.at - b.at))
        if (timer.at <= now) {
          timers.delete(timer)
          timer.fn()
        }
      // Let the promises the timers settled run on.
      for (let i = 0; i < 10; i++) await Promise.resolve()
    },
    get pending() {
      return timers.size
    },
  }
}

function setUp(
  evict: AckLog['evict'] = async (origins) => origins.map((origin) => ({ origin, remaining: 0 })),
) {
  const clock = manualClock()
  const errors: Error[] = []
  const sent: [number, pg.Client | undefined][] = []
  const evicted: (readonly string[])[] = []
  const here = { applied: 0, listener: undefined as pg.Client | undefined }
  const stop = new AbortController()
  const log: AckLog = {
    origin: 'me',
    evict: (origins) => {
      evicted.push(origins)
      return evict(origins)
    },
    ack: async (seq, listener) => void sent.push([seq, listener]),
  }
  const acks = new Acknowledgements(log, here, {
    leaseMs: 1000,
    schedule: clock.schedule,
    onError: (e) => errors.push(e),
    signal: stop.signal,
  })
  return { acks, clock, errors, sent, evicted, here, stop }
}

const settled = (p: Promise<void>) => {
  const state = { done: false, error: undefined as unknown }
  p.then(
    () => (state.done = true),
    (e: unknown) => (state.error = e),
  )
  return state
}

describe('a write’s reply', () => {
  it('goes at once when nobody is missing', async () => {
    const { acks } = setUp()
    await acks.acknowledged(5, [member('a', 5)])
  })

  it('goes once every missing process acknowledged, its own acknowledgements not counting', async () => {
    const { acks, clock, evicted } = setUp()
    const wait = settled(acks.acknowledged(5, [member('a', 4), member('b', 0)]))
    acks.heard(5, 'me')
    acks.heard(4, 'a')
    acks.heard(6, 'b')
    await clock.run(0)
    expect(wait.done).toBe(false)
    acks.heard(5, 'a')
    await clock.run(0)
    expect(wait.done).toBe(true)
    // Its timer went with it: nobody is fenced later.
    expect(clock.pending).toBe(0)
    await clock.run(5000)
    expect(evicted).toEqual([])
    // An acknowledgement heard before the write counts too.
    await acks.acknowledged(6, [member('b', 0)])
  })

  it('fences a process that did not acknowledge within the lease, and waits out its lease', async () => {
    const { acks, clock, evicted, errors } = setUp(async () => [{ origin: 'b', remaining: 300 }])
    const wait = settled(acks.acknowledged(5, [member('a', 0), member('b', 0)]))
    acks.heard(5, 'a')
    await clock.run(999)
    expect(evicted).toEqual([])
    await clock.run(1)
    expect(evicted).toEqual([['b']])
    expect(errors.map((e) => e.message)).toEqual([
      'entistore cluster: fenced b, which did not apply log row 5 within 1000 ms',
    ])
    await clock.run(299)
    expect(wait.done).toBe(false)
    await clock.run(1)
    expect(wait.done).toBe(true)
  })

  it('waits out the lease of a process fenced already, without waiting for it', async () => {
    const { acks, clock, evicted } = setUp()
    const wait = settled(acks.acknowledged(5, [member('b', 0, true, 120.2)]))
    await clock.run(120)
    expect(wait.done).toBe(false)
    await clock.run(1)
    expect(wait.done).toBe(true)
    expect(evicted).toEqual([])
  })

  it('is refused (9135) when a late process cannot be fenced', async () => {
    const { acks, clock } = setUp(async () => {
      throw new Error('the connection is gone')
    })
    const wait = settled(acks.acknowledged(5, [member('b', 0)]))
    await clock.run(1000)
    expect(wait.error).toMatchObject({ errCode: 9135 })
    expect(String((wait.error as Error).message)).toContain(
      'b did not acknowledge it within 1000 ms and could not be fenced: the connection is gone',
    )
  })

  it('when the process stops, goes before it does (acknowledged, or the late fenced)', async () => {
    const { acks, clock } = setUp(async () => [])
    void acks.acknowledged(5, [member('b', 0)])
    const drained = settled(acks.drain())
    for (let i = 0; i < 99; i++) await clock.run(10)
    expect(drained.done).toBe(false)
    // Fenced at 1000 ms (gone already): the wait is over, and the drain too.
    await clock.run(10)
    await clock.run(10)
    expect(drained.done).toBe(true)
  })
})

describe('this process’s acknowledgements', () => {
  it('go one at a time, the latest seq applied when each goes, by the listening connection', async () => {
    const { acks, clock, sent, here } = setUp()
    acks.ackSoon()
    expect(sent).toEqual([])
    here.applied = 3
    here.listener = {} as pg.Client
    acks.ackSoon()
    here.applied = 4
    acks.ackSoon()
    here.applied = 7
    await clock.run(0)
    expect(sent).toEqual([
      [3, here.listener],
      [7, here.listener],
    ])
    acks.ackSoon()
    await clock.run(0)
    expect(sent).toHaveLength(2)
  })

  it('stop with the process', async () => {
    const { acks, clock, sent, here, stop } = setUp()
    here.applied = 3
    stop.abort()
    acks.ackSoon()
    await clock.run(0)
    expect(sent).toEqual([])
  })
})
