/**
 * Issue 30: a large load leaves its indexes to build. A read whose query needs one waits for it
 * (built in slices, `ds.indexesReady`) instead of building it in one piece inside the request,
 * which at 1M rows held every other request for 626 ms. The slices here are run by the test (an
 * injected scheduler), so what comes between two of them is chosen, not raced.
 */
import { createDatastore, type ModelJson } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { isPending, type RestReply, type RestRequest } from '../exchange.js'
import { createRestHandler } from '../handler.js'
import { replyText } from '../sync-reply.fixture.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Person',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'code', type: 'string', unique: true, indexed: true },
        { name: 'city', type: 'string', indexed: true },
        { name: 'age', type: 'long', indexed: true },
      ],
    },
  ],
}
const CITIES = ['Paris', 'Pau', 'Oslo', 'Évry']
const N = 20_000

const setup = () => {
  const ds = createDatastore(model)
  ds.loadData({
    Person: Array.from({ length: N }, (_, i) => ({
      ID: i + 1,
      code: `C${String(i + 1).padStart(6, '0')}`,
      city: CITIES[i % CITIES.length]!,
      age: i % 90,
    })),
  })
  const slices: (() => void)[] = []
  // One chunk of work a slice (no time left after the first check).
  ds.configureIndexBuilds({ schedule: (slice) => slices.push(slice), sliceMs: 0 })
  // The reads too stop at every step (`sliceMs: 0`): with 5 ms a slice, a warm machine scanned the
  // 20k rows in the first slice and the read was not pending (it failed after the core suite).
  return {
    ds,
    rest: createRestHandler(ds, { sliceMs: 0 }),
    slices,
    indexes: ds.dataClass('Person').table.indexes,
  }
}

const get = (path: string): RestRequest => {
  const [p, q = ''] = path.split('?') as [string, string?]
  return { method: 'GET', path: p, query: q, headers: {} }
}
const json = (reply: RestReply): Record<string, unknown> =>
  JSON.parse(replyText(reply.body)) as Record<string, unknown>
/** `reply` once settled, the slices run meanwhile (a read waits again for each index it needs). */
async function settled(reply: RestReply | Promise<RestReply>, slices: (() => void)[]) {
  let done = false
  void Promise.resolve(reply).then(() => (done = true))
  while (!done)
    if (slices.length > 0) slices.shift()!()
    else await new Promise((resolve) => setTimeout(resolve, 0))
  return reply
}
const keysOf = (body: Record<string, unknown>) =>
  (body.__ENTITIES as { __KEY: string }[]).map((e) => Number(e.__KEY)).sort((a, b) => a - b)

describe('a read that needs an index being built', () => {
  it('waits for it while other requests and writes go on, then answers through the index', async () => {
    const { ds, rest, slices, indexes } = setup()
    expect(indexes.unbuilt).toBe(4)
    const waiting = rest.respond(get("/rest/Person?$filter=city='Lyon'&$queryplan=true"))
    expect(isPending(waiting)).toBe(true)
    // Meanwhile a read by key answers at once; writes go through between two slices.
    const byKey = rest.respond(get('/rest/Person(5)'))
    expect(isPending(byKey)).toBe(false)
    expect((byKey as RestReply).status).toBe(200)
    let ran = 0
    const run = (n: number) => {
      for (let i = 0; i < n && slices.length > 0; i++, ran++) slices.shift()!()
    }
    run(3)
    expect(indexes.ready(['city'])).toBe(false)
    ds.dataClass('Person').get(7)!.edit({ city: 'Lyon' }).saveOrFail()
    ds.dataClass('Person').get(N)!.edit({ city: 'Lyon' }).saveOrFail()
    while (!indexes.ready(['city'])) run(1)
    // Built in many slices (20,000 rows: ten chunks to read, two runs to sort and merge).
    expect(ran).toBeGreaterThan(10)
    const reply = await waiting
    expect(reply.status).toBe(200)
    const body = json(reply)
    expect(keysOf(body)).toEqual([7, N])
    expect(body.__queryPlan).toEqual({ item: '[index : Person.city ] === Lyon' })
    // Only what the read needed was built. The writes' unique check read every row into the
    // hash index of `code` (in one piece: a write does not wait), its sort left to the slices.
    expect(indexes.unbuilt).toBe(3)
    // Built now: the same read answers at once.
    expect(isPending(rest.respond(get("/rest/Person?$filter=city='lyon'")))).toBe(false)
  })

  it('answers what a scan answers, for a query on several indexes, an ordering and a write between', async () => {
    const { ds, rest, slices } = setup()
    const path = "/rest/Person?$filter=age<3 AND city='oslo'&$orderby=code desc&$top=5"
    const waiting = rest.respond(get(path))
    expect(isPending(waiting)).toBe(true)
    for (let i = 0; i < 5; i++) slices.shift()?.()
    ds.dataClass('Person').get(3)!.dropOrFail()
    const body = json(await settled(waiting, slices))
    const expected = Array.from({ length: N }, (_, i) => i + 1)
      .filter((id) => id !== 3 && (id - 1) % 90 < 3 && (id - 1) % 4 === 2)
      .sort((a, b) => b - a)
      .slice(0, 5)
    expect((body.__ENTITIES as { __KEY: string }[]).map((e) => Number(e.__KEY))).toEqual(expected)
  })

  it('is answered 503 IndexBuilding by the library only inside withoutIndexBuilds; outside, a query builds', () => {
    const { ds, indexes } = setup()
    const Person = ds.dataClass('Person')
    expect(() => ds.withoutIndexBuilds(() => Person.query("code = 'C000001'"))).toThrow(
      expect.objectContaining({
        errCode: 9143,
        details: expect.objectContaining({ attribute: 'code' }),
      }),
    )
    expect(Person.query("code = 'C000001'").length).toBe(1)
    expect(indexes.ready(['code'])).toBe(true)
  })
})
