/**
 * Property tests of undoing commits (revert.ts): after any writes, the commits of a few more
 * writes undone leave a store that cannot be told from the one before them — every slot, key,
 * stamp, timestamp, the key directory, sequences, index contents, numeric and folded columns, the
 * global stamp, query answers (orda/writes/random-writes.fixture.ts's `observe`) — and the next create gets
 * the same key, row id and stamp. The undo itself is heard as a replay, never as a write.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Change } from './changes.js'
import {
  apply,
  fresh,
  observe,
  opArb,
  type Datastore,
} from '../orda/writes/random-writes.fixture.js'
import { revertCommits, revertPoint } from './revert.js'

// Index changes are not commits: nothing to undo, so they are only part of the writes before. A
// restore puts back the indexes of its snapshot too, which an undo does not (it undoes the
// restore's changes of data): undone restores are drawn only after writes that keep the indexes.
const commitArb = opArb.filter((op) => op.kind !== 'index')
const dataArb = commitArb.filter((op) => op.kind !== 'restore')
const cases = fc.oneof(
  fc.tuple(fc.array(opArb, { maxLength: 25 }), fc.array(dataArb, { minLength: 1, maxLength: 4 })),
  fc.tuple(
    fc.array(commitArb, { maxLength: 25 }),
    fc.array(commitArb, { minLength: 1, maxLength: 4 }),
  ),
)

const next = (d: Datastore) => {
  const e = d.dataClass('Item').create({ name: 'next', code: 'next', price: 1 })
  return { key: e.key, rowId: e.rowId, stamp: e.stamp, global: d.globalStamp }
}

describe('revertCommits', () => {
  it('undoes any commits: the store is as it was before them', () => {
    fc.assert(
      fc.property(cases, ([before, undone]) => {
        const { ds, clock } = fresh()
        const initial = ds.snapshot()
        for (const op of before) apply(ds, clock, op, initial)
        // Observed first: columns the observation makes exist on both sides.
        const expected = observe(ds)
        const point = revertPoint(ds.store)
        const commits: Change[][] = []
        const kinds: string[] = []
        const off = ds.onCommit((changes, info) => {
          kinds.push(info.kind)
          if (info.kind !== 'replay') commits.push([...changes])
        })
        for (const op of undone) apply(ds, clock, op, initial)
        revertCommits(ds.store, commits, point)
        off()
        expect(kinds.slice(commits.length)).toEqual(['replay'])
        expect(observe(ds)).toEqual(expected)
        // A twin that never ran the undone writes: the next create is the same.
        const twin = fresh()
        const twinInitial = twin.ds.snapshot()
        for (const op of before) apply(twin.ds, twin.clock, op, twinInitial)
        expect(next(ds)).toEqual(next(twin.ds))
      }),
      { numRuns: 200 },
    )
  })
})
