/**
 * Issue 78's attacks through the events of writes that run in one transaction, over REST: Item's
 * `dropping` and `saving` events and its `afterSave` loop as long as `Storage` says, and (added
 * to this copy of the project) its `validateDrop` loops without end for the item whose size
 * `Storage.endlessDrop` names. A `$method=delete&$filter`, a `$refresh`, a function's
 * `$sel.drop()` and its `ds.validateTransaction()` run those events in steps: a read by key of another client, sent
 * after the heavy request, is answered first; an endless event ends the request with the
 * budget's 9410, nothing of it applied and nothing left locked.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  answeredBeside,
  errCodes,
  HOSTILE_EVENTS,
  projectCopy,
  served,
  type Client,
  type Reply,
} from './four-d-rest.fixture.js'

const ITEMS = 50
const CLASSES = 'Project/Sources/Classes'
const source = (name: string): string => readFileSync(join(HOSTILE_EVENTS, CLASSES, name), 'utf8')

// What this file adds to the project's classes: new functions only.
const DATASTORE_MORE = `
// The size of the item whose validateDrop loops without end (0: none).
exposed Function endlessDrop($size : Integer)
	Use (Storage)
		Storage.endlessDrop:=$size
	End use

// Drops the items sized $low to $high (4D's entitySelection.drop()): how many a refusal kept.
exposed Function dropSized($low : Integer; $high : Integer) : Integer
	return ds.Item.query("size >= :1 AND size <= :2"; $low; $high).drop().length

// Items $from to $to renamed through fromCollection: each saved on its own.
exposed Function renameFrom($from : Integer; $to : Integer; $name : Text) : Integer
	var $objects : Collection:=New collection
	var $i : Integer
	For ($i; $from; $to)
		$objects.push(New object("ID"; $i; "name"; $name+String($i)))
	End for
	return ds.Item.fromCollection($objects).length

// Renames item $key in a transaction: its afterSave runs at the validation.
exposed Function renameInTransaction($key : Integer; $name : Text) : Text
	var $item : cs.ItemEntity
	var $result : Object
	ds.startTransaction()
	$item:=ds.Item.get($key)
	$item.name:=$name
	$result:=$item.save()
	ds.validateTransaction()
	return $item.name
`
const ENTITY_MORE = `
// Loops without end before the drop of the item whose size Storage.endlessDrop names.
Function event validateDrop($event : Object)
	var $i : Integer
	While (Num(Storage.endlessDrop)=Num(This.size))
		$i:=$i+1
	End while
`

describe('writes in one transaction whose events loop, beside another client', () => {
  let guest: Client
  let other: Client

  beforeAll(async () => {
    const dir = projectCopy(HOSTILE_EVENTS, {
      [`${CLASSES}/DataStore.4dm`]: source('DataStore.4dm') + DATASTORE_MORE,
      [`${CLASSES}/ItemEntity.4dm`]: source('ItemEntity.4dm') + ENTITY_MORE,
    })
    const serve = await served(dir, { queryBudgetMs: 2_000 })
    guest = serve.client()
    other = serve.client()
    expect((await guest.post('$catalog/seed', [ITEMS])).json.result).toBe(ITEMS)
  })

  // The heavy request and a read by key of Lot sent after it started: the order, both replies.
  async function beside(heavy: () => Promise<Reply>): Promise<[string[], Reply, Reply]> {
    const r = await answeredBeside(heavy, () => other.get('Lot(3)'))
    return [r.order.map((o) => (o === 'light' ? 'key' : o)), r.heavy, r.light]
  }

  const passes = (saving: number) => guest.post('$catalog/passes', [0, saving])
  const sizedFrom = (low: number, high: number) =>
    encodeURIComponent(`"size>=${low} AND size<=${high}"`)
  const deleteWhere = (low: number, high: number) =>
    guest.post(`Item?$filter=${sizedFrom(low, high)}&$method=delete`, {})
  const countSized = async (low: number, high: number): Promise<number> =>
    (await other.get(`Item?$filter=${sizedFrom(low, high)}&$top=1`)).json.__COUNT

  it('answers a read by key beside a $filter delete whose dropping event loops long: all dropped', async () => {
    await passes(10_000_000)
    const [order, dropped, one] = await beside(() => deleteWhere(30, 32))
    await passes(0)
    expect(order).toEqual(['key', 'heavy'])
    expect(one.json.name).toBe('Lot3')
    expect(dropped.json).toEqual({ ok: true })
    expect(await countSized(30, 32)).toBe(0)
  })

  it('ends a $filter delete meeting an endless event with 9410: nothing dropped, nothing locked', async () => {
    // Its third item's validateDrop never ends: the two before it were dropped in the transaction.
    await guest.post('$catalog/endlessDrop', [35])
    const [order, refused, one] = await beside(() => deleteWhere(33, 35))
    await guest.post('$catalog/endlessDrop', [0])
    expect(order).toEqual(['key', 'heavy'])
    expect(one.json.name).toBe('Lot3')
    expect(errCodes(refused.json)[0]).toBe(9410)
    expect(await countSized(33, 35)).toBe(3)
    const free = await other.post('Item?$method=update', { __KEY: 33, size: 33 })
    expect(free.status).toBe(200)
    expect((await guest.post(`Item?$filter=${sizedFrom(33, 35)}&$method=delete`, {})).json).toEqual(
      {
        ok: true,
      },
    )
    expect(await countSized(33, 35)).toBe(0)
  })

  const dropSized = (low: number, high: number) => () =>
    guest.post('$catalog/dropSized', [low, high])

  it('answers a read by key beside a function’s $sel.drop() whose dropping event loops long', async () => {
    await passes(10_000_000)
    const [order, kept, one] = await beside(dropSized(24, 26))
    await passes(0)
    expect(order).toEqual(['key', 'heavy'])
    expect(one.json.name).toBe('Lot3')
    expect(kept.json.result).toBe(0)
    expect(await countSized(24, 26)).toBe(0)
  })

  it('ends a function’s $sel.drop() meeting an endless event with 9410: nothing dropped, nothing locked', async () => {
    await guest.post('$catalog/endlessDrop', [29])
    const [order, refused, one] = await beside(dropSized(27, 29))
    await guest.post('$catalog/endlessDrop', [0])
    expect(order).toEqual(['key', 'heavy'])
    expect(one.json.name).toBe('Lot3')
    expect(errCodes(refused.json)[0]).toBe(9410)
    expect(await countSized(27, 29)).toBe(3)
    expect((await other.post('Item?$method=update', { __KEY: 27, size: 27 })).status).toBe(200)
    expect((await guest.post('$catalog/dropSized', [27, 29])).json.result).toBe(0)
    expect(await countSized(27, 29)).toBe(0)
  })

  it('answers a read by key beside a function’s fromCollection() whose saving event loops long', async () => {
    await passes(10_000_000)
    const [order, renamed, one] = await beside(() =>
      guest.post('$catalog/renameFrom', [46, 47, 'Listed']),
    )
    await passes(0)
    expect(order).toEqual(['key', 'heavy'])
    expect(one.json.name).toBe('Lot3')
    expect(renamed.json.result).toBe(2)
    expect((await other.get('Item(47)')).json.name).toBe('Listed47.')
  })

  it('ends a function’s fromCollection() meeting an endless saving event with 9410: not saved, not locked', async () => {
    await passes(-1)
    const [order, refused, one] = await beside(() =>
      guest.post('$catalog/renameFrom', [48, 49, 'Never']),
    )
    await passes(0)
    expect(order).toEqual(['key', 'heavy'])
    expect(one.json.name).toBe('Lot3')
    expect(errCodes(refused.json)[0]).toBe(9410)
    expect((await other.get('Item(48)')).json.name).toBe('Item48.')
    expect((await other.post('Item?$method=update', { __KEY: 48, name: 'Free' })).status).toBe(200)
  })

  it('answers a read by key beside a $refresh whose saving event loops long: nothing saved', async () => {
    const stamp = (await other.get('Item(40)')).json.__STAMP
    await passes(10_000_000)
    const { order, heavy, light } = await answeredBeside(
      () =>
        guest.post('Item?$method=update&$refresh=true', {
          __KEY: 40,
          __STAMP: stamp,
          name: 'Fresh',
        }),
      () => other.get('Item(40)'),
    )
    await passes(0)
    expect(order).toEqual(['light', 'heavy'])
    // The other client reads the item as stored, and so it stays.
    expect(light.json.name).toBe('Item40.')
    expect(heavy.status).toBe(200)
    expect(heavy.json.name).toBe('Fresh.')
    expect(heavy.json.__STAMP).toBe(stamp)
    const stored = (await other.get('Item(40)')).json
    expect(stored).toMatchObject({ name: 'Item40.', __STAMP: stamp })
  })

  it('ends a $refresh meeting an endless saving event with 9410: nothing saved, nothing locked', async () => {
    await passes(-1)
    const [order, refused] = await beside(() =>
      guest.post('Item?$method=update&$refresh=true', { __KEY: 41, name: 'Never' }),
    )
    await passes(0)
    expect(order).toEqual(['key', 'heavy'])
    expect(errCodes(refused.json)[0]).toBe(9410)
    expect((await other.get('Item(41)')).json.name).toBe('Item41.')
    const free = await other.post('Item?$method=update', { __KEY: 41, name: 'Free' })
    expect(free.status).toBe(200)
  })

  const afterPasses = (n: number) => guest.post('$catalog/eventPasses', [0, 0, n])
  const afterSaves = async (): Promise<number> =>
    (await guest.post('$catalog/afterSaves', [])).json.result

  it('answers a read by key beside a validateTransaction whose afterSave loops long, run once', async () => {
    const runs = await afterSaves()
    await afterPasses(10_000_000)
    const [order, renamed, one] = await beside(() =>
      guest.post('$catalog/renameInTransaction', [44, 'Renamed']),
    )
    await afterPasses(0)
    expect(order).toEqual(['key', 'heavy'])
    expect(one.json.name).toBe('Lot3')
    expect(renamed.json.result).toBe('Renamed.')
    expect((await other.get('Item(44)')).json.name).toBe('Renamed.')
    expect(await afterSaves()).toBe(runs + 1)
  })

  // The validation has committed before its afterSave runs, which cannot undo it: the budget
  // ends the event, whose error is ignored as a REST save's afterSave's is, and the function
  // answers; the save stands.
  it('ends an afterSave that never ends at the validation: the function answers, the save stands', async () => {
    const runs = await afterSaves()
    await afterPasses(-1)
    const [order, ended] = await beside(() =>
      guest.post('$catalog/renameInTransaction', [45, 'Kept']),
    )
    await afterPasses(0)
    expect(order).toEqual(['key', 'heavy'])
    expect(ended.json.result).toBe('Kept.')
    expect((await other.get('Item(45)')).json.name).toBe('Kept.')
    expect(await afterSaves()).toBe(runs)
    const free = await other.post('Item?$method=update', { __KEY: 45, name: 'Free' })
    expect(free.status).toBe(200)
  })
})
