import { afterEach, describe, expect, it } from 'vitest'
import { createDatastore, type ModelJson } from '@entistore/core'
import type { RestReply } from '@entistore/rest'
import { toNodeListener } from '@entistore/rest/node'
import { chaosListener, seededRandom, type ChaosOptions } from './chaos.js'
import { serve, type RunningServer } from './serve.js'

const model: ModelJson = {
  __NAME: 'chaos',
  dataClasses: [{ name: 'Item', attributes: [{ name: 'ID', type: 'long' }] }],
}

let running: RunningServer | undefined
afterEach(async () => {
  await running?.close()
  running = undefined
})

/** A server whose listener is wrapped by chaosListener; counts the requests that reach it. */
async function start(options: ChaosOptions): Promise<{ url: string; reached: () => number }> {
  const ds = createDatastore(model, { data: { Item: [{ ID: 1 }, { ID: 2 }] } })
  let reached = 0
  running = await serve(ds, {
    port: 0,
    wrapListener: (listener, core) =>
      chaosListener(
        (req, res) => {
          reached++
          listener(req, res)
        },
        core,
        options,
      ),
  })
  return { url: running.url, reached: () => reached }
}

/** A timer that runs nothing until the test says so. */
function manualSchedule() {
  const pending: { fn: () => void; ms: number; cancelled: boolean }[] = []
  let waiting: (() => void) | undefined
  let cancelledOne: (() => void) | undefined
  return {
    schedule: (fn: () => void, ms: number) => {
      const entry = { fn, ms, cancelled: false }
      pending.push(entry)
      waiting?.()
      return () => {
        entry.cancelled = true
        cancelledOne?.()
      }
    },
    /** Resolves once a delay is cancelled. */
    cancelled: new Promise<void>((resolve) => (cancelledOne = resolve)),
    pending,
    /** Resolves once `n` delays are waiting. */
    until(n: number): Promise<void> {
      if (pending.length >= n) return Promise.resolve()
      return new Promise((resolve) => {
        waiting = () => {
          if (pending.length >= n) resolve()
        }
      })
    },
  }
}

describe('--fail-rate', () => {
  it('answers the drawn share of requests 503 with the InjectedFailure body, the rest as usual', async () => {
    const { url, reached } = await start({ failRate: 0.3, random: seededRandom(42) })
    // The same seed drawn the same way says which requests fail.
    const draws = seededRandom(42)
    const expected = Array.from({ length: 60 }, () => (draws() < 0.3 ? 503 : 200))
    const statuses: number[] = []
    for (let i = 0; i < 60; i++) {
      const res = await fetch(`${url}/rest/Item(1)`)
      statuses.push(res.status)
      const body = (await res.json()) as Record<string, unknown>
      if (res.status === 503) {
        expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
        expect(body).toEqual({
          __ERROR: [
            {
              message:
                'Service unavailable: this server fails 30% of requests on purpose (--fail-rate); try again',
              componentSignature: 'enti',
              errCode: 9095,
            },
          ],
        })
      } else expect(body.ID).toBe(1)
    }
    expect(statuses).toEqual(expected)
    const failed = statuses.filter((s) => s === 503).length
    expect(failed).toBeGreaterThan(5)
    expect(failed).toBeLessThan(40)
    // A failed request never reaches the REST interface: it changes nothing.
    expect(reached()).toBe(60 - failed)
  })

  it('fails every request at 1 and none at 0', async () => {
    const all = await start({ failRate: 1 })
    for (let i = 0; i < 5; i++) expect((await fetch(`${all.url}/rest/Item`)).status).toBe(503)
    await running!.close()
    const none = await start({ failRate: 0 })
    for (let i = 0; i < 5; i++) expect((await fetch(`${none.url}/rest/Item`)).status).toBe(200)
  })
})

describe('--delay', () => {
  it('holds each request for a delay drawn from the range before the interface sees it', async () => {
    const timer = manualSchedule()
    const { url, reached } = await start({
      delay: { min: 100, max: 500 },
      random: seededRandom(7),
      schedule: timer.schedule,
    })
    const draws = seededRandom(7)
    const first = fetch(`${url}/rest/Item(1)`)
    const second = fetch(`${url}/rest/Item(2)`)
    await timer.until(2)
    expect(reached()).toBe(0)
    const ms = timer.pending.map((p) => p.ms)
    expect(ms).toEqual([0, 1].map(() => 100 + Math.floor(draws() * 401)))
    for (const m of ms) expect(m >= 100 && m <= 500).toBe(true)
    // The second delay ends first: it is answered first.
    timer.pending[1]!.fn()
    expect(((await (await second).json()) as { ID: number }).ID).toBe(2)
    expect(reached()).toBe(1)
    timer.pending[0]!.fn()
    expect(((await (await first).json()) as { ID: number }).ID).toBe(1)
    expect(reached()).toBe(2)
  })

  it('delays failures too, and a fixed delay always waits the same time', async () => {
    const timer = manualSchedule()
    const { url } = await start({
      delay: { min: 250, max: 250 },
      failRate: 1,
      schedule: timer.schedule,
    })
    const res = fetch(`${url}/rest/Item`)
    await timer.until(1)
    expect(timer.pending[0]!.ms).toBe(250)
    timer.pending[0]!.fn()
    expect((await res).status).toBe(503)
    expect(timer.pending[0]!.cancelled).toBe(false)
  })

  it('holds a request answered later (an async function call) too, then writes its reply', async () => {
    const timer = manualSchedule()
    const ds = createDatastore(model, { data: { Item: [{ ID: 1 }] } })
    let resolve!: (reply: RestReply) => void
    const later = new Promise<RestReply>((ok) => (resolve = ok))
    let called = (): void => {}
    const reached = new Promise<void>((ok) => (called = ok))
    running = await serve(ds, {
      port: 0,
      // The interface behind the delay answers /rest/later with a Promise, the rest at once.
      wrapListener: (_listener, core) =>
        chaosListener(
          toNodeListener({
            ...core,
            respond: (request) => {
              if (request.path !== '/rest/later') return core.respond(request)
              called()
              return later
            },
          }),
          core,
          { delay: { min: 100, max: 100 }, schedule: timer.schedule },
        ),
    })
    const pending = fetch(`${running.url}/rest/later`)
    const now = fetch(`${running.url}/rest/Item(1)`)
    await timer.until(2)
    timer.pending[0]!.fn()
    timer.pending[1]!.fn()
    await reached
    expect(((await (await now).json()) as { ID: number }).ID).toBe(1)
    resolve({
      status: 201,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: '{"later":true}',
    })
    const res = await pending
    expect([res.status, await res.json()]).toEqual([201, { later: true }])
  })

  it('cancels the delay of a request whose connection closes, and answers it nothing', async () => {
    const timer = manualSchedule()
    const { reached, url } = await start({
      delay: { min: 60_000, max: 60_000 },
      schedule: timer.schedule,
    })
    const res = fetch(`${url}/rest/Item`).then(
      (r) => r.status,
      () => 'no answer',
    )
    await timer.until(1)
    // What the CLI does on SIGINT: closing the server closes every connection.
    await running!.close()
    running = undefined
    await timer.cancelled
    expect(timer.pending[0]!.cancelled).toBe(true)
    expect(await res).toBe('no answer')
    expect(reached()).toBe(0)
  })
})

describe('seeded draws', () => {
  it('seededRandom repeats its draws for a seed, differs between seeds, and stays in [0, 1)', () => {
    const a = seededRandom(1)
    const b = seededRandom(1)
    const c = seededRandom(2)
    const as = Array.from({ length: 1000 }, a)
    expect(Array.from({ length: 1000 }, b)).toEqual(as)
    expect(Array.from({ length: 1000 }, c)).not.toEqual(as)
    for (const x of as) expect(x >= 0 && x < 1).toBe(true)
    // Spread evenly enough for a failure rate: about a tenth below 0.1.
    const low = as.filter((x) => x < 0.1).length
    expect(low).toBeGreaterThan(60)
    expect(low).toBeLessThan(140)
  })
})
