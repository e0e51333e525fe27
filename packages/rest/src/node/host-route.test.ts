/**
 * Issue 47, embedded: Entistore mounted in a host's node:http server never holds the host's own
 * routes. A heavy read is held between two of its slices (the test runs its turns), and meanwhile
 * the host's plain route, a GET by key and a disconnect are all answered; then the read goes on
 * and answers as it would have in one piece. Ordered by events, never by time.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createDatastore, type ModelJson } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { createRestHandler } from '../handler.js'
import { toNodeListener } from './index.js'
import { closedAfterTest } from './serve.fixture.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'salary', type: 'number' },
        { name: 'city', type: 'string' },
      ],
    },
  ],
}
const N = 50_000

describe('a host server with Entistore mounted', () => {
  it('answers its own route and cheap reads while a heavy read waits between slices', async () => {
    const ds = createDatastore(model)
    ds.loadData({
      Item: Array.from({ length: N }, (_, i) => ({
        ID: i + 1,
        salary: (i * 7919) % 10_000,
        city: i % 2 ? 'Évry' : 'Paris',
      })),
    })
    // The heavy read's turns wait here while `held`.
    let held = true
    const waiting: (() => void)[] = []
    const handler = createRestHandler(ds, {
      sliceMs: 0,
      nextTurn: (fn) => (held ? waiting.push(fn) : setImmediate(fn)),
    })
    const rest = toNodeListener(handler)
    const host = closedAfterTest(
      createServer((req, res) => {
        if (req.url === '/ping') res.end('pong')
        else rest(req, res)
      }),
    )
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve))
    const base = `http://127.0.0.1:${(host.address() as AddressInfo).port}`

    const heavyUrl = `${base}/rest/Item?$filter="city='é@' and salary>10"&$orderby=salary desc&$top=3`
    let heavyDone = false
    const heavy = fetch(heavyUrl).then(async (r) => {
      heavyDone = true
      return (await r.json()) as { __COUNT: number; __ENTITIES: { ID: number }[] }
    })
    // Loop turns until the read has run its first slice and waits for its next.
    while (waiting.length === 0) await new Promise((r) => setImmediate(r))

    expect(await (await fetch(`${base}/ping`)).text()).toBe('pong')
    const byKey = (await (await fetch(`${base}/rest/Item(42)`)).json()) as { ID: number }
    expect(byKey.ID).toBe(42)
    expect(heavyDone).toBe(false)

    held = false
    for (const fn of waiting.splice(0)) setImmediate(fn)
    const answer = await heavy
    const whole = createRestHandler(ds, { sliceMs: Infinity })
    const expected = await (
      await whole.request(
        `/rest/Item?$filter="city='é@' and salary>10"&$orderby=salary desc&$top=3`,
      )
    ).json()
    expect(answer).toEqual(expected)
    expect(answer.__COUNT).toBeGreaterThan(20_000)
  })
})
