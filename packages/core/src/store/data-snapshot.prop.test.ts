/**
 * Property tests of snapshots (`ds.snapshot()` / `ds.restore(s)`): after any sequence of writes
 * through the public API (creates, updates, drops, atomic batches, refused writes, restores in
 * between, indexes created and dropped), restoring the snapshot taken right after the load leaves
 * a datastore that cannot be told from one freshly loaded with the same data: every slot, key,
 * stamp and timestamp, the key directory, the sequences, every index's content, the numeric and
 * folded columns, the global stamp, the answers of indexed and scanned queries, and what the next
 * create gets (key, row id, stamp). A snapshot taken midway comes back exactly as it was taken.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  apply,
  fresh,
  observe,
  opArb,
  type Datastore,
} from '../orda/writes/random-writes.fixture.js'

describe('ds.restore(snapshot)', () => {
  it('after any writes, the restored datastore is the freshly loaded one', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), fc.boolean(), (ops, columnsFirst) => {
        const { ds, clock } = fresh()
        // Columns made before the writes are patched by the restore; made after, built afresh.
        if (columnsFirst) observe(ds)
        const initial = ds.snapshot()
        for (const op of ops) apply(ds, clock, op, initial)
        ds.restore(initial)
        const reference = fresh()
        expect(observe(ds)).toEqual(observe(reference.ds))
        // What comes next is the same too: the next key, row id and stamp, and the global stamp.
        const next = (d: Datastore) => {
          const e = d.dataClass('Item').create({ name: 'next', code: 'next', price: 1 })
          return { key: e.key, rowId: e.rowId, stamp: e.stamp, global: d.globalStamp }
        }
        expect(next(ds)).toEqual(next(reference.ds))
        // And the snapshot can be restored again.
        ds.restore(initial)
        expect(observe(ds)).toEqual(observe(fresh().ds))
      }),
      { numRuns: 150 },
    )
  })

  it('a snapshot taken after writes comes back exactly as it was taken', () => {
    fc.assert(
      fc.property(
        fc.array(opArb, { maxLength: 20 }),
        fc.array(opArb, { maxLength: 20 }),
        (before, after) => {
          const { ds, clock } = fresh()
          const initial = ds.snapshot()
          for (const op of before) apply(ds, clock, op, initial)
          const expected = observe(ds)
          const midway = ds.snapshot()
          for (const op of after) apply(ds, clock, op, initial)
          ds.restore(midway)
          expect(observe(ds)).toEqual(expected)
          // Back to the start and forth again: each restore starts from whatever the other left.
          ds.restore(initial)
          ds.restore(midway)
          expect(observe(ds)).toEqual(expected)
        },
      ),
      { numRuns: 150 },
    )
  })
})
