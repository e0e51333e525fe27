/**
 * A data load of 1,000 rows or more leaves its indexes to be built on first use (index-set.ts,
 * beginBulk). What must hold meanwhile: queries answer as a scan would, writes before the first
 * use are in the index once built, and snapshots hold every index whole.
 */
import { describe, expect, it } from 'vitest'
import { createDatastore, type ModelJson } from '../index.js'
import { Table } from '../store/table.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Person',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'code', type: 'string', unique: true, indexed: true },
        { name: 'city', type: 'string', indexed: true },
        { name: 'age', type: 'long', indexed: true },
      ],
    },
  ],
}

const CITIES = ['Paris', 'Pau', 'Oslo', 'Évry']
const rows = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    ID: from + i,
    code: `C${String(from + i).padStart(6, '0')}`,
    city: CITIES[(from + i) % CITIES.length]!,
    age: (from + i) % 90,
  }))

const loaded = (n = 2000) => {
  const ds = createDatastore(model)
  ds.loadData({ Person: rows(1, n) })
  return { ds, Person: ds.dataClass('Person'), indexes: ds.dataClass('Person').table.indexes }
}

/** Keys found by `query`, in key order. */
const keysOf = (ds: ReturnType<typeof createDatastore>, query: string, ...params: unknown[]) =>
  ds
    .dataClass('Person')
    .query(query, ...params)
    .toArray()
    .map((e) => e.getKey() as number)
    .sort((a, b) => a - b)

describe('indexes after a large load', () => {
  it('are left unbuilt, and each is built by its first use, the planner still choosing it', () => {
    const { ds, Person, indexes } = loaded()
    expect(indexes.unbuilt).toBe(4) // ID (the key's sorted index), code, city, age
    // Listing them builds none.
    expect(Person.indexes().map((ix) => ix.attribute)).toEqual(['ID', 'code', 'city', 'age'])
    expect(indexes.unbuilt).toBe(4)
    const run = Person.run("code = 'c000042'", { queryPlan: true })
    expect(run.queryPlan).toEqual({ item: '[index : Person.code ] === c000042' })
    expect(run.selection.toArray().map((e) => e.getKey())).toEqual([42])
    expect(indexes.unbuilt).toBe(3)
    expect(keysOf(ds, 'age >= :1 AND age < :2', 10, 12)).toEqual(
      rows(1, 2000)
        .filter((r) => r.age >= 10 && r.age < 12)
        .map((r) => r.ID),
    )
    expect(indexes.unbuilt).toBe(2)
    expect(ds.buildIndexes()).toBe(2)
    expect(indexes.unbuilt).toBe(0)
    expect(ds.buildIndexes()).toBe(0)
  })

  it('hold the writes made before their first use, and keep refusing duplicates', () => {
    const { ds, Person, indexes } = loaded()
    Person.get(7)!.edit({ city: 'Lyon' }).saveOrFail()
    Person.get(8)!.dropOrFail()
    Person.create({ ID: 5000, code: 'C999999', city: 'Lyon', age: 1 })
    expect(indexes.unbuilt).toBeGreaterThan(0)
    expect(keysOf(ds, "city = 'lyon'")).toEqual([7, 5000])
    expect(keysOf(ds, "code = 'C000008'")).toEqual([])
    expect(() => Person.create({ ID: 5001, code: 'c000009', city: 'x', age: 2 })).toThrow(
      /unique|already/i,
    )
    ds.buildIndexes()
    expect(keysOf(ds, "city = 'évry'").length).toBe(500 - 1)
  })

  it('are captured unbuilt by a snapshot, which keeps each one built since at a restore', () => {
    const { ds, indexes } = loaded()
    const initial = ds.snapshot()
    // Nothing built for the snapshot (index-set-state.ts).
    expect(indexes.unbuilt).toBe(4)
    // Built by its use, over the snapshot's rows: an unchanged table's restore keeps it.
    expect(keysOf(ds, "city = 'oslo'").length).toBe(500)
    ds.restore(initial)
    expect(indexes.unbuilt).toBe(3)
    ds.loadData({ Person: rows(3001, 1500) })
    expect(keysOf(ds, "city = 'oslo'").length).toBe(500 + 375)
    // Built over rows the snapshot does not have: the restore builds it again over its own.
    expect(keysOf(ds, "code >= 'C003001'").length).toBe(1500)
    ds.restore(initial)
    expect(indexes.unbuilt).toBe(2)
    expect(keysOf(ds, "city = 'oslo'").length).toBe(500)
    expect(keysOf(ds, "code >= 'C003001'")).toEqual([])
    // Twice: the snapshot kept its copies; the others are still built on first use.
    ds.loadData({ Person: rows(3001, 1500) })
    ds.restore(initial)
    expect(indexes.unbuilt).toBe(2)
    expect(keysOf(ds, "code >= 'C003001'")).toEqual([])
    expect(keysOf(ds, 'age = 0').length).toBe((2000 / 90) | 0)
  })

  // A text index reads its keys from the rows once built (sorted-index.ts): the changes its
  // build applies after the sort are to rows that have moved on since, so it keeps its keys
  // until they are applied.
  it('follow writes made between the slices of a build, a text index too', () => {
    const { ds, Person, indexes } = loaded()
    const table = Person.table
    indexes.buildSlices = { read: 50, run: 64, delta: 1, grow: 4096 }
    let budget = 0
    const more = () => budget-- > 0
    for (let i = 0; !indexes.ready(['code']); i++) {
      budget = 2
      indexes.step(more, ['code'])
      // Rows far apart get codes that move them to the other end of the index.
      const id = 1 + ((i * 397) % 2000)
      Person.get(id)!
        .edit({ code: `${i % 2 ? 'A' : 'Z'}${i}-${id}` })
        .saveOrFail()
    }
    const sorted = indexes.of('code')!.sorted!
    expect(sorted.reading).toBe(true)
    const [keys, rowIds] = sorted.content()
    const built = { keys: [...keys], rowIds: [...rowIds] }
    indexes.rebuild(table)
    const [k, r] = indexes.of('code')!.sorted!.content()
    expect(built).toEqual({ keys: [...k], rowIds: [...r] })
    expect(keysOf(ds, "code = 'z0-1'")).toEqual([1])
  })

  // A hash index of many distinct keys grows several times while it is built: each growth moves
  // its keys to a larger table in pieces (HashIndex.prepare), and the writes made between two of
  // them are held by the build and applied once the table is there.
  it('follow writes made while a hash index grows in pieces during its build', () => {
    const ds = createDatastore({
      dataClasses: [
        {
          name: 'Tag',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'label', type: 'string', indexed: true, indexKind: 'hash' },
          ],
        },
      ],
    })
    // Three rows a label: too few distinct keys in the first rows for the build to size the table
    // for every row at once (readRows, entry-build.ts), so it grows as it reads.
    const label = (id: number) => `L${Math.floor(id / 3)}`
    ds.loadData({
      Tag: Array.from({ length: 3000 }, (_, i) => ({ ID: i + 1, label: label(i + 1) })),
    })
    const Tag = ds.dataClass('Tag')
    const indexes = Tag.table.indexes
    indexes.buildSlices = { read: 10, run: 64, delta: 1, grow: 8 }
    let budget = 0
    const more = () => budget-- > 0
    const moved: number[] = []
    for (let i = 0; !indexes.ready(['label']); i++) {
      budget = 3
      indexes.step(more, ['label'])
      // A row read already (low ids) gets a label of its own, or one another row holds.
      const id = 1 + ((i * 7) % 400)
      Tag.get(id)!
        .edit({ label: i % 3 ? `new-${i}` : label(id + 1) })
        .saveOrFail()
      moved.push(id)
    }
    expect(moved.length).toBeGreaterThan(50)
    const built = [...indexes.of('label')!.hash!.entries()].map(([k, r]) => [
      k,
      r.sort((a, b) => a - b),
    ])
    indexes.rebuild(Tag.table)
    const rebuilt = [...indexes.of('label')!.hash!.entries()].map(([k, r]) => [
      k,
      r.sort((a, b) => a - b),
    ])
    const byKey = (a: unknown[], b: unknown[]) => String(a[0]).localeCompare(String(b[0]))
    expect(built.sort(byKey)).toEqual(rebuilt.sort(byKey))
  })

  // The CLI shares one budget a turn among all its work in slices (take-slice.ts): the builder
  // asks the host when each slice must stop.
  it('stop each slice when the deadline the host gives says so', async () => {
    const { ds, indexes } = loaded()
    const asked: number[] = []
    // A deadline already past: each slice does one chunk of its work, then the next slice.
    ds.configureIndexBuilds({
      sliceMs: 7,
      deadline: (ms) => {
        asked.push(ms)
        return 0
      },
    })
    await ds.indexesReady('Person', ['city'])
    expect(indexes.ready(['city'])).toBe(true)
    // 2,000 rows read 2,048 at a time, then their sort and its merge: a slice each at least.
    expect(asked.length).toBeGreaterThan(1)
    expect(new Set(asked)).toEqual(new Set([7]))
  })

  it('run each build through the runner the table was given (the datastore keeps it out of query budgets)', () => {
    const def = createDatastore(model).dataClass('Person').table.def
    const built: number[] = []
    const table = new Table(def, (build) => {
      built.push(table.indexes.unbuilt)
      build()
    })
    table.indexes.beginBulk({ deferred: true })
    for (const [i, r] of rows(1, 10).entries())
      table.insert({
        rowId: i,
        key: r.ID,
        stamp: 1,
        timestamp: 0,
        values: table.makeValues([r.ID, r.code, r.city, r.age]),
      })
    table.indexes.endBulk(table)
    expect(table.indexes.of('city')!.hash!.get('paris')).toEqual([3, 7])
    expect(built).toEqual([3]) // the three others still wait
    table.indexes.build()
    expect(built).toEqual([3, 2, 1, 0])
  })
})
