import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../clock/clock.js'
import { DatastoreError } from '../errors/datastore-error.js'
import type { ModelJson } from '../schema/model-json.js'
import { createDatastore, type DatastoreWith } from '../orda/objects/datastore.js'
import type { DataFile } from './load-data.js'

const model: ModelJson = {
  dataClasses: [
    { name: 'Owner', attributes: [{ name: 'ID', type: 'long' }] },
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'label', type: 'string', not_null: true },
        { name: 'qty', type: 'word' },
        { name: 'day', type: 'date' },
        { name: 'owner', kind: 'relatedEntity', path: 'Owner' },
      ],
    },
  ],
}

type Store = DatastoreWith<'Owner' | 'Item'>
type Row = Record<string, unknown>

// Item -1 and 7 exist before every load: -1 can be duplicated on purpose, and 7 makes the
// autosequence of new rows start at 8.
const preloaded: DataFile = {
  Owner: [{ ID: 1 }, { ID: 2 }, { ID: 3 }],
  Item: [
    { ID: -1, label: 'old', qty: 1, day: '2020-01-01', owner: 1 },
    { ID: 7, label: 'seven', qty: 7 },
  ],
}

function store(): { ds: Store; clock: ManualClock } {
  const clock = new ManualClock('2024-01-01T00:00:00Z')
  const ds = createDatastore(model, { clock, data: preloaded }) as Store
  // Later loads happen at another time, so a half-applied load would show in the timestamps too.
  clock.advance(3_600_000)
  return { ds, clock }
}

/** Everything a load may change. */
function snapshot(ds: Store) {
  return {
    globalStamp: ds.globalStamp,
    classes: ds.dataClasses.map((dc) => ({
      length: dc.length,
      entities: dc
        .all()
        .toArray()
        .map((e) => [e.getKey(), e.getStamp(), e.getTimestamp(), { ...e.record.values }]),
    })),
    nextItem: ds.Item.table.peekSequence('ID'),
  }
}

const day = fc
  .date({
    min: new Date('1900-01-01T00:00:00Z'),
    max: new Date('2199-12-31T00:00:00Z'),
    noInvalidDate: true,
  })
  .map((d) => d.toISOString().slice(0, 10))

const fields = fc.record(
  {
    label: fc.string(),
    qty: fc.oneof(
      fc.integer({ min: -32768, max: 32767 }),
      fc.integer({ min: -32768, max: 32767 }).map(String),
    ),
    day: fc.oneof(
      day,
      day.map((d) => `!!${d}!!`),
    ),
    owner: fc.oneof(
      fc.constantFrom(1, 2, 3, null),
      fc.constantFrom(1, 2, 3).map((k) => ({ __KEY: String(k) })),
    ),
  },
  { requiredKeys: ['label'] },
)

// Explicit keys are zero or negative and autosequence keys positive, so the two never collide.
const rows = fc
  .uniqueArray(
    fc.integer({ min: -2_000_000, max: 0 }).filter((k) => k !== -1),
    { maxLength: 25 },
  )
  .chain((keys) =>
    fc
      .tuple(
        fc.array(fields, { minLength: keys.length, maxLength: keys.length }),
        fc.array(fields, { maxLength: 10 }),
      )
      .chain(([keyed, auto]) =>
        fc.shuffledSubarray(
          [...keys.map((ID, i): Row => ({ ID, ...keyed[i] })), ...auto.map((r): Row => ({ ...r }))],
          { minLength: keys.length + auto.length },
        ),
      ),
  )

/** Ways to spoil a valid row; each must make the whole load fail. */
const spoilers: [string, (row: Row) => unknown][] = [
  ['a word out of range', (r) => ({ ...r, qty: 40000 })],
  ['text for a word', (r) => ({ ...r, qty: 'many' })],
  ['February 30th', (r) => ({ ...r, day: '2023-02-30' })],
  ['null for a not-null attribute', (r) => ({ ...r, label: null })],
  ['a missing not-null attribute', ({ label: _, ...r }) => r],
  ['a dangling relation', (r) => ({ ...r, owner: 99 })],
  ['a relation key that is not a number', (r) => ({ ...r, owner: { __KEY: 'x' } })],
  ['a key already in the datastore', (r) => ({ ...r, ID: -1 })],
  ['an unknown attribute', (r) => ({ ...r, colour: 'red' })],
  ['a bad __STAMP', (r) => ({ ...r, __STAMP: -3 })],
  ['a row that is not an object', () => 'not a row'],
]

const bad = fc.record({
  rows,
  spoiler: fc.constantFrom(...spoilers),
  base: fields,
  at: fc.nat(),
})

describe('loadData, property-based', () => {
  it('loads nothing at all when one value anywhere in the file is bad', () => {
    fc.assert(
      fc.property(bad, ({ rows, spoiler: [, spoil], base, at }) => {
        const { ds } = store()
        const position = at % (rows.length + 1)
        const file = [...rows.slice(0, position), spoil({ ...base }), ...rows.slice(position)]
        const before = snapshot(ds)
        let error: unknown
        try {
          ds.loadData({ Item: file as Row[] })
        } catch (e) {
          error = e
        }
        expect(DatastoreError.is(error)).toBe(true)
        // The message names the spoiled row, wherever it is.
        expect((error as Error).message).toContain(`Item[${position}]`)
        expect(snapshot(ds)).toEqual(before)
        // And the same file without the spoiled row loads: it failed for that row only.
        ds.loadData({ Item: rows })
        expect(ds.Item.length).toBe(before.classes[1]!.length + rows.length)
      }),
    )
  })

  it('loads every valid row, each retrievable by its key with its values', () => {
    fc.assert(
      fc.property(rows, (rows) => {
        const { ds, clock } = store()
        const before = ds.Item.length
        expect(ds.loadData({ Item: rows })).toEqual({ Item: rows.length })
        expect(ds.Item.length).toBe(before + rows.length)
        expect(ds.globalStamp).toBe(0)
        // Rows without a key get 8, 9, … in file order.
        let next = 8
        for (const row of rows) {
          const key = row.ID ?? next++
          const e = ds.Item.getOrFail(String(key))
          expect(e.get('label')).toBe(row.label)
          expect(e.get('qty')).toBe(row.qty === undefined ? null : Number(row.qty))
          expect(e.get('day')).toBe(
            row.day === undefined ? null : String(row.day).replaceAll('!', ''),
          )
          const owner =
            row.owner === undefined || row.owner === null
              ? null
              : Number((row.owner as { __KEY?: string }).__KEY ?? row.owner)
          expect(
            e.get('owner') === null ? null : (e.get('owner') as { getKey(): unknown }).getKey(),
          ).toBe(owner)
          expect(e.getStamp()).toBe(1)
          expect(e.getTimestamp()).toBe(clock.now())
        }
        // Key order holds however the keys came.
        const keys = ds.Item.all()
          .toArray()
          .map((e) => e.getKey() as number)
        expect(keys).toEqual([...keys].sort((a, b) => a - b))
      }),
    )
  })
})
