/**
 * Issue 78's attacks through the code core runs on its own, over REST: Item's restrict, its
 * constructor and its `touched`, `saving`, `afterSave` and `dropping` events loop as long as
 * `Storage` says. A read by key of another dataclass, sent after the heavy request, is answered
 * first; an endless one ends with the budget's 9410, and the server serves on, right.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import {
  answeredBeside,
  besideClients,
  errCodes,
  HOSTILE_EVENTS,
  type Client,
  type Reply,
} from './four-d-rest.fixture.js'

const ITEMS = 50

describe('a guest meeting a restrict and an event that loop', () => {
  let guest: Client
  let other: Client

  beforeAll(async () => {
    ;({ guest, other } = await besideClients(HOSTILE_EVENTS, { seed: ITEMS }))
  })

  // The heavy request and a read by key of Lot sent after it started: the order answered, both replies.
  async function beside(heavy: () => Promise<Reply>): Promise<[string[], Reply, Reply]> {
    const r = await answeredBeside(heavy, () => other.get('Lot(3)'))
    return [r.order.map((o) => (o === 'light' ? 'key' : o)), r.heavy, r.light]
  }

  it('answers a read by key beside a read whose restrict loops long, which ends as alone', async () => {
    await guest.post('$catalog/passes', [10_000_000, 0])
    const [order, read, one] = await beside(() => guest.get('Item?$top=1'))
    expect(order).toEqual(['key', 'heavy'])
    expect(one.json.name).toBe('Lot3')
    expect(read.status).toBe(200)
    expect(read.json.__COUNT).toBe(ITEMS)
  })

  it('answers a read by key beside a restrict that never ends, which the budget ends', async () => {
    await guest.post('$catalog/passes', [-1, 0])
    const [order, read, one] = await beside(() => guest.get('Item(4)'))
    expect(order).toEqual(['key', 'heavy'])
    expect(one.json.name).toBe('Lot3')
    expect(errCodes(read.json)[0]).toBe(9410)
    await guest.post('$catalog/passes', [0, 0])
    expect((await other.get('Item(4)')).json.name).toBe('Item4.')
  })

  const save = (values: Record<string, unknown>): Promise<Reply> =>
    guest.post('Item?$method=update', values)

  it('answers a read by key beside a save whose saving event loops long, which saves', async () => {
    await guest.post('$catalog/passes', [0, 10_000_000])
    const [order, saved, one] = await beside(() => save({ name: 'Slow', size: 7 }))
    expect(order).toEqual(['key', 'heavy'])
    expect(one.json.name).toBe('Lot3')
    expect(saved.status).toBe(200)
    expect(saved.json.name).toBe('Slow.')
    expect((await other.get(`Item(${saved.json.__KEY})`)).json.size).toBe(7)
  })

  it('answers a read by key beside a saving event that never ends: 9410, nothing saved', async () => {
    await guest.post('$catalog/passes', [0, -1])
    const before = (await other.get('Item?$top=1')).json.__COUNT
    const [order, refused, one] = await beside(() => save({ __KEY: 6, name: 'Never' }))
    expect(order).toEqual(['key', 'heavy'])
    expect(one.json.name).toBe('Lot3')
    expect(errCodes(refused.json)[0]).toBe(9410)
    await guest.post('$catalog/passes', [0, 0])
    expect((await other.get('Item(6)')).json.name).toBe('Item6.')
    expect((await other.get('Item?$top=1')).json.__COUNT).toBe(before)
  })

  it('refuses, by its stamp, one of two saves of an entity whose events ran side by side', async () => {
    await guest.post('$catalog/passes', [0, 10_000_000])
    const stamp = (await other.get('Item(8)')).json.__STAMP
    const { heavy, light } = await answeredBeside(
      () => save({ __KEY: 8, __STAMP: stamp, size: 801 }),
      () => other.post('Item?$method=update', { __KEY: 8, __STAMP: stamp, size: 802 }),
    )
    await guest.post('$catalog/passes', [0, 0])
    const statuses = [heavy.status, light.status].sort()
    expect(statuses).toEqual([200, 409])
    const refused = heavy.status === 409 ? heavy : light
    expect(errCodes(refused.json)).toContain(1263)
    const kept = (await other.get('Item(8)')).json
    expect(kept.size).toBe(heavy.status === 200 ? 801 : 802)
    expect(kept.__STAMP).toBe(stamp + 1)
  })

  it('answers a read by key beside an update and a drop whose restrict loops long', async () => {
    await guest.post('$catalog/passes', [10_000_000, 0])
    const updated = await beside(() => save({ __KEY: 12, size: 1200 }))
    expect(updated[0]).toEqual(['key', 'heavy'])
    expect(updated[1].json.size).toBe(1200)
    await guest.post('$catalog/passes', [10_000_001, 0])
    const dropped = await beside(() => guest.post('Item(13)?$method=delete', {}))
    expect(dropped[0]).toEqual(['key', 'heavy'])
    expect(dropped[1].json).toEqual({ ok: true })
    await guest.post('$catalog/passes', [0, 0])
  })

  it('answers a read by key beside a drop whose dropping event loops long, which drops', async () => {
    await guest.post('$catalog/passes', [0, 10_000_000])
    const [order, dropped, one] = await beside(() => guest.post('Item(10)?$method=delete', {}))
    await guest.post('$catalog/passes', [0, 0])
    expect(order).toEqual(['key', 'heavy'])
    expect(one.json.name).toBe('Lot3')
    expect(dropped.json).toEqual({ ok: true })
    expect((await other.get('Item(10)')).status).toBe(404)
  })

  it('saves an array an item a slice, each with its events', async () => {
    await guest.post('$catalog/passes', [0, 5_000_000])
    const [order, saved] = await beside(() =>
      guest.post('Item?$method=update', [{ name: 'A' }, { name: 'B' }, { __KEY: 2, size: 200 }]),
    )
    expect(order).toEqual(['key', 'heavy'])
    expect(saved.json.__ENTITIES.map((e: { name: string }) => e.name)).toEqual([
      'A.',
      'B.',
      'Item2..',
    ])
    await guest.post('$catalog/passes', [0, 0])
  })

  // A function's code that reads or saves Item: its call runs in slices, and goes into the
  // restrict and the events its reads and saves ask (core's restrictInSteps, saveSteps).
  it('answers a read by key beside a function reading a dataclass whose restrict loops long', async () => {
    await guest.post('$catalog/passes', [10_000_002, 0])
    const [order, counted, one] = await beside(() => guest.post('$catalog/countItems', []))
    await guest.post('$catalog/passes', [0, 0])
    expect(order).toEqual(['key', 'heavy'])
    expect(one.json.name).toBe('Lot3')
    expect(counted.json.result).toBeGreaterThan(ITEMS - 5)
  })

  it('answers a read by key beside a function saving an entity whose event loops long', async () => {
    await guest.post('$catalog/passes', [0, 10_000_000])
    const [order, added, one] = await beside(() => guest.post('$catalog/addItem', ['Made']))
    await guest.post('$catalog/passes', [0, 0])
    expect(order).toEqual(['key', 'heavy'])
    expect(one.json.name).toBe('Lot3')
    expect(added.json.result).toBe('Made.')
  })

  it('ends a function whose save meets an endless event with 9410, nothing saved', async () => {
    await guest.post('$catalog/passes', [0, -1])
    const before = (await other.get('Item?$top=1')).json.__COUNT
    const [order, refused] = await beside(() => guest.post('$catalog/addItem', ['Never']))
    await guest.post('$catalog/passes', [0, 0])
    expect(order).toEqual(['key', 'heavy'])
    expect(errCodes(refused.json)[0]).toBe(9410)
    expect((await other.get('Item?$top=1')).json.__COUNT).toBe(before)
  })

  it('answers a read by key beside a function dropping an entity whose event loops long', async () => {
    await guest.post('$catalog/passes', [0, 10_000_000])
    const [order, dropped, one] = await beside(() => guest.post('$catalog/dropItem', [14]))
    await guest.post('$catalog/passes', [0, 0])
    expect(order).toEqual(['key', 'heavy'])
    expect(one.json.name).toBe('Lot3')
    expect(dropped.json.result).toBe(true)
    expect((await other.get('Item(14)')).status).toBe(404)
  })

  // Item's constructor and touched event, which run as the entity is made, and its afterSave
  // event, which runs once the write has committed: each in steps too (core's madeSteps,
  // setSteps, writeInSteps), for a REST write and for a function's code.
  const events = (made: number, touched: number, after: number) =>
    guest.post('$catalog/eventPasses', [made, touched, after])
  const count = async (): Promise<number> => (await other.get('Item?$top=1')).json.__COUNT
  const afterSaves = async (): Promise<number> =>
    (await guest.post('$catalog/afterSaves', [])).json.result

  it('answers a read by key beside a create whose constructor loops long, which creates', async () => {
    await events(10_000_000, 0, 0)
    const [order, made, one] = await beside(() => save({ name: 'Built', size: 4 }))
    await events(0, 0, 0)
    expect(order).toEqual(['key', 'heavy'])
    expect(one.json.name).toBe('Lot3')
    expect(made.status).toBe(200)
    expect(made.json.note).toBe('made resized')
  })

  it('answers a read by key beside a constructor that never ends: 9410, nothing created', async () => {
    await events(-1, 0, 0)
    const before = await count()
    const [order, refused] = await beside(() => save({ name: 'Never', size: 4 }))
    await events(0, 0, 0)
    expect(order).toEqual(['key', 'heavy'])
    expect(errCodes(refused.json)[0]).toBe(9410)
    expect(await count()).toBe(before)
  })

  it('answers a read by key beside an update whose touched event loops long, which updates', async () => {
    await events(0, 10_000_000, 0)
    const [order, updated, one] = await beside(() => save({ __KEY: 20, size: 2000 }))
    await events(0, 0, 0)
    expect(order).toEqual(['key', 'heavy'])
    expect(one.json.name).toBe('Lot3')
    expect(updated.json.size).toBe(2000)
    expect(updated.json.note).toBe('made resized resized')
  })

  it('answers a read by key beside a touched event that never ends: 9410, nothing updated', async () => {
    await events(0, -1, 0)
    const [order, refused] = await beside(() => save({ __KEY: 21, size: 2100 }))
    await events(0, 0, 0)
    expect(order).toEqual(['key', 'heavy'])
    expect(errCodes(refused.json)[0]).toBe(9410)
    expect((await other.get('Item(21)')).json).toMatchObject({ size: 21, note: 'made resized' })
  })

  it('answers a read by key beside a save whose afterSave event loops long, run once after it', async () => {
    const runs = await afterSaves()
    await events(0, 0, 10_000_000)
    const [order, saved, one] = await beside(() => save({ __KEY: 22, size: 2200 }))
    await events(0, 0, 0)
    expect(order).toEqual(['key', 'heavy'])
    expect(one.json.name).toBe('Lot3')
    expect(saved.json.size).toBe(2200)
    expect(await afterSaves()).toBe(runs + 1)
  })

  // 4D's afterSave cannot undo the write it follows: the budget ends the event, whose error is
  // ignored as any of its errors (docs/compat.md), and the save stands.
  it('answers a read by key beside an afterSave event that never ends: the save stands', async () => {
    const runs = await afterSaves()
    const before = await count()
    await events(0, 0, -1)
    const [order, saved] = await beside(() => save({ name: 'Endless', size: 5 }))
    await events(0, 0, 0)
    expect(order).toEqual(['key', 'heavy'])
    expect(saved.status).toBe(200)
    expect((await other.get(`Item(${saved.json.__KEY})`)).json.name).toBe('Endless.')
    expect(await count()).toBe(before + 1)
    expect(await afterSaves()).toBe(runs)
  })

  it('answers a read by key beside a function making an item whose constructor loops long', async () => {
    await events(10_000_000, 0, 0)
    const [order, added, one] = await beside(() => guest.post('$catalog/addItem', ['Built']))
    await events(0, 0, 0)
    expect(order).toEqual(['key', 'heavy'])
    expect(one.json.name).toBe('Lot3')
    expect(added.json.result).toBe('Built.')
  })

  it('answers a read by key beside a function setting a value whose touched event loops long', async () => {
    await events(0, 10_000_000, 0)
    const [order, added, one] = await beside(() => guest.post('$catalog/addItem', ['Sized']))
    await events(0, 0, 0)
    expect(order).toEqual(['key', 'heavy'])
    expect(one.json.name).toBe('Lot3')
    expect(added.json.result).toBe('Sized.')
  })

  it('ends a function whose constructor or touched event never ends with 9410, nothing saved', async () => {
    const before = await count()
    const endless: [number, number, number][] = [
      [-1, 0, 0],
      [0, -1, 0],
    ]
    for (const passes of endless) {
      await events(...passes)
      const [order, refused] = await beside(() => guest.post('$catalog/addItem', ['Never']))
      expect(order).toEqual(['key', 'heavy'])
      expect(errCodes(refused.json)[0]).toBe(9410)
    }
    await events(0, 0, 0)
    expect(await count()).toBe(before)
  })

  // A function's code that meets Item's restrict other than by reading Item: through Part's
  // relation to it, or narrowing a selection of Item once the restrict's answer has moved.
  it('answers a read by key beside a function following a relation whose restrict loops long', async () => {
    // Followed once before: the place in the code that reads it keeps its reader.
    expect((await guest.post('$catalog/itemOfPart', [1])).json.result).toBe('Item1.')
    await guest.post('$catalog/passes', [10_000_003, 0])
    const [order, followed, one] = await beside(() => guest.post('$catalog/itemOfPart', [3]))
    await guest.post('$catalog/passes', [0, 0])
    expect(order).toEqual(['key', 'heavy'])
    expect(one.json.name).toBe('Lot3')
    expect(followed.json.result).toBe('Item3.')
  })

  it('answers a read by key beside a function narrowing a selection whose restrict loops long', async () => {
    await guest.post('$catalog/passes', [0, 0])
    const [order, narrowed, one] = await beside(() =>
      guest.post('$catalog/narrowItems', [10_000_004, 10]),
    )
    await guest.post('$catalog/passes', [0, 0])
    expect(order).toEqual(['key', 'heavy'])
    expect(one.json.name).toBe('Lot3')
    expect(narrowed.json.result).toBe((await other.get('Item?$filter="size<10"')).json.__COUNT)
  })

  it('ends a function meeting a restrict that never ends there with 9410', async () => {
    await guest.post('$catalog/passes', [-1, 0])
    const [order, followed] = await beside(() => guest.post('$catalog/itemOfPart', [4]))
    expect(order).toEqual(['key', 'heavy'])
    expect(errCodes(followed.json)[0]).toBe(9410)
    await guest.post('$catalog/passes', [0, 0])
    const [narrowedOrder, narrowed] = await beside(() =>
      guest.post('$catalog/narrowItems', [-1, 10]),
    )
    await guest.post('$catalog/passes', [0, 0])
    expect(narrowedOrder).toEqual(['key', 'heavy'])
    expect(errCodes(narrowed.json)[0]).toBe(9410)
    expect((await guest.post('$catalog/itemOfPart', [4])).json.result).toBe('Item4.')
  })
})
