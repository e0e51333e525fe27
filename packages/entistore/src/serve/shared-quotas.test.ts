/**
 * The web server quotas of `serve --workers N`, counted across the workers: two REST handlers,
 * each a worker of a primary run with fake workers (workers.ts), their counts and their sessions
 * going through it as cluster's IPC would carry them. Turns are run by hand: a request never waits
 * for the primary, and the overshoot is what the others admitted in the turn not yet heard of.
 */
import { createDatastore, ManualClock } from '@entistore/core'
import {
  BatchedCounts,
  createRestHandler,
  ReportedSessions,
  type RestHandler,
  type WebQuotas,
} from '@entistore/rest'
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
      const sessions = new ReportedSessions(
        (mine) => events.message({ entistore: 'sessions', ...mine }),
        (fn) => turns.push(fn),
      )
      const ds = createDatastore(writeModel(), { data: writeData(), clock })
      handlers.push(
        createRestHandler(ds, { quotas, sharedCounts: shared, sharedSessions: sessions }),
      )
      return {
        id,
        pid: 1000 + id,
        stop: () => events.exit(0, null),
        kill: () => {},
        send: (m) => {
          if (m.entistore === 'sessions') return sessions.heard(m)
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

  // Issue 78: each worker counted the sessions it holds only, and a client that only reads by
  // key was no session at all. A guest is one wherever it was opened.
  it('nbGuestSessions and nbSessions count the guests of every worker, readers by key included', async () => {
    for (const quotas of [{ nbGuestSessions: 2 }, { nbSessions: 2 }]) {
      const w = workers(2, quotas)
      /** A client with its own cookie jar, reading an entity by key through worker `i`. */
      const reader = () => {
        let cookie: string | undefined
        return async (i: number) => {
          const init = cookie === undefined ? {} : { headers: { cookie } }
          const r = await w.handlers[i]!.request('/rest/Company(1)', init)
          cookie = r.headers.get('set-cookie')?.split(';')[0] ?? cookie
          return r.status
        }
      }
      const [a, b] = [reader(), reader()]
      // A guest kept on each worker (the second request brings its cookie back).
      expect([await a(0), await a(0), await b(1), await b(1)]).toEqual([200, 200, 200, 200])
      w.endTurn()
      // A third guest is refused on either worker; the two others are served.
      for (const i of [0, 1]) {
        const third = await w.handlers[i]!.request('/rest/Company(1)')
        expect([i, third.status, third.headers.get('retry-after')]).toEqual([i, 429, ''])
        const body = (await third.json()) as { __ERROR: { message: string }[] }
        expect(body.__ERROR[0]!.message).toContain(Object.keys(quotas)[0])
      }
      expect([await a(0), await b(1)]).toEqual([200, 200])
    }
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
