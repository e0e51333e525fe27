/**
 * @module For tests: random writes through the public API over a small two-dataclass model
 * (creates, updates, drops, atomic batches, refused writes, restores, index changes), and
 * `observe`, everything about the store a user could observe in a comparable form. Shared by the
 * property tests of snapshots (data-snapshot.prop.test.ts) and of undone commits
 * (revert.prop.test.ts), which both compare a store after writes with one before them.
 */
import fc from 'fast-check'
import { ManualClock } from '../../clock/clock.js'
import { createDatastore, type Datastore } from '../objects/datastore.js'
import type { ModelJson } from '../../schema/model-json.js'
import { snapshotStore } from '../../txn/snapshot.fixture.js'
import type { DataFile } from '../../store/load-data.js'

export type { Datastore }

export const MODEL: ModelJson = {
  dataClasses: [
    {
      name: 'Group',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string', indexed: true },
        { name: 'items', kind: 'relatedEntities', reversePath: true, path: 'group' },
      ],
      key: [{ name: 'ID' }],
    },
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        // Text indexed both ways (hash + sorted), a unique code (hash), a sorted number.
        { name: 'name', type: 'string', indexed: true },
        { name: 'code', type: 'string', unique: true },
        { name: 'price', type: 'number', indexed: true },
        { name: 'qty', type: 'long' },
        { name: 'groupID', type: 'long' },
        { name: 'group', kind: 'relatedEntity', path: 'Group', foreignKey: 'groupID' },
      ],
      key: [{ name: 'ID' }],
    },
  ],
}

export const NAMES = ['alpha', 'Beta', 'gamma', 'Élan', 'delta', 'beta']
export const DATA: DataFile = {
  Group: [1, 2, 3].map((ID) => ({ ID, name: `G${ID}` })),
  Item: Array.from({ length: 30 }, (_, i) => ({
    ID: i + 1,
    name: NAMES[i % NAMES.length]!,
    code: `c${i + 1}`,
    price: (i * 7) % 11,
    qty: i % 4 === 0 ? null : i,
    groupID: (i % 3) + 1,
  })),
}
export const T0 = Date.UTC(2026, 0, 1)

export function fresh(): { ds: Datastore; clock: ManualClock } {
  const clock = new ManualClock(T0)
  const ds = createDatastore(MODEL, { clock, data: DATA })
  return { ds, clock }
}

// Every key the writes below may touch or create: probed in the key directory, so that a key left
// behind by a restore is seen.
export const PROBE = {
  Group: Array.from({ length: 40 }, (_, i) => i + 1),
  Item: Array.from({ length: 120 }, (_, i) => i + 1),
}

/**
 * Everything about the store that a user could observe, in a comparable form. Two things a user
 * cannot observe are left out: the index version (a cache token) and the capacity of numeric
 * columns (room to grow). Hash keys are listed in key order: no read lists them.
 */
export function observe(ds: Datastore): { globalStamp: number; tables: unknown; answers: unknown } {
  const s = snapshotStore(ds.store, PROBE)
  const tables = Object.fromEntries(
    Object.entries(s.tables).map(([name, t]) => {
      const { indexVersion: _, ...rest } = t
      const numeric = Object.fromEntries(
        Object.entries(t.numeric).map(([a, col]) => [a, col.slice(0, t.nextRowId)]),
      )
      const indexes = Object.fromEntries(
        Object.entries(t.indexes).map(([a, ix]) => [
          a,
          {
            ...ix,
            // Keys in key order, and row ids in a bucket in row-id order: no read depends on either.
            hash:
              ix.hash &&
              [...ix.hash]
                .map(([k, rows]) => [k, [...rows].sort((a, b) => a - b)] as const)
                .sort((x, y) => (String(x[0]) < String(y[0]) ? -1 : 1)),
          },
        ]),
      )
      return [name, { ...rest, numeric, indexes }]
    }),
  )
  const Item = ds.dataClass('Item')
  const keys = (text: string, ...params: unknown[]) =>
    Item.query(text, ...params)
      .toArray()
      .map((e) => e.key)
  const answers = {
    byName: keys('name = :1', 'beta'),
    begins: keys('name begin "ga"'),
    code: keys('code = "c7"'),
    cheap: keys('price < 4'),
    scan: keys('qty > 10'),
    ordered: keys('price >= 0 order by price desc, name'),
    join: keys('group.name = "G2"'),
    count: Item.all().length,
    groups: ds.dataClass('Group').all().length,
  }
  return { globalStamp: s.globalStamp, tables, answers }
}

export type Op =
  | { kind: 'create'; name: string; code: number; price: number; group: number }
  | { kind: 'update'; key: number; price: number; name: string }
  | { kind: 'drop'; key: number }
  | { kind: 'batch'; keys: number[]; price: number }
  | { kind: 'group'; name: string }
  | { kind: 'dropGroup'; key: number }
  | { kind: 'index'; drop: boolean }
  | { kind: 'restore' }
  | { kind: 'tick' }

export const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      name: fc.constantFrom(...NAMES),
      // Codes collide with loaded ones now and then: a refused write must leave nothing behind.
      code: fc.integer({ min: 1, max: 200 }),
      price: fc.integer({ min: -5, max: 20 }),
      group: fc.integer({ min: 0, max: 5 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('update' as const),
      key: fc.integer({ min: 1, max: 60 }),
      price: fc.integer({ min: -5, max: 20 }),
      name: fc.constantFrom(...NAMES),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('drop' as const),
      key: fc.integer({ min: 1, max: 60 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('batch' as const),
      keys: fc.array(fc.integer({ min: 1, max: 60 }), { maxLength: 4 }),
      price: fc.integer({ min: 0, max: 9 }),
    }),
  },
  fc.record({ kind: fc.constant('group' as const), name: fc.constantFrom('G1', 'G9', 'Gx') }),
  fc.record({ kind: fc.constant('dropGroup' as const), key: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ kind: fc.constant('index' as const), drop: fc.boolean() }),
  fc.record({ kind: fc.constant('restore' as const) }),
  fc.record({ kind: fc.constant('tick' as const) }),
)

/** Applies `op`; a write the datastore refuses (unknown key, duplicate code…) is part of the run. */
export function apply(
  ds: Datastore,
  clock: ManualClock,
  op: Op,
  initial: ReturnType<Datastore['snapshot']>,
) {
  const Item = ds.dataClass('Item')
  try {
    switch (op.kind) {
      case 'create':
        Item.create({
          name: op.name,
          code: `c${op.code}`,
          price: op.price,
          groupID: op.group === 0 ? null : op.group,
        })
        break
      case 'update':
        Item.update(op.key, { price: op.price, name: op.name })
        break
      case 'drop':
        Item.drop(op.key)
        break
      case 'batch':
        ds.transaction(() => {
          for (const key of op.keys) Item.get(key)?.edit({ price: op.price }).saveOrFail()
        })
        break
      case 'group':
        ds.dataClass('Group').create({ name: op.name })
        break
      case 'dropGroup':
        ds.dataClass('Group').drop(op.key)
        break
      case 'index':
        if (op.drop) Item.dropIndex('price')
        else Item.createIndex('qty')
        break
      case 'restore':
        ds.restore(initial)
        break
      case 'tick':
        clock.advance(1000)
        break
    }
  } catch (e) {
    if (!(e instanceof Error) || !('errCode' in e)) throw e
  }
}
