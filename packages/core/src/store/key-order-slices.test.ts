/**
 * A large table's key order (Table.orderedRowIds) made in slices: a read that refuses builds in
 * one piece (the REST handler's, `ds.withoutIndexBuilds`) is refused with IndexBuilding while the
 * order is not there, waits for it (`ds.indexesReady` with the key), and then reads every row in
 * key order, the writes made meanwhile included.
 */
import { describe, expect, it } from 'vitest'
import { createDatastore } from '../orda/objects/datastore.js'
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
      T.get(2 + i)!.dropOrFail()
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

  it('is a typed array once made in slices, and every selection reads it as the array made at once', async () => {
    // Two stores with the same rows and writes: one's order made in slices, the other's at once.
    const sliced = loaded()
    const atOnce = loaded()
    for (const { T } of [sliced, atOnce]) {
      T.get(5)!.dropOrFail()
      T.create({ ID: ROWS + 10, n: 3 })
    }
    await sliced.ds.indexesReady('T', ['ID'])
    const typed = sliced.ds.withoutIndexBuilds(() => sliced.T.all())
    const plain = atOnce.T.all()
    expect(typed.rowIds).toBeInstanceOf(Int32Array)
    expect(Array.isArray(plain.rowIds)).toBe(true)
    // What each reads, by keys (row ids are the same in both stores).
    const read = (all: typeof plain) => {
      const keysOf = (sel: typeof plain) => sel.members().map((e) => e?.getKey() ?? null)
      // `few` holds a row made after `all`: OR appends it.
      all.dataClass.create({ ID: ROWS + 20, n: 1 })
      const few = all.dataClass.query('n < 10')
      const set = all.keep()
      // A member dropped since: null in the selection and in the set, gone from clean().
      all.dataClass.get(7)!.dropOrFail()
      return {
        length: all.length,
        page: keysOf(all.window(40_000, 40_005)),
        at: all.at(69_998)?.getKey(),
        desc: keysOf(all.orderBy('n desc').window(0, 3)),
        byKeyDesc: keysOf(all.orderBy('ID desc').window(0, 3)),
        and: keysOf(all.and(few)),
        or: keysOf(all.or(few).window(ROWS - 2)),
        minus: all.minus(few).length,
        fewOrAll: keysOf(few.or(all).window(0, 12)),
        intersects: all.intersects(few),
        sum: all.sum('n'),
        distinct: all.distinct('n').length,
        clean: all.clean().length,
        set: keysOf(set.selection.window(0, 8)),
      }
    }
    expect(read(typed)).toEqual(read(plain))
  })

  it('is made at once for a table of up to 65,536 rows', () => {
    const ds = createDatastore(MODEL)
    ds.loadData({ T: Array.from({ length: 1000 }, (_, i) => ({ ID: i + 1, n: i })) })
    expect(keys(ds).length).toBe(1000)
  })
})
