/**
 * The web server quotas of `serve --workers N`, counted across the workers: two REST handlers,
 * each a worker of a primary run with fake workers (workers.ts), their counts going through it as
 * cluster's IPC would carry them. Turns are run by hand: a request never waits for the primary,
 * and the overshoot is what the others admitted in the turn not yet heard of.
 */
import { createDatastore, ManualClock } from '@entistore/core'
import { BatchedCounts, createRestHandler, type RestHandler, type WebQuotas } from '@entistore/rest'
import { describe, expect, it } from 'vitest'
import { writeData, writeModel } from '../../../core/src/txn/writes.fixture.js'
import { superviseWorkers, type PrimaryMessage, type WorkerEvents } from './workers.js'

// 10:00:15: 45 s left in the minute.
const START = Date.UTC(2026, 0, 1, 10, 0, 15)

function workers(count: number, quotas: WebQuotas) {
  const clock = new ManualClock(START)
  const turns: (() => void)[] = []
  const messages: PrimaryMessage[] = []
  const handlers: RestHandler[] = []
  const reported: unknown[] = []
  void superviseWorkers({
    count,
    fork: (events: WorkerEvents) => {
      const id = handlers.length + 1
      const shared = new BatchedCounts(
        (counts) => {
          reported.push(counts)
          events.message({ entistore: 'counts', counts })
        },
        () => clock.now(),
        (fn) => turns.push(fn),
      )
      const ds = createDatastore(writeModel(), { data: writeData(), clock })
      handlers.push(createRestHandler(ds, { quotas, sharedCounts: shared }))
      return {
        id,
        pid: 1000 + id,
        stop: () => events.exit(0, null),
        kill: () => {},
        send: (m) => {
          messages.push(m)
          shared.heard(m.counts)
        },
      }
    },
    out: () => {},
    err: () => {},
    stopSignal: new Promise(() => {}),
    stopTimeoutMs: 1000,
    now: () => clock.now(),
  })
  return {
    clock,
    handlers,
    messages,
    reported,
    /** Ends the turn: each worker reports what it counted, the primary passes it on. */
    endTurn: () => turns.splice(0).forEach((fn) => fn()),
    status: (w: number) => handlers[w]!.request('/rest/$catalog').then((r) => r.status),
  }
}

describe('quotas across the workers of one serve', () => {
  it('nbRequestsPerMin counts the requests of every worker, heard a turn later', async () => {
    const w = workers(2, { nbRequestsPerMin: 4 })
    expect([await w.status(0), await w.status(0), await w.status(0)]).toEqual([200, 200, 200])
    w.endTurn()
    // Worker 2 heard of 3: one more, and the quota is reached for both.
    expect(await w.status(1)).toBe(200)
    expect(await w.status(1)).toBe(429)
    w.endTurn()
    const refused = await w.handlers[0]!.request('/rest/$catalog')
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('45')
    // The next minute starts again from 0 on both.
    w.clock.advance(45_000)
    expect([await w.status(0), await w.status(1)]).toEqual([200, 200])
  })

  it('lets through at most what the others admit before their turn ends (the bound)', async () => {
    const w = workers(3, { nbRequestsPerMin: 2 })
    // All within one turn: each worker sees only its own, and admits up to the quota.
    const before = await Promise.all([0, 0, 0, 1, 1, 2, 2].map((i) => w.status(i)))
    expect(before).toEqual([200, 200, 429, 200, 200, 200, 200])
    w.endTurn()
    expect([await w.status(0), await w.status(1), await w.status(2)]).toEqual([429, 429, 429])
  })

  it('bytes out: what one worker sent counts on the others', async () => {
    const w = workers(2, { outBytesPerMin: 300 })
    const body = await (await w.handlers[0]!.request('/rest/$catalog')).text()
    expect(body.length).toBeGreaterThan(300)
    w.endTurn()
    expect(await w.status(1)).toBe(429)
  })

  it('sends nothing when no quota is set: no message, not a turn deferred', async () => {
    const w = workers(2, {})
    for (let i = 0; i < 5; i++) expect(await w.status(i % 2)).toBe(200)
    w.endTurn()
    expect(w.reported).toEqual([])
    expect(w.messages).toEqual([])
  })

  it('one message a worker a turn, passed to each other worker once', async () => {
    const w = workers(3, { nbRequestsPerHour: 100 })
    for (let i = 0; i < 4; i++) await w.status(0)
    await w.status(1)
    w.endTurn()
    // Worker 1's and worker 2's reports, each passed on to the two others.
    expect(w.reported).toHaveLength(2)
    expect(w.messages).toHaveLength(4)
  })
})
