/**
 * A large table's key order (Table.orderedRowIds) made in slices: a read that refuses builds in
 * one piece (the REST handler's, `ds.withoutIndexBuilds`) is refused with IndexBuilding while the
 * order is not there, waits for it (`ds.indexesReady` with the key), and then reads every row in
 * key order, the writes made meanwhile included.
 */
import { describe, expect, it } from 'vitest'
import { createDatastore } from '../orda/datastore.js'
import { thrown } from '../errors/thrown.fixture.js'
import { KEY_ORDER_MODEL as MODEL } from './key-order.fixture.js'

// Past the 65,536 rows whose order is made at once.
const ROWS = 70_000
const loaded = () => {
  const ds = createDatastore(MODEL)
  ds.loadData({ T: Array.from({ length: ROWS }, (_, i) => ({ ID: i + 1, n: i })) })
  return { ds, T: ds.dataClass('T') }
}

const keys = (ds: ReturnType<typeof loaded>['ds']) =>
  ds.withoutIndexBuilds(() =>
    ds
      .dataClass('T')
      .all()
      .toArray()
      .map((e) => e.getKey() as number),
  )

describe('the key order of a large table', () => {
  it('is refused to a read that refuses builds, then read once made in slices', async () => {
    const { ds, T } = loaded()
    const error = thrown(() => keys(ds))
    expect([error.errCode, error.details]).toEqual([
      9143,
      { retryAfter: 1, dataClass: 'T', attribute: 'ID' },
    ])
    await ds.indexesReady('T', ['ID'])
    const read = keys(ds)
    expect(read.length).toBe(ROWS)
    expect(read.every((k, i) => k === i + 1)).toBe(true)
    // The library's own reads make it at once, as they always did.
    expect(T.all().length).toBe(ROWS)
  })

  it('follows rows created and dropped between its slices, and ends in one piece if they keep coming', () => {
    const { ds, T } = loaded()
    const table = T.table
    // One piece a call: every call after a write starts again.
    const never = () => false
    expect(table.prepareOrder(never)).toBe(false)
    let made = false
    for (let i = 0; i < 10 && !made; i++) {
      T.create({ ID: ROWS + 1 + i, n: -i })
      T.get(2 + i)!.drop()
      made = table.prepareOrder(never)
    }
    // Three restarts, then the fourth made it whole.
    expect(made).toBe(true)
    expect(table.orderReady()).toBe(true)
    const read = keys(ds)
    const want = T.all()
      .toArray()
      .map((e) => e.getKey() as number)
    expect(read).toEqual(want)
    expect(read.length).toBe(ROWS)
    expect(read.slice(0, 3)).toEqual([1, 6, 7])
    expect(read.slice(-4)).toEqual([ROWS + 1, ROWS + 2, ROWS + 3, ROWS + 4])
  })

  it('is made at once for a table of up to 65,536 rows', () => {
    const ds = createDatastore(MODEL)
    ds.loadData({ T: Array.from({ length: 1000 }, (_, i) => ({ ID: i + 1, n: i })) })
    expect(keys(ds).length).toBe(1000)
  })
})
