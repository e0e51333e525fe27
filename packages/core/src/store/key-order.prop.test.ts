/**
 * Property test of a table's key order (Table.orderedRowIds), which is kept as no array at all
 * while it is the row-id order, as an array otherwise: after any creates (keys growing or not),
 * drops, loads, snapshots and restores, `all()` lists the live rows by key, a selection made
 * earlier keeps the rows it had, and the order is recognised as the whole dataclass.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createDatastore } from '../orda/objects/datastore.js'
import { KEY_ORDER_MODEL as MODEL } from './key-order.fixture.js'
import type { RowIds } from '../sets/row-ids.js'

type Op =
  | { kind: 'create'; key: number; grow: boolean }
  | { kind: 'drop'; pick: number }
  | { kind: 'load'; count: number }
  | { kind: 'snapshot' }
  | { kind: 'restore'; pick: number }
  | { kind: 'select' }

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      key: fc.integer({ min: 1, max: 1000 }),
      grow: fc.boolean(),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('drop' as const), pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('load' as const),
      count: fc.integer({ min: 1, max: 5 }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'snapshot' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('restore' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'select' as const }) },
)

describe('a table’s key order', () => {
  it('lists the live rows by key through any writes, and selections keep theirs', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const ds = createDatastore(MODEL)
        const T = ds.dataClass('T')
        const table = T.table
        let top = 0
        const snapshots: ReturnType<typeof ds.snapshot>[] = []
        const selections: { rows: RowIds; copy: number[] }[] = []
        for (const o of ops) {
          const keys = [...T.all()].map((e) => e.key as number)
          switch (o.kind) {
            case 'create': {
              const key = o.grow ? top + 1 : o.key
              if (keys.includes(key)) break
              T.create({ ID: key, n: 0 })
              break
            }
            case 'drop':
              if (keys.length > 0) T.drop(keys[o.pick % keys.length]!)
              break
            case 'load': {
              const rows = Array.from({ length: o.count }, (_, i) => ({ ID: top + 1 + i, n: 1 }))
              ds.loadData({ T: rows })
              break
            }
            case 'snapshot':
              snapshots.push(ds.snapshot())
              break
            case 'restore':
              if (snapshots.length > 0) ds.restore(snapshots[o.pick % snapshots.length]!)
              break
            case 'select': {
              const rows = T.all().rowIds
              selections.push({ rows, copy: [...rows] })
              break
            }
          }
          top = Math.max(top, ...[...T.all()].map((e) => e.key as number))
          const live = table.liveRowIds()
          const byKey = live.sort((a, b) => (table.keyOf(a) as number) - (table.keyOf(b) as number))
          const ordered = table.orderedRowIds()
          expect([...ordered]).toEqual(byKey)
          expect(table.isOrderedRowIds(ordered)).toBe(true)
          for (const s of selections) expect([...s.rows]).toEqual(s.copy)
        }
      }),
      { numRuns: 200 },
    )
  })
})
