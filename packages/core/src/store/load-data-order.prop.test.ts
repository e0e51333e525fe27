/**
 * The load reads a row's attributes by their rank in the row before (load-data.ts, RowReader.read):
 * rows that name them in other orders, skip some, repeat the key under `__KEY` or name unknown ones
 * must load as the same rows in the model's order do, and be refused at the same row.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../clock/clock.js'
import type { ModelJson } from '../schema/model-json.js'
import { createDatastore, type DatastoreWith } from '../orda/objects/datastore.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'code', type: 'string', unique: true },
        { name: 'label', type: 'string', indexed: true },
        { name: 'qty', type: 'word', indexed: true },
        { name: 'price', type: 'number' },
      ],
    },
  ],
}

type Store = DatastoreWith<'Item'>
type Row = Record<string, unknown>

const store = (): Store =>
  createDatastore(model, { clock: new ManualClock('2024-01-01T00:00:00Z') }) as Store

/** Rows, indexes (every query answered by one), stamps and the sequence. */
function state(ds: Store) {
  return {
    rows: ds.Item.all()
      .toArray()
      .map((e) => [e.record.rowId, e.getKey(), e.getStamp(), { ...e.record.values }]),
    byCode: ['a', 'B', 'c1', 'zz'].map((c) => ds.Item.query('code = :1', c).length),
    byLabel: ds.Item.query('label >= :1', 'm')
      .toArray()
      .map((e) => e.getKey()),
    byQty: ds.Item.query('qty < :1', 3)
      .toArray()
      .map((e) => e.getKey()),
    next: ds.Item.table.peekSequence('ID'),
  }
}

function outcome(rows: Row[]): unknown {
  const ds = store()
  try {
    ds.loadData({ Item: rows })
    return { ok: state(ds) }
  } catch (e) {
    // Where it was refused (`Item[3]`), and nothing of it kept.
    return { at: /Item\[\d+\]/.exec((e as Error).message)?.[0], untouched: state(ds) }
  }
}

// Few values, so that keys and codes collide often; now and then a bad qty, a `__KEY` that is not
// the ID, or an unknown attribute.
const row = fc
  .tuple(
    fc.record(
      {
        ID: fc.integer({ min: 1, max: 40 }),
        code: fc.constantFrom('a', 'A', 'B', 'c1', 'zz', null),
        label: fc.string({ maxLength: 4 }),
        qty: fc.integer({ min: -5, max: 5 }),
        price: fc.double({ noNaN: true, noDefaultInfinity: true }),
        __STAMP: fc.integer({ min: 1, max: 9 }),
      },
      { requiredKeys: [] },
    ),
    fc.nat({ max: 30 }),
  )
  .map(([r, odd]): Row => {
    if (odd === 0) return { ...r, colour: 'red' }
    if (odd <= 3 && r.ID !== undefined) return { ...r, __KEY: odd === 1 ? r.ID + 1 : r.ID }
    return odd === 4 && typeof r.qty === 'number' ? { ...r, qty: 70000 } : r
  })

// Each row with its names in an order of its own (a permutation drawn per row).
const rows = fc.array(fc.tuple(row, fc.array(fc.nat(), { minLength: 8, maxLength: 8 })), {
  maxLength: 40,
})

const inModelOrder = (r: Row): Row => {
  const order = ['ID', 'code', 'label', 'qty', 'price', '__KEY', '__STAMP', 'colour']
  return Object.fromEntries(order.filter((k) => k in r).map((k) => [k, r[k]]))
}
const shuffled = (r: Row, ranks: number[]): Row => {
  const keys = Object.keys(r)
  keys.sort((x, y) => ranks[keys.indexOf(x)]! - ranks[keys.indexOf(y)]! || (x < y ? -1 : 1))
  return Object.fromEntries(keys.map((k) => [k, r[k]]))
}

describe('loadData reads a row the same in any order of its attributes', () => {
  it('loads, or refuses at the same row, whatever order each row names its attributes in', () => {
    let loaded = 0
    fc.assert(
      fc.property(rows, (given) => {
        const canonical = given.map(([r]) => inModelOrder(r))
        const mixed = given.map(([r, ranks]) => shuffled(r, ranks))
        const expected = outcome(canonical)
        if ('ok' in (expected as object)) loaded++
        expect(outcome(mixed)).toEqual(expected)
      }),
      { numRuns: 300 },
    )
    // Most files load (codes and keys collide less often than not): the rows were compared.
    expect(loaded).toBeGreaterThan(60)
  })
})
