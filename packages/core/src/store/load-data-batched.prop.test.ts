import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../clock/clock.js'
import type { ModelJson } from '../schema/model-json.js'
import { createDatastore, type DatastoreWith } from '../orda/objects/datastore.js'

// A unique text (folded: "A" and "a" collide), an autosequence, and a relation whose targets may
// come in a later batch than the rows that point to them.
const model: ModelJson = {
  dataClasses: [
    { name: 'Owner', attributes: [{ name: 'ID', type: 'long' }] },
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'code', type: 'string', unique: true },
        { name: 'qty', type: 'word' },
        { name: 'owner', kind: 'relatedEntity', path: 'Owner' },
      ],
    },
  ],
}

type Store = DatastoreWith<'Owner' | 'Item'>
type Row = Record<string, unknown>

function store(): Store {
  const clock = new ManualClock('2024-01-01T00:00:00Z')
  return createDatastore(model, {
    clock,
    data: { Owner: [{ ID: 1 }], Item: [{ ID: 5, code: 'taken', owner: 1 }] },
  }) as Store
}

/** Everything a load may change, row ids and stamps included. */
function state(ds: Store) {
  return {
    globalStamp: ds.globalStamp,
    classes: ds.dataClasses.map((dc) =>
      dc
        .all()
        .toArray()
        .map((e) => [e.record.rowId, e.getKey(), e.getStamp(), { ...e.record.values }]),
    ),
    nextItem: ds.Item.table.peekSequence('ID'),
  }
}

// Small value sets, so that keys, codes and references collide and dangle often.
const item = fc.record(
  {
    ID: fc.integer({ min: -4, max: 12 }),
    code: fc.constantFrom('a', 'A', 'b', 'taken', null),
    qty: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constant(70000)),
    owner: fc.constantFrom(1, 2, 3, 9, null),
  },
  { requiredKeys: [] },
)
const owner = fc.record({ ID: fc.integer({ min: 1, max: 4 }) })

/** A file's rows as [dataclass, row] in file order, and cut points that batch them. */
const loads = fc.record({
  rows: fc.array(
    fc.oneof(
      item.map((r): [string, Row] => ['Item', r]),
      owner.map((r): [string, Row] => ['Owner', r]),
    ),
    { maxLength: 14 },
  ),
  cuts: fc.array(fc.nat({ max: 14 }), { maxLength: 6 }),
  // Room asked for before each batch (as a load in slices does), in slices of `every` pieces.
  ahead: fc.nat({ max: 40 }),
  every: fc.integer({ min: 1, max: 3 }),
})

function outcome(run: () => void, ds: Store): unknown {
  try {
    run()
    return { ok: state(ds) }
  } catch (e) {
    // A refusal leaves the datastore as it was.
    return { error: (e as Error).message, untouched: state(ds) }
  }
}

describe('beginLoad, property-based', () => {
  it('gives what one loadData of the same rows gives, however they are batched', () => {
    fc.assert(
      fc.property(loads, ({ rows, cuts, ahead, every }) => {
        // The whole load: the rows grouped by dataclass, Owner first, as a data file holds them.
        const whole: Record<string, Row[]> = {}
        for (const [name, row] of rows) (whole[name] ??= []).push(row)
        const one = store()
        const expected = outcome(() => one.loadData(whole), one)
        // The same, fed in batches: each dataclass's rows cut at the given points.
        const ds = store()
        const got = outcome(() => {
          const load = ds.beginLoad()
          for (const [name, list] of Object.entries(whole)) {
            const at = [...new Set(cuts.filter((c) => c < list.length))].sort((a, b) => a - b)
            let from = 0
            for (const cut of [...at, list.length]) {
              let asked = 0
              while (!load.prepare(ahead, () => ++asked % every !== 0));
              load.add(name, list.slice(from, cut))
              from = cut
            }
          }
          load.commit()
        }, ds)
        expect(got).toEqual(expected)
      }),
      { numRuns: 300 },
    )
  })

  it('commits in slices what commit gives at once', async () => {
    const rows = Array.from({ length: 70_000 }, (_, i) => ({ code: `c${i}`, qty: i % 100 }))
    const whole = store()
    whole.loadData({ Item: rows })
    const ds = store()
    const load = ds.beginLoad()
    for (let i = 0; i < rows.length; i += 1000) load.add('Item', rows.slice(i, i + 1000))
    let pauses = 0
    await load.commitInSlices(async () => void pauses++)
    expect(pauses).toBeGreaterThanOrEqual(2)
    expect(state(ds)).toEqual(state(whole))
  })

  it('makes room for the rows to come in slices, the claims of unique values unchanged', () => {
    const ds = store()
    const load = ds.beginLoad()
    const rows = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({ code: `c${from + i}` }))
    load.add('Item', rows(0, 1000))
    // Room for 300,000 more codes, one piece a call: many calls, each moving a piece.
    let calls = 1
    while (!load.prepare(300_000, () => false)) calls++
    expect(calls).toBeGreaterThan(5)
    // Made: asked again, nothing to do.
    expect(load.prepare(300_000, () => false)).toBe(true)
    load.add('Item', rows(1000, 300_000))
    // A code claimed before the room was made is still refused.
    expect(() => load.add('Item', [{ code: 'C5' }])).toThrow(/C5/)
  })

  it('refuses to commit over writes made since it began, and a failed load for good', () => {
    const ds = store()
    const load = ds.beginLoad()
    load.add('Item', [{ code: 'x' }])
    ds.Item.create({ code: 'y' })
    expect(() => load.commit()).toThrow(TypeError)
    const failed = ds.beginLoad()
    expect(() => failed.add('Item', [{ code: 'taken' }])).toThrow(/taken/)
    expect(() => failed.add('Item', [{ code: 'z' }])).toThrow(TypeError)
    expect(() => failed.commit()).toThrow(TypeError)
    expect(ds.Item.length).toBe(2) // the preloaded row and the one created
  })
})
