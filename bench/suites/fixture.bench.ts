/**
 * @module The test fixture's reset (issue 12): `ds.restore(initial)`, what `reset()` of
 * `startFixture` / `createFixture` runs before each test (with closing the sessions), against
 * loading the same data again (`createDatastore` + `loadData`), the way a fixture without a
 * snapshot would start each test afresh. Goal: reset ≤ the load, ideally far less.
 *
 * Data: the http suite's `Group` (200 rows) and `Item` (n rows, a relation to Group, five
 * indexes: a text name with hash and sorted indexes, the foreign key's hash index, three sorted
 * numbers and dates) from items.ts, built once in memory. One datastore is loaded and its snapshot
 * taken; each reset case's untimed `prepare` makes the writes a test would make, then the timed
 * call restores the snapshot. Cases are interleaved, and each leaves the datastore as loaded.
 */
import type { DataFile, ModelJson } from '@entistore/core'
import { loadedDatastore, type Core } from '../engine.ts'
import { ITEM_MODEL, makeGroups, makeItems } from '../items.ts'
import { timeOnce } from '../timing.ts'
import type { Group } from './query.bench.ts'

const TARGET = { max: 1, label: '≤1× load' }

/** The operations, for `--only`. */
export const FIXTURE_OPS = ['fixture-reset']

export interface FixtureBench {
  readonly groups: Group[]
  /** The first load (not a measure: said once). */
  readonly loadMs: number
  /** `ds.snapshot()` after it: paid once, when a fixture starts. */
  readonly snapshotMs: number
}

/** The reset group over `n` Items. */
export function fixtureGroups(core: Core, n: number): FixtureBench {
  const data: DataFile = { Group: makeGroups(), Item: makeItems(n) }
  const model: ModelJson = ITEM_MODEL
  const load = timeOnce(() => loadedDatastore(core, model, { data }))
  const ds = load.value
  const snap = timeOnce(() => ds.snapshot())
  const initial = snap.value
  const Item = ds.dataClass('Item')
  const items = (): number => Item.all().length
  const reset = (): number => {
    ds.restore(initial)
    ds.sessions.closeAll?.()
    return items()
  }
  // Keys spread over the table, so that writes land all over the indexes.
  const spread = (count: number): number[] =>
    Array.from({ length: count }, (_, i) => 1 + Math.floor((i * n) / count))

  const groups: Group[] = [
    {
      id: 'fixture-reset',
      title: 'reset to the loaded data (ds.restore of the initial snapshot)',
      target: TARGET,
      notes: [
        'baseline: createDatastore(model, { data }) then buildIndexes(): checks and loads every row, builds every index',
        'engine: ds.restore(initial) and sessions.closeAll(), as fixture.reset() does; the writes before it are not timed',
        'a test’s writes: 10 updates (price and name), 1 create, 1 delete',
        'after an index was created: the state has one index more, dropped by the restore',
        'check: Items after the call',
      ],
      cases: [
        {
          kind: 'baseline',
          impl: 'load again: createDatastore + loadData + buildIndexes',
          run: () => loadedDatastore(core, model, { data }).dataClass('Item').all().length,
        },
        {
          kind: 'entistore',
          impl: 'reset, nothing written',
          targeted: true,
          run: reset,
        },
        {
          kind: 'entistore',
          impl: 'reset after a test’s writes',
          targeted: true,
          prepare: () => {
            for (const key of spread(10)) Item.update(key, { price: 1, name: `renamed ${key}` })
            Item.create({ name: 'new', groupID: 3, price: 9.5, qty: 1 })
            Item.drop(n >> 1)
          },
          run: reset,
        },
        {
          kind: 'entistore',
          impl: 'reset after 1,000 updates',
          targeted: true,
          prepare: () =>
            ds.transaction(() => {
              for (const key of spread(1000)) Item.update(key, { price: 2, name: `n${key}` })
            }),
          run: reset,
        },
        {
          kind: 'entistore',
          impl: 'reset after 1,000 creates and 1,000 deletes',
          targeted: true,
          prepare: () =>
            ds.transaction(() => {
              for (let i = 0; i < 1000; i++) Item.create({ name: `c${i}`, groupID: 1 + (i % 200) })
              for (const key of spread(1000)) Item.drop(key)
            }),
          run: reset,
        },
        {
          kind: 'entistore',
          impl: 'reset after an index was created',
          targeted: true,
          prepare: () => {
            Item.createIndex('qty', 'hash')
            Item.update(1, { qty: 7 })
          },
          run: reset,
        },
      ],
    },
  ]
  return { groups, loadMs: load.ms, snapshotMs: snap.ms }
}
