/**
 * Model-based test of the indexes: random sequences of inserts (data loads, bulk loads), record
 * replacements, deletes and bulk changes, applied to a table and to a plain Map of rows. After
 * every command each hash and sorted index must equal one rebuilt from scratch, the table must hold
 * what the Map holds, and queries answered through the indexes must equal a scan of the Map.
 * The core has no update/delete API yet: those commands drive Table's mutators as a commit would.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ModelJson } from '../schema/model-json.js'
import { createDatastore, type Datastore } from '../orda/objects/datastore.js'
import type { EntityRecord } from '../store/entity-record.js'
import type { DataSnapshot } from '../store/data-snapshot.js'
import { Table } from '../store/table.js'
import { fold as engineFold } from '../values/fold.js'
import { IndexSet } from './index-set.js'
import { expectIndexesRebuilt, hashContent } from './indexes-rebuilt.fixture.js'

const MODEL: ModelJson = {
  dataClasses: [
    {
      name: 'Group',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'name', type: 'string' },
      ],
    },
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'name', type: 'string', indexed: true },
        { name: 'age', type: 'long', indexed: true, indexKind: 'hash' },
        { name: 'score', type: 'number', indexed: true, indexKind: 'sorted' },
        { name: 'born', type: 'date', indexed: true },
        { name: 'note', type: 'string' },
        { name: 'extra', type: 'object', indexed: true },
        { name: 'group', kind: 'relatedEntity', path: 'Group' },
      ],
    },
  ],
}

interface Values {
  name: string | null
  age: number | null
  score: number | null
  born: string | null
  note: string | null
  extra: { a: number } | null
  group: number | null
}

// ---- The model: rows by key, in creation order ----

interface Model {
  rows: Map<number, Values>
  nextKey: number
  // Snapshots taken (ds.snapshot()) with the rows then.
  snapshots: { snapshot: DataSnapshot; rows: Map<number, Values> }[]
}

interface Real {
  ds: Datastore
  table: Table
}

const NAMES = ['Élodie', 'elodie', 'ELODIE', 'Bob', 'bob', 'alice', 'Ålice', '', null]
const valuesArb: fc.Arbitrary<Values> = fc.record({
  name: fc.constantFrom(...NAMES),
  age: fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constant(null)),
  score: fc.oneof(fc.constantFrom(-1, 0, 0.5, 2, 2.5), fc.constant(null)),
  born: fc.constantFrom('2000-01-01', '2000-01-02', '1999-12-31', null),
  note: fc.constantFrom('x', 'X', null),
  extra: fc.oneof(
    fc.constant(null),
    fc.nat({ max: 3 }).map((a) => ({ a })),
  ),
  group: fc.constantFrom(1, 2, 3, null),
})

/** The storage values of a record built straight from model values (the `group` slot included). */
const recordValues = (key: number, v: Values) =>
  // The dataclass's own values factory: storage order, as the model lists the attributes.
  shapes.makeValues([
    key,
    v.name,
    v.age,
    v.score,
    v.born,
    v.note,
    v.extra === null ? null : Object.freeze({ ...v.extra }),
    v.group,
  ])
const shapes = new Table(createDatastore(MODEL).dataClass('Item').def)

const liveRecords = (table: Table): EntityRecord[] => [...table.records()]

/** The live record of the `pick`-th row of the model (in key order). */
function picked(m: Model, r: Real, pick: number): { key: number; record: EntityRecord } {
  const keys = [...m.rows.keys()].sort((a, b) => a - b)
  const key = keys[pick % keys.length]!
  return { key, record: r.table.recordByKey(key)! }
}

// ---- Invariants ----

function expectTableIsModel(m: Model, r: Real): void {
  const records = liveRecords(r.table)
  expect(records.length).toBe(m.rows.size)
  expect(r.table.size).toBe(m.rows.size)
  for (const record of records) {
    const v = m.rows.get(record.key as number)
    expect(v, `row ${record.key}`).toBeDefined()
    expect({ ...record.values }).toEqual({ ...recordValues(record.key as number, v!) })
  }
  expectIndexesRebuilt(r.table)
  // Numeric columns follow every write too, once made (the first check makes them).
  for (const name of ['age', 'score']) {
    const column = r.table.numericColumn(name)
    for (let rowId = 0; rowId < r.table.rowCapacity; rowId++) {
      const value = r.table.record(rowId)?.values[name]
      expect(column[rowId], `${name} of row ${rowId}`).toBe(typeof value === 'number' ? value : NaN)
    }
  }
  // So do folded text columns.
  for (const name of ['name', 'note']) {
    const column = r.table.foldedColumn(name)
    for (let rowId = 0; rowId < r.table.rowCapacity; rowId++) {
      const value = r.table.record(rowId)?.values[name]
      expect(column.at(rowId), `folded ${name} of row ${rowId}`).toBe(
        typeof value === 'string' ? engineFold(value) : null,
      )
    }
  }
}

// ---- Commands ----

type Cmd = fc.Command<Model, Real>

class Load implements Cmd {
  constructor(readonly rows: readonly Values[]) {}
  check = () => true
  run(m: Model, r: Real): void {
    const file = this.rows.map((v) => ({ ID: m.nextKey++, ...v }))
    r.ds.loadData({ Item: file })
    for (const { ID, ...v } of file) m.rows.set(ID, v)
    expectTableIsModel(m, r)
  }
  toString = () => `load(${this.rows.length})`
}

/** ≥ 1000 rows in one commit: the indexes are left to build on first use. */
class BulkLoad implements Cmd {
  constructor(readonly seed: number) {}
  check = () => true
  run(m: Model, r: Real): void {
    const file = Array.from({ length: 1000 }, (_, i) => ({
      ID: m.nextKey++,
      name: NAMES[(i * 7 + this.seed) % NAMES.length]!,
      age: (i + this.seed) % 6,
      score: i % 3 === 0 ? null : (i % 5) / 2,
      born: i % 4 === 0 ? null : `2000-01-0${1 + (i % 3)}`,
      note: null,
      extra: null,
      group: i % 2 ? null : 1 + (i % 3),
    }))
    r.ds.loadData({ Item: file })
    for (const { ID, ...v } of file) m.rows.set(ID, v)
    expectTableIsModel(m, r)
  }
  toString = () => `bulkLoad(${this.seed})`
}

class Insert implements Cmd {
  constructor(readonly values: Values) {}
  check = () => true
  run(m: Model, r: Real): void {
    const key = m.nextKey++
    r.table.insert({
      rowId: r.table.nextRowId,
      key,
      stamp: 1,
      timestamp: 0,
      values: recordValues(key, this.values),
    })
    m.rows.set(key, this.values)
    expectTableIsModel(m, r)
  }
  toString = () => `insert(${JSON.stringify(this.values)})`
}

class Replace implements Cmd {
  constructor(
    readonly pick: number,
    readonly change: Partial<Values>,
  ) {}
  check = (m: Readonly<Model>) => m.rows.size > 0
  run(m: Model, r: Real): void {
    const { key, record } = picked(m, r, this.pick)
    const values = { ...m.rows.get(key)!, ...this.change }
    r.table.replace({ ...record, stamp: record.stamp + 1, values: recordValues(key, values) })
    m.rows.set(key, values)
    expectTableIsModel(m, r)
  }
  toString = () => `replace(#${this.pick}, ${JSON.stringify(this.change)})`
}

class Delete implements Cmd {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => m.rows.size > 0
  run(m: Model, r: Real): void {
    const { key, record } = picked(m, r, this.pick)
    r.table.delete(record.rowId)
    m.rows.delete(key)
    expectTableIsModel(m, r)
  }
  toString = () => `delete(#${this.pick})`
}

/** Replacements, deletes and inserts between beginBulk and endBulk, as a large commit runs them. */
class BulkChange implements Cmd {
  constructor(
    readonly steps: readonly { pick: number; values: Values | null; insert: boolean }[],
    // As a data load or a large replay runs it: no index follows, each is built on first use.
    readonly deferred: boolean,
  ) {}
  check = () => true
  run(m: Model, r: Real): void {
    r.table.indexes.beginBulk({ deferred: this.deferred })
    for (const step of this.steps) {
      if (step.insert || m.rows.size === 0) {
        const key = m.nextKey++
        const values = step.values ?? { ...EMPTY }
        const record = { rowId: r.table.nextRowId, key, stamp: 1, timestamp: 0 }
        r.table.insert({ ...record, values: recordValues(key, values) })
        m.rows.set(key, values)
        continue
      }
      const { key, record } = picked(m, r, step.pick)
      if (step.values === null) {
        r.table.delete(record.rowId)
        m.rows.delete(key)
      } else {
        r.table.replace({
          ...record,
          stamp: record.stamp + 1,
          values: recordValues(key, step.values),
        })
        m.rows.set(key, step.values)
      }
    }
    r.table.indexes.endBulk(r.table)
    expectTableIsModel(m, r)
  }
  toString = () => `bulkChange(${this.steps.length}${this.deferred ? ', deferred' : ''})`
}

/** Builds what a deferred bulk change left unbuilt, then checks every index. */
class Build implements Cmd {
  check = () => true
  run(m: Model, r: Real): void {
    r.table.indexes.build()
    expect(r.table.indexes.unbuilt).toBe(0)
    expectTableIsModel(m, r)
  }
  toString = () => 'build()'
}

class Rebuild implements Cmd {
  check = () => true
  run(m: Model, r: Real): void {
    r.table.indexes.rebuild(r.table)
    expectTableIsModel(m, r)
  }
  toString = () => 'rebuild()'
}

/** `ds.snapshot()`: the indexes are captured (copies that share a hash index's groups). */
class Snapshot implements Cmd {
  check = () => true
  run(m: Model, r: Real): void {
    m.snapshots.push({ snapshot: r.ds.snapshot(), rows: new Map(m.rows) })
    expectTableIsModel(m, r)
  }
  toString = () => 'snapshot()'
}

/**
 * `ds.restore(snapshot)`: the indexes come back as copies of the captured ones, whatever was
 * written since (the writes before a restore, or after an earlier restore of the same snapshot,
 * must not have reached the groups the copies share).
 */
class Restore implements Cmd {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => m.snapshots.length > 0
  run(m: Model, r: Real): void {
    const { snapshot, rows } = m.snapshots[this.pick % m.snapshots.length]!
    r.ds.restore(snapshot)
    m.rows = new Map(rows)
    expectTableIsModel(m, r)
  }
  toString = () => `restore(#${this.pick})`
}

/**
 * `slices` slices of the builds in slices (IndexSet.step), the indexes of `first` first: the
 * writes of the commands after come between two of them, and the finished indexes (checked once
 * none is unbuilt) must equal fresh ones.
 */
class Slice implements Cmd {
  constructor(
    readonly slices: number,
    readonly first: readonly string[],
  ) {}
  check = () => true
  run(m: Model, r: Real): void {
    let left = this.slices
    r.table.indexes.step(() => --left > 0, this.first)
    expectTableIsModel(m, r)
  }
  toString = () => `slice(${this.slices}, ${JSON.stringify(this.first)})`
}
/**
 * `hashOf` (a write's unique check) mid-build: the hash index holds every live row at once, the
 * rest of the build (the sort) left to the slices.
 */
class HashOf implements Cmd {
  constructor(readonly pick: number) {}
  check = () => true
  run(m: Model, r: Real): void {
    const hashed = r.table.indexes.kinds().filter((k) => k.hash)
    const name = hashed[this.pick % hashed.length]!.attribute
    const fresh = new IndexSet(r.table.def, r.table)
    fresh.rebuild(r.table)
    expect(hashContent(r.table.indexes.hashOf(name)!), name).toEqual(
      hashContent(fresh.of(name)!.hash!),
    )
    expectTableIsModel(m, r)
  }
  toString = () => `hashOf(#${this.pick})`
}

const sliceArb: fc.Arbitrary<Cmd> = fc
  .tuple(fc.integer({ min: 1, max: 12 }), fc.subarray(['name', 'age', 'score', 'born', 'group']))
  .map(([n, first]) => new Slice(n, first))

const EMPTY: Values = {
  name: null,
  age: null,
  score: null,
  born: null,
  note: null,
  extra: null,
  group: null,
}

// Queries through the indexes against a scan of the model.
const fold = (s: string): string => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
type Attr = 'name' | 'age' | 'score' | 'born' | 'note' | 'group'
type Op = '=' | '<' | '>=' | 'begin' | 'IN' | '!='

class Query implements Cmd {
  constructor(
    readonly attr: Attr,
    readonly op: Op,
    readonly value: string | number | null | (string | number | null)[],
  ) {}
  check = () => true
  run(m: Model, r: Real): void {
    const text = `${this.attr} ${this.op} :1`
    const found = r.ds
      .dataClass('Item')
      .query(text, this.value)
      .toArray()
      .map((e) => e.getKey())
    const key = (v: unknown): unknown => (typeof v === 'string' ? fold(v) : v)
    const eq = (v: unknown, q: unknown) =>
      q === null ? v === null : v !== null && key(v) === key(q)
    const holds = (v: unknown): boolean => {
      const q = this.value
      switch (this.op) {
        case '=':
          return eq(v, q)
        case '!=':
          return q === null ? v !== null : v !== null && !eq(v, q)
        case 'IN':
          return (q as unknown[]).some((x) => eq(v, x))
        case 'begin':
          return typeof v === 'string' && fold(v).startsWith(fold(q as string))
        case '<':
          return v !== null && (key(v) as number) < (key(q) as number)
        case '>=':
          return v !== null && (key(v) as number) >= (key(q) as number)
      }
    }
    const expected = [...m.rows]
      .filter(([, v]) => holds(v[this.attr]))
      .map(([k]) => k)
      .sort((a, b) => a - b)
    expect(found, text + ' ' + JSON.stringify(this.value)).toEqual(expected)
  }
  toString = () => `query(${this.attr} ${this.op} ${JSON.stringify(this.value)})`
}

const queryArb: fc.Arbitrary<Cmd> = fc.oneof(
  fc
    .tuple(
      fc.constantFrom<Op>('=', '!=', 'begin', '<', '>='),
      fc.constantFrom(...NAMES.filter((n) => n !== null), 'el', 'B'),
    )
    .map(([op, v]) => new Query('name', op, v)),
  fc
    .tuple(fc.constantFrom<Op>('=', '!=', '<', '>='), fc.integer({ min: 0, max: 6 }))
    .map(([op, v]) => new Query('age', op, v)),
  fc
    .tuple(fc.constantFrom<Op>('=', '<', '>='), fc.constantFrom(-1, 0, 0.5, 2, 2.5, 1))
    .map(([op, v]) => new Query('score', op, v)),
  fc
    .tuple(
      fc.constantFrom<Op>('=', '<', '>='),
      fc.constantFrom('2000-01-01', '2000-01-02', '1999-12-31'),
    )
    .map(([op, v]) => new Query('born', op, v)),
  fc
    .constantFrom<Attr>('name', 'age', 'score', 'born', 'note', 'group')
    .map((a) => new Query(a, '=', null)),
  fc
    .array(fc.constantFrom<string | null>('elodie', 'BOB', null), { maxLength: 3 })
    .map((v) => new Query('name', 'IN', v)),
  fc.constantFrom(1, 2, 3).map((g) => new Query('group', '=', g)),
)

const changeArb: fc.Arbitrary<Partial<Values>> = valuesArb.chain((v) =>
  fc
    .subarray(Object.keys(v) as (keyof Values)[])
    .map((keys) => Object.fromEntries(keys.map((k) => [k, v[k]]))),
)

const commands = fc.commands(
  [
    fc.array(valuesArb, { minLength: 1, maxLength: 4 }).map((rows) => new Load(rows)),
    valuesArb.map((v) => new Insert(v)),
    valuesArb.map((v) => new Insert(v)),
    fc.tuple(fc.nat(), changeArb).map(([pick, change]) => new Replace(pick, change)),
    fc.tuple(fc.nat(), changeArb).map(([pick, change]) => new Replace(pick, change)),
    fc.nat().map((pick) => new Delete(pick)),
    fc
      .array(
        fc.record({
          pick: fc.nat(),
          values: fc.option(valuesArb, { nil: null }),
          insert: fc.boolean(),
        }),
        { maxLength: 6 },
      )
      .chain((steps) => fc.boolean().map((deferred) => new BulkChange(steps, deferred))),
    fc.constant(new Build()),
    fc.constant(new Rebuild()),
    fc.constant(new Snapshot()),
    fc.nat().map((pick) => new Restore(pick)),
    queryArb,
    queryArb,
    sliceArb,
    sliceArb,
    sliceArb,
    fc.nat().map((pick) => new HashOf(pick)),
  ],
  { maxCommands: 30 },
)

const setup = () => {
  const ds = createDatastore(MODEL, {
    data: {
      Group: [
        { ID: 1, name: 'a' },
        { ID: 2, name: 'b' },
        { ID: 3, name: 'c' },
      ],
    },
  })
  const table = ds.dataClass('Item').table
  // Small slices: a few rows read, runs of a few keys merged, between two writes.
  table.indexes.buildSlices = { read: 3, run: 4, delta: 2, grow: 4 }
  return {
    model: { rows: new Map(), nextKey: 1, snapshots: [] },
    real: { ds, table },
  }
}

describe('indexes follow every change', () => {
  it('equal indexes rebuilt from scratch, and answer queries as a scan does', () => {
    fc.assert(
      fc.property(commands, (cmds) => fc.modelRun(setup, cmds)),
      { numRuns: 120 },
    )
  })

  it('come back as they were captured, through snapshots, writes and restores', () => {
    fc.assert(
      fc.property(
        fc.commands(
          [
            fc.array(valuesArb, { minLength: 1, maxLength: 6 }).map((rows) => new Load(rows)),
            valuesArb.map((v) => new Insert(v)),
            fc.tuple(fc.nat(), changeArb).map(([pick, change]) => new Replace(pick, change)),
            fc.tuple(fc.nat(), changeArb).map(([pick, change]) => new Replace(pick, change)),
            fc.nat().map((pick) => new Delete(pick)),
            fc.constant(new Snapshot()),
            fc.nat().map((pick) => new Restore(pick)),
            fc.nat().map((pick) => new Restore(pick)),
            queryArb,
          ],
          { maxCommands: 30 },
        ),
        (cmds) => fc.modelRun(setup, cmds),
      ),
      { numRuns: 60 },
    )
  })

  it('stay consistent through bulk loads mixed with single changes', () => {
    fc.assert(
      fc.property(
        fc.commands(
          [
            fc.nat({ max: 100 }).map((seed) => new BulkLoad(seed)),
            valuesArb.map((v) => new Insert(v)),
            fc.tuple(fc.nat(), changeArb).map(([pick, change]) => new Replace(pick, change)),
            fc.nat().map((pick) => new Delete(pick)),
            queryArb,
            fc.constant(new Build()),
            sliceArb,
            fc.constant(new Slice(400, [])),
          ],
          { maxCommands: 10 },
        ),
        (cmds) => fc.modelRun(setup, cmds),
      ),
      { numRuns: 10 },
    )
  })
})

describe('IndexSet.rebuild', () => {
  const loaded = () => {
    const { real } = setup()
    real.ds.loadData({
      Item: NAMES.map((name, i) => ({
        ID: i + 1,
        name,
        age: i % 3,
        score: i / 2,
        note: i % 2 ? 'x' : null,
        group: 1 + (i % 3),
      })),
    })
    return real
  }

  it('fills an index created after the data, and equals the indexes kept up to date', () => {
    const { ds, table } = loaded()
    const note = table.def.storage.find((a) => a.name === 'note')!
    expect(table.indexes.of('note')).toBeUndefined()
    table.indexes.create(note, 'auto')
    expect(table.indexes.of('note')!.sorted!.size).toBe(0) // empty until rebuilt
    table.indexes.rebuild(table)
    expect(table.indexes.of('note')!.hash!.get('x')).toHaveLength(4)
    expect(table.indexes.of('note')!.sorted!.size).toBe(NAMES.length)
    expectIndexesRebuilt(table)
    // The planner now answers through it.
    const run = ds.dataClass('Item').run("note = 'X'", { queryPlan: true })
    expect(run.queryPlan).toEqual({ item: '[index : Item.note ] === X' })
    expect(run.selection.length).toBe(4)
  })

  it('repairs indexes that were cleared or fell behind', () => {
    const { table } = loaded()
    const ix = table.indexes.of('name')!
    ix.hash!.clear()
    ix.sorted!.reset([])
    table.indexes.rebuild(table)
    expectIndexesRebuilt(table)
    // Twice is the same as once.
    table.indexes.rebuild(table)
    expectIndexesRebuilt(table)
  })

  it('leaves out deleted rows and empties every index of an empty table', () => {
    const { table } = loaded()
    for (const r of liveRecords(table).filter((r) => (r.key as number) % 2)) table.delete(r.rowId)
    table.indexes.rebuild(table)
    expectIndexesRebuilt(table)
    expect(table.indexes.of('name')!.sorted!.size).toBe(table.size)
    for (const r of liveRecords(table)) table.delete(r.rowId)
    table.indexes.rebuild(table)
    for (const ix of table.indexes.all()) {
      expect(ix.sorted?.size ?? 0).toBe(0)
      expect(ix.hash ? [...ix.hash.entries()] : []).toEqual([])
    }
  })

  it('does not index object attributes, whatever the model says', () => {
    const { table } = loaded()
    expect(table.indexes.of('extra')).toBeUndefined()
  })
})

describe('IndexSet.restore', () => {
  it('brings back the rows of a key as captured, after writes to them and a restore', () => {
    const { ds, table } = setup().real
    ds.loadData({ Item: [1, 2, 3].map((ID) => ({ ID, name: ['bob', 'Bob', 'x'][ID - 1] })) })
    const rowsOf = (key: string) => [...table.indexes.of('name')!.hash!.get(key)].sort()
    const snapshot = ds.snapshot()
    // A write to the group of `bob` (two rows), which the captured index shares until written.
    const insert = (key: number, name: string) =>
      table.insert({
        rowId: table.nextRowId,
        key,
        stamp: 1,
        timestamp: 0,
        values: recordValues(key, { ...EMPTY, name }),
      })
    insert(4, 'BOB')
    expect(rowsOf('bob')).toEqual([0, 1, 3])
    ds.restore(snapshot)
    expect(rowsOf('bob')).toEqual([0, 1])
    // Again, after writes following the restore: the snapshot's own copy is untouched.
    insert(5, 'bob')
    table.delete(0)
    ds.restore(snapshot)
    expect(rowsOf('bob')).toEqual([0, 1])
    expectIndexesRebuilt(table)
  })
})
