/**
 * Issue 47: a heavy read never holds the others. Its filter, ordering and aggregate run in slices
 * (`sliceMs: 0` makes every step of 4,096 rows a slice), one slice a turn; the turns here are run
 * by the test (`nextTurn`), so that what happens between two slices is decided and counted, never
 * timed.
 */
import { createDatastore, type Datastore, type ModelJson } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { isPending, type RestReply } from '../exchange.js'
import { createRestHandler, type RestHandler } from '../handler.js'
import { get, json, runTurns, settled } from './manual-turns.fixture.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'code', type: 'string', indexed: true },
        { name: 'age', type: 'long' },
        { name: 'salary', type: 'number' },
        { name: 'city', type: 'string' },
      ],
    },
  ],
}
const N = 40_000
const STEPS = Math.ceil(N / 4096)

function fixture(): { ds: Datastore; handler: RestHandler; turns: (() => void)[] } {
  const ds = createDatastore(model)
  ds.loadData({
    Item: Array.from({ length: N }, (_, i) => ({
      ID: i + 1,
      code: `C${i}`,
      age: i % 100,
      salary: (i * 37) % 10_000,
      city: i % 3 === 0 ? 'Paris' : 'Lyon',
    })),
  })
  const turns: (() => void)[] = []
  const handler = createRestHandler(ds, { sliceMs: 0, nextTurn: (fn) => turns.push(fn) })
  return { ds, handler, turns }
}

/** Runs the turns until `done()`, a GET by key sent after each: how many ran, how many GETs were answered at once. */
async function withCheapReads(handler: RestHandler, turns: (() => void)[], done: () => boolean) {
  let answered = 0
  const ran = await runTurns(turns, done, () => {
    if (!isPending(handler.respond(get('Item(3)')))) answered++
  })
  return { ran, answered }
}

describe('a heavy read in slices', () => {
  it('lets a GET by key answer between two of its slices, and answers as in one piece', async () => {
    const { ds, handler, turns } = fixture()
    const whole = createRestHandler(ds, { sliceMs: Infinity })
    const expected = json(
      whole.respond(
        get('Item', '$filter="salary>100 AND city=\'Paris\'"&$orderby=salary desc&$top=5'),
      ) as RestReply,
    )
    const oneQuery = '$filter="salary>100 AND city=\'Paris\'"&$orderby=salary desc&$top=5'
    const heavy = handler.respond(get('Item', oneQuery))
    expect(isPending(heavy)).toBe(true)
    const state = settled(heavy as Promise<RestReply>)
    const answers: number[] = []
    const ran = await runTurns(
      turns,
      () => state.done,
      () => {
        // A cheap read sent between two slices is answered at once, synchronously.
        const cheap = handler.respond(get('Item(7)'))
        expect(isPending(cheap)).toBe(false)
        answers.push(json(cheap as RestReply).ID as number)
      },
    )
    expect(state.done).toBe(true)
    // The filter's scan and the top-5 each took several slices, one a turn.
    expect(ran).toBeGreaterThanOrEqual(STEPS)
    expect(answers.length).toBe(ran)
    expect(answers.every((id) => id === 7)).toBe(true)
    expect(json(state.value!)).toEqual(expected)
  })

  it('sorts a large page in steps too: a merge sort, one step a slice', async () => {
    const { ds, handler, turns } = fixture()
    const query = '$filter="age<80"&$orderby=city desc, salary&$top=20000&$attributes=ID'
    const whole = createRestHandler(ds, { sliceMs: Infinity })
    const expected = json(whole.respond(get('Item', query)) as RestReply)
    const state = settled(handler.respond(get('Item', query)) as Promise<RestReply>)
    const { ran, answered } = await withCheapReads(handler, turns, () => state.done)
    // The keys of 32,000 rows, their sort in runs of 4,096 and the merges: many slices.
    expect(ran).toBeGreaterThan(3 * STEPS)
    expect(answered).toBe(ran)
    expect(json(state.value!)).toEqual(expected)
  })

  it('makes one entity set however many times the read runs', async () => {
    const { ds, handler, turns } = fixture()
    for (const query of [
      '$filter="salary>100"&$orderby=salary desc&$method=entityset&$top=5',
      '$filter="age<90"&$orderby=city desc, salary&$method=entityset&$top=3',
      '$orderby=salary&$method=entityset&$top=3&$attributes=salary',
    ]) {
      const before = ds.entitySets.size
      const state = settled(handler.respond(get('Item', query)) as Promise<RestReply>)
      const ran = await runTurns(turns, () => state.done)
      expect(ran, query).toBeGreaterThan(2)
      expect(state.value!.status, query).toBe(200)
      expect(ds.entitySets.size, query).toBe(before + 1)
      const id = String(json(state.value!).__ENTITYSET).split('/').pop()
      expect(ds.entitySets.size).toBeGreaterThan(0)
      expect(id).toMatch(/^[0-9A-F]{32}$/)
    }
  })

  it('combines two entity sets in slices', async () => {
    const { ds, handler, turns } = fixture()
    const whole = createRestHandler(ds, { sliceMs: Infinity })
    const setOf = (query: string): string =>
      String(
        json(whole.respond(get('Item', `${query}&$method=entityset&$top=0`)) as RestReply)
          .__ENTITYSET,
      )
        .split('/')
        .pop()!
    const a = setOf('$filter="age<70"')
    const b = setOf('$filter="salary>3000"')
    for (const operator of ['AND', 'OR', 'EXCEPT', 'INTERSECT']) {
      const path = `Item/$entityset/${a}`
      const query = `$logicOperator=${operator}&$otherCollection=${b}&$top=3`
      const expected = whole.respond(get(path, query)) as RestReply
      const state = settled(handler.respond(get(path, query)) as Promise<RestReply>)
      const { ran, answered } = await withCheapReads(handler, turns, () => state.done)
      expect(ran, operator).toBeGreaterThan(2)
      expect(answered).toBe(ran)
      expect(json(state.value!), operator).toEqual(json(expected))
    }
  })

  it('answers one version: writes between its slices neither tear it nor wait', async () => {
    const { ds, handler, turns } = fixture()
    const query = '$filter="age<10"&$orderby=salary desc&$top=3'
    const heavy = handler.respond(get('Item', query)) as Promise<RestReply>
    expect(isPending(heavy)).toBe(true)
    const state = settled(heavy)
    let writes = 0
    await runTurns(
      turns,
      () => state.done,
      () => {
        // Rows on both sides of the scan's cursor change: one leaves the result, one enters it
        // with the largest salary, one is deleted, one is made.
        const n = writes++
        if (n > 6) return
        const Item = ds.dataClass('Item')
        Item.update(1 + n * 100, { age: 50 })
        Item.update(N - n * 10, { age: 1, salary: 100_000 + n })
        Item.drop(2 + n * 100)
        Item.create({ ID: N + 1 + n, code: `new${n}`, age: 3, salary: 200_000 + n, city: 'Nice' })
      },
    )
    expect(writes).toBeGreaterThan(2)
    // The reply is what the same read answers now in one piece.
    const whole = createRestHandler(ds, { sliceMs: Infinity })
    const now = json(whole.respond(get('Item', query)) as RestReply)
    const sliced = json(state.value!)
    expect(sliced.__COUNT).toBe(now.__COUNT)
    expect(sliced.__ENTITIES).toEqual(now.__ENTITIES)
    expect((sliced.__ENTITIES as { salary: number }[])[0]!.salary).toBe(200_006)
  })

  it('stops when its client goes away, and frees what it held', async () => {
    const { handler, turns } = fixture()
    let closed = false
    const heavy = handler.respond(
      get('Item', '$filter="salary>5"', { closed: () => closed }),
    ) as Promise<RestReply>
    const state = settled(heavy)
    let ran = 0
    await runTurns(
      turns,
      () => state.done,
      () => {
        if (++ran === 2) closed = true
      },
    )
    expect(state.done).toBe(true)
    // Two slices, then the third turn found the client gone and ran none; nothing is left queued.
    expect(ran).toBe(3)
    expect(turns.length).toBe(0)
    expect(json(state.value!).__ERROR).toEqual([expect.objectContaining({ errCode: 9145 })])
  })

  it('counts the time of its slices against the query budget, not the turns it waits', async () => {
    // A clock that moves `tick` ms each time it is read: work takes time, and the test moves it
    // 10 s more between two turns (a long wait behind other clients).
    let now = Date.UTC(2026, 0, 1)
    let tick = 0
    const clock = { now: () => (now += tick) }
    const ds = createDatastore(model, { clock })
    ds.loadData({
      Item: Array.from({ length: N }, (_, i) => ({ ID: i + 1, code: `C${i}`, age: i % 100 })),
    })
    const turns: (() => void)[] = []
    const handler = createRestHandler(ds, {
      sliceMs: 0,
      nextTurn: (fn) => turns.push(fn),
      queryBudgetMs: 20,
    })
    const waitLong = (): void => {
      now += 10_000
    }
    tick = 0.01
    const ok = settled(handler.respond(get('Item', '$filter="age>5"')) as Promise<RestReply>)
    await runTurns(turns, () => ok.done, waitLong)
    expect(ok.value!.status).toBe(200)
    expect(json(ok.value!).__COUNT).toBe((N / 100) * 94)
    // Slices that take a few ms each of clock reads end it past 20 ms, between two of its slices.
    tick = 1
    const late = settled(handler.respond(get('Item', '$filter="age>6"')) as Promise<RestReply>)
    const ran = await runTurns(turns, () => late.done, waitLong)
    expect(ran).toBeLessThan(STEPS)
    expect(late.value!.status).toBe(400)
    expect(json(late.value!).__ERROR).toEqual([expect.objectContaining({ errCode: 9090 })])
  })

  it('gives each client a slice in turn: one client with three heavy reads cannot starve another', async () => {
    const { handler, turns } = fixture()
    const order: string[] = []
    const read = (who: string, i: number): void => {
      const r = handler.respond(
        get('Item', `$filter="salary>${i}"&$top=1`, { remoteAddress: who }),
      ) as Promise<RestReply>
      void r.then(() => order.push(`${who}${i}`))
    }
    read('a', 1)
    read('a', 2)
    read('a', 3)
    read('b', 1)
    await runTurns(turns, () => order.length === 4)
    // b's one read ends before a's second and third: they waited their client's turn. (Taken one
    // after another, each read its slice in turn, b's would end last.)
    expect(order.indexOf('b1')).toBeLessThan(order.indexOf('a2'))
    expect(order.indexOf('a1')).toBeLessThan(order.indexOf('a2'))
    expect(order.indexOf('a2')).toBeLessThan(order.indexOf('a3'))
  })
})
