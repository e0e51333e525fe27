/**
 * Hostile clients of class functions on a real socket (issue 28, items 9–11): URL `$params` that a
 * body could not carry, a call with 500,000 arguments, a function that never settles. Each attack
 * runs while a watch sends fresh GETs on new connections: they must keep answering, each within a
 * few turns of the event loop (counted, not timed: node/responsiveness.fixture.ts), and the
 * function attacked must never run.
 */
import { createDatastore, defineFunctions, type ModelJson } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { json, send, type Answer } from '../node/conformance.fixture.js'
import { TURNS_WAITED, watchResponsiveness } from '../node/responsiveness.fixture.js'
import { serveOnSocket } from '../node/serve.fixture.js'
import { manualSchedule } from '../schedule.fixture.js'
import { countedTurns } from '../slices/counted-turns.fixture.js'

const model: ModelJson = {
  __NAME: 'hostile',
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string' },
      ],
    },
  ],
}

/** A datastore whose functions count their calls. */
function datastore() {
  const calls = { echo: 0, stuck: 0 }
  const functions = defineFunctions({
    dataStore: {
      echo: {
        exposed: true,
        onHTTPGet: true,
        call(...args: unknown[]) {
          calls.echo++
          return args.length
        },
      },
      stuck: {
        exposed: true,
        onHTTPGet: true,
        call() {
          calls.stuck++
          return new Promise(() => {})
        },
      },
    },
  })
  const ds = createDatastore(model, { data: { Company: [{ ID: 1, name: 'Acme' }] }, functions })
  return { ds, calls }
}

const errCodes = (answer: Answer): number[] =>
  (json(answer).__ERROR as { errCode: number }[]).map((e) => e.errCode)

/** Sends `count` requests made by `make(i)`, `parallel` at a time; every answer. */
async function flood(count: number, parallel: number, make: (i: number) => Promise<Answer>) {
  const answers: Answer[] = []
  for (let i = 0; i < count; i += parallel)
    answers.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(parallel, count - i) }, (_, j) => make(i + j)),
      )),
    )
  return answers
}

/** The requests of a flood in flight at once. */
const IN_FLIGHT = 30

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)

describe('hostile calls of class functions, on a socket', () => {
  it('refuses URL $params a body could not carry (a __proto__ key, 1,500 levels) with 400 1806, before any function runs', async () => {
    const { ds, calls } = datastore()
    const { base, internal } = await serveOnSocket(ds)
    const attacks = [
      '[{"__proto__":{"admin":true}}]',
      '[{"a":{"constructor":{"prototype":{"polluted":1}}}}]',
      nested(1500),
    ].map((p) => `/rest/$catalog/echo?$params=${encodeURIComponent(p)}`)
    const watch = watchResponsiveness(`${base}/rest/Company(1)`, { counted: countedTurns() })
    const answers = await flood(300, IN_FLIGHT, (i) =>
      send(base, {
        // POST with an empty body takes `$params` too.
        method: i % 2 === 0 ? 'GET' : 'POST',
        target: attacks[i % attacks.length]!,
      }),
    )
    const seen = await watch.stop()
    expect(new Set(answers.map((a) => `${a.status} ${errCodes(a).join(',')}`))).toEqual(
      new Set(['400 1806']),
    )
    expect(json(answers[0]!).__ERROR[0].message).toMatch(
      /key "__proto__" \(at \$\[0\]\.__proto__\)/,
    )
    expect(json(answers[2]!).__ERROR[0].message).toMatch(/deeper than 64 levels/)
    expect(calls.echo).toBe(0)
    expect(internal).toEqual([])
    expect(seen.failed).toBe(0)
    // A fresh GET takes its place among the requests in flight, about a turn each (10 in flight:
    // 10-12 turns waited; 30: 21-32), never the flood's end (its 300 requests take 322 turns).
    expect(seen.turnsWaited).toBeLessThanOrEqual(TURNS_WAITED + IN_FLIGHT)
    // The same function still takes what a body may carry.
    const fine = await send(base, {
      target: `/rest/$catalog/echo?$params=${encodeURIComponent('[{"a":[1]}, 2]')}`,
    })
    expect([fine.status, json(fine)]).toEqual([200, { result: 2 }])
  })

  it('refuses a call with 500,000 arguments with 400 9011, before the function runs', async () => {
    const { ds, calls } = datastore()
    const { base, internal } = await serveOnSocket(ds)
    // 1,000,001 bytes: within the default body limit (1 MiB).
    const body = `[${new Array(500_000).fill('0').join(',')}]`
    const watch = watchResponsiveness(`${base}/rest/Company(1)`, { counted: countedTurns() })
    const answers = await flood(12, 4, () =>
      send(base, {
        method: 'POST',
        target: '/rest/$catalog/echo',
        headers: { 'content-type': 'application/json' },
        body,
      }),
    )
    const seen = await watch.stop()
    for (const a of answers) {
      expect([a.status, errCodes(a)]).toEqual([400, [9011]])
      expect(json(a).__ERROR[0].message).toBe(
        '500000 arguments to the function "echo" exceeds the limit of 1000',
      )
    }
    expect(calls.echo).toBe(0)
    expect(internal).toEqual([])
    expect(seen.failed).toBe(0)
    expect(seen.turnsWaited).toBeLessThanOrEqual(TURNS_WAITED)
  })

  it('answers a function that never settles with 504 9106 at its time limit, serving others meanwhile', async () => {
    const { ds, calls } = datastore()
    const timers = manualSchedule()
    const { base, internal } = await serveOnSocket(ds, { schedule: timers.schedule })
    const watch = watchResponsiveness(`${base}/rest/Company(1)`, { counted: countedTurns() })
    const stuck = Promise.all(
      Array.from({ length: 20 }, () => send(base, { target: '/rest/$catalog/stuck' })),
    )
    await timers.until(20)
    expect(calls.stuck).toBe(20)
    // Twenty calls pending: a fresh GET still answers.
    const read = await send(base, { target: '/rest/Company(1)' })
    expect([read.status, json(read).name]).toEqual([200, 'Acme'])
    expect(new Set(timers.pending)).toEqual(new Set([30_000]))
    timers.fireAll()
    for (const a of await stuck) expect([a.status, errCodes(a)]).toEqual([504, [9106]])
    const seen = await watch.stop()
    expect(seen.failed).toBe(0)
    expect(seen.turnsWaited).toBeLessThanOrEqual(TURNS_WAITED)
    // A 504 is the function's time, not a bug: nothing for onInternalError.
    expect(internal).toEqual([])
  })
})
