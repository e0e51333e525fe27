/**
 * Issue 30, over a socket: the first query that needs an index a large load left unbuilt never
 * builds it in one piece. Before, the build ran inside that query's request: at 1M rows every
 * other request waited 626 ms behind it. Issue 47: the query no longer waits for the build either;
 * it answers by a scan in slices while the index is built first, and the next one uses the index.
 * Counted, not timed (slices/counted-turns.fixture.ts): the build and the scan go one step a
 * slice, one slice a turn, and are counted; a fresh GET waits a few turns, never their end.
 */
import { createDatastore, type ModelJson } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { countedTurns } from '../slices/counted-turns.fixture.js'
import { freshGet, TURNS_WAITED, watchResponsiveness } from './responsiveness.fixture.js'
import { serveOnSocket } from './serve.fixture.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Person',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'code', type: 'string', unique: true, indexed: true },
        { name: 'name', type: 'string', indexed: true },
      ],
    },
  ],
}
const N = 200_000

describe('an index built for a query, over a socket', () => {
  it('answers a query by a scan in slices while its index is built first, then through the index', async () => {
    const ds = createDatastore(model)
    ds.loadData({
      Person: Array.from({ length: N }, (_, i) => ({
        ID: i + 1,
        code: `C${String((i * 7919) % N).padStart(7, '0')}`,
        name: `name ${i % 5000}`,
      })),
    })
    const indexes = ds.dataClass('Person').table.indexes
    // One step a slice (sliceMs 0), one slice a turn, counted; so is the scan's, below.
    let buildSlices = 0
    ds.configureIndexBuilds({
      schedule: (slice) =>
        setImmediate(() => {
          buildSlices++
          slice()
        }),
      sliceMs: 0,
    })
    const counted = countedTurns()
    let scanSlices = 0
    const { base, internal } = await serveOnSocket(ds, {
      turns: counted.turns,
      sliceMs: 0,
      nextTurn: (slice) =>
        setImmediate(() => {
          scanSlices++
          slice()
        }),
    })
    const watch = watchResponsiveness(`${base}/rest/Person(12345)`, { everyMs: 5, counted })
    const order: string[] = []
    const url = `${base}/rest/Person?$filter="code='C0000123'"&$queryplan=true`
    const query = fetch(url).then(async (r) => {
      order.push('query')
      return { status: r.status, json: (await r.json()) as Record<string, unknown> }
    })
    const get = await freshGet(`${base}/rest/Person(7)`)
    order.push(get.ok ? 'get' : 'failed')
    const { status, json } = await query
    // The first answer came from a scan: the index was not built yet.
    expect(status).toBe(200)
    expect(json.__queryPlan).toEqual({ item: 'Person.code === C0000123' })
    expect((json.__ENTITIES as unknown[]).length).toBe(1)
    expect(order).toEqual(['get', 'query'])
    // The scan went a step a slice, a slice a turn (96 slices).
    expect(scanSlices).toBeGreaterThan(40)
    // Its build was put first; once it is done, the same query reads the index.
    await ds.indexesReady('Person', ['code'])
    const again = (await (await fetch(url)).json()) as Record<string, unknown>
    expect(again.__queryPlan).toEqual({ item: '[index : Person.code ] === C0000123' })
    expect(again.__ENTITIES).toEqual(json.__ENTITIES)
    const probes = await watch.stop()
    // Built in 838 steps (in one piece: one slice), none of which a fresh GET waited for.
    expect(buildSlices).toBeGreaterThan(100)
    expect(probes.failed).toBe(0)
    expect(probes.turnsWaited).toBeLessThanOrEqual(TURNS_WAITED)
    // Only the index the query needed was built.
    expect(indexes.ready(['name'])).toBe(false)
    expect(internal).toEqual([])
  })

  // Every row id of the table in key order, for a read of the whole dataclass: made in slices
  // past 65,536 rows (Table.prepareOrder), the read waiting for it as for an index.
  it('makes the key order of a whole dataclass in slices for its first read, an entity set too', async () => {
    const ds = createDatastore(model)
    ds.loadData({
      Person: Array.from({ length: N }, (_, i) => ({
        ID: i + 1,
        code: `C${String(i).padStart(7, '0')}`,
        name: `name ${i % 5000}`,
      })),
    })
    const table = ds.dataClass('Person').table
    ds.configureIndexBuilds({ schedule: (slice) => setImmediate(slice) })
    const { base, internal } = await serveOnSocket(ds)
    expect(table.orderReady()).toBe(false)
    const page = (await (await fetch(`${base}/rest/Person?$top=2&$attributes=ID`)).json()) as {
      __COUNT: number
      __ENTITIES: { ID: number }[]
    }
    expect([page.__COUNT, page.__ENTITIES.map((e) => e.ID)]).toEqual([N, [1, 2]])
    const set = await fetch(`${base}/rest/Person?$method=entityset&$top=1&$attributes=ID`)
    const id = ((await set.json()) as { __ENTITYSET: string }).__ENTITYSET.split('/').pop()
    const last = (await (
      await fetch(`${base}/rest/Person/$entityset/${id}?$skip=${N - 1}&$top=5&$attributes=ID`)
    ).json()) as { __COUNT: number; __ENTITIES: { ID: number }[] }
    expect([last.__COUNT, last.__ENTITIES.map((e) => e.ID)]).toEqual([N, [N]])
    expect(internal).toEqual([])
  })
})
