import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../clock/clock.js'
import { createDatastore, type DatastoreWith } from '../orda/objects/datastore.js'
import type { ModelJson } from '../schema/model-json.js'
import { isBinaryValue } from '../values/binary.js'
import { dumpData, type DanglingReference } from './dump-data.js'
import type { DataFile } from './load-data.js'

// Every value type, an explicit foreign key (employerID), an implicit one (manager: a hidden
// slot), a uuid key, a string key and a dataclass that is not exposed.
const model: ModelJson = {
  __NAME: 'dump',
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string', indexed: true },
        { name: 'logo', type: 'image' },
        { name: 'staff', kind: 'relatedEntities', path: 'employer' },
      ],
    },
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string' },
        { name: 'salary', type: 'number' },
        { name: 'level', type: 'word' },
        { name: 'big', type: 'long64' },
        { name: 'small', type: 'byte' },
        { name: 'active', type: 'bool' },
        { name: 'born', type: 'date' },
        { name: 'seen', type: 'date', dateOnly: false },
        { name: 'shift', type: 'duration' },
        { name: 'extra', type: 'object' },
        { name: 'token', type: 'uuid' },
        { name: 'cv', type: 'blob' },
        { name: 'employerID', type: 'long' },
        { name: 'employer', kind: 'relatedEntity', path: 'Company', foreignKey: 'employerID' },
        { name: 'manager', kind: 'relatedEntity', path: 'Employee' },
        { name: 'reports', kind: 'relatedEntities', path: 'manager' },
      ],
    },
    {
      name: 'Tag',
      exposed: false,
      attributes: [
        { name: 'code', type: 'string' },
        { name: 'id', type: 'uuid' },
        { name: 'label', type: 'string', not_null: true },
      ],
      key: [{ name: 'id' }],
    },
    {
      name: 'Country',
      attributes: [
        { name: 'code', type: 'string' },
        { name: 'name', type: 'string' },
      ],
      key: [{ name: 'code' }],
    },
  ],
}

type Store = DatastoreWith<'Company' | 'Employee' | 'Tag' | 'Country'>

const newStore = (): { ds: Store; clock: ManualClock } => {
  const clock = new ManualClock('2024-01-01T00:00:00Z')
  return {
    ds: createDatastore<'Company' | 'Employee' | 'Tag' | 'Country'>(model, { clock }),
    clock,
  }
}

/** What loading must reproduce: per dataclass, each entity's key, stamp, time and values. */
function content(ds: Store) {
  return ds.dataClasses.map((dc) => ({
    name: dc.name,
    entities: dc
      .all()
      .toArray()
      .map((e) => [
        e.getKey(),
        e.getStamp(),
        e.getTimestamp(),
        Object.fromEntries(
          Object.entries(e.record.values).map(([k, v]) => [
            k,
            isBinaryValue(v) ? { bytes: [...v.bytes], type: v.type, version: v.version } : v,
          ]),
        ),
      ]),
  }))
}

const bytes = fc.uint8Array({ minLength: 0, maxLength: 40 })
const png = bytes.map((b) => ({
  $base64: Buffer.from([0x89, 0x50, 0x4e, 0x47, ...b]).toString('base64'),
  type: 'image/png',
}))
const blob = bytes.map((b) => ({ $base64: Buffer.from(b).toString('base64'), type: 'x/y' }))
// A version other than 1 comes from a data file (or, once written again, from the store).
const versioned = <T extends object>(a: fc.Arbitrary<T>) =>
  fc.tuple(a, fc.integer({ min: 1, max: 1e6 })).map(([v, version]) => ({ ...v, version }))
const json: fc.Arbitrary<unknown> = fc.jsonValue().map((v) => ({ v }))
const day = fc
  .date({ min: new Date('1900-01-01'), max: new Date('2199-12-31'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10))
const instant = fc
  .date({ min: new Date('1900-01-01'), max: new Date('2199-12-31'), noInvalidDate: true })
  .map((d) => d.toISOString())
const orNull = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null, freq: 4 })

const employeeValues = fc.record(
  {
    name: orNull(fc.string()),
    salary: orNull(fc.double({ noNaN: true, noDefaultInfinity: true })),
    level: orNull(fc.integer({ min: -32768, max: 32767 })),
    big: orNull(fc.maxSafeInteger()),
    small: orNull(fc.integer({ min: -128, max: 127 })),
    active: orNull(fc.boolean()),
    born: orNull(day),
    seen: orNull(instant),
    shift: orNull(fc.nat()),
    extra: orNull(json),
    token: orNull(fc.uuid()),
    cv: orNull(blob),
  },
  { requiredKeys: [] },
)

/** One step of a history: creates, updates and deletes, at moving times. */
// Weighted so that keys left pointing at deleted entities come up in most runs.
const step = fc.oneof(
  fc.record({ op: fc.constant('company' as const), name: fc.string(), logo: orNull(png) }),
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('employee' as const),
      values: employeeValues,
      employer: fc.nat(),
      manager: fc.nat(),
    }),
  },
  fc.record({ op: fc.constant('update' as const), pick: fc.nat(), values: employeeValues }),
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('drop' as const),
      what: fc.constantFrom('Company', 'Employee'),
      pick: fc.nat(),
    }),
  },
  fc.record({
    op: fc.constant('loaded' as const),
    logo: orNull(versioned(png)),
    cv: orNull(versioned(blob)),
  }),
  fc.record({ op: fc.constant('tag' as const), code: orNull(fc.string()), label: fc.string() }),
  fc.record({ op: fc.constant('country' as const), code: fc.string({ minLength: 1 }) }),
  fc.record({ op: fc.constant('tick' as const), ms: fc.integer({ min: 1, max: 1e9 }) }),
)
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never

const pickKey = (ds: Store, name: 'Company' | 'Employee', n: number): unknown => {
  const all = ds.dataClass(name).all().toArray()
  return all.length === 0 ? null : (all[n % (all.length + 1)]?.getKey() ?? null)
}

function play(ds: Store, clock: ManualClock, steps: readonly Step[]): void {
  for (const s of steps) {
    switch (s.op) {
      case 'company':
        ds.Company.create({ name: s.name, logo: s.logo })
        break
      case 'employee':
        ds.Employee.create({
          ...s.values,
          employer: pickKey(ds, 'Company', s.employer),
          manager: pickKey(ds, 'Employee', s.manager),
        })
        break
      case 'update': {
        const key = pickKey(ds, 'Employee', s.pick)
        if (key !== null) ds.Employee.update(key, s.values)
        break
      }
      case 'drop': {
        const key = pickKey(ds, s.what, s.pick)
        if (key !== null) ds.dataClass(s.what).drop(key)
        break
      }
      case 'loaded':
        ds.loadData({ Company: [{ logo: s.logo }], Employee: [{ cv: s.cv }] })
        break
      case 'tag':
        ds.Tag.create({ code: s.code, label: s.label })
        break
      case 'country':
        if (ds.Country.get(s.code) === null) ds.Country.create({ code: s.code, name: s.code })
        break
      case 'tick':
        clock.advance(s.ms)
        break
    }
  }
}

describe('dumpData', () => {
  it('load(dump(ds)) holds the same entities, keys, stamps, times and values (pictures with their versions), through JSON too', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const { ds, clock } = newStore()
        play(ds, clock, steps)
        const dangling: DanglingReference[] = []
        const file = dumpData(ds, { onDangling: (d) => dangling.push(d) })
        // Deletes do not cascade: a key left pointing at a deleted entity is written as null,
        // which is what the relation reads already.
        for (const d of dangling) {
          const [, dc, key, attr] = /^(\w+)\((.*)\)\.(\w+)$/.exec(d.location)!
          const e = ds.dataClass(dc!).get(JSON.parse(key!))!
          expect(e.record.values[attr!]).toBe(d.key)
          expect(ds.dataClass(d.target).get(d.key)).toBeNull()
        }
        const parsed = JSON.parse(JSON.stringify(file)) as DataFile
        const again = newStore().ds
        again.loadData(parsed)
        const danglingAt = new Set(dangling.map((d) => d.location))
        const expected = content(ds).map((c) => ({
          ...c,
          entities: c.entities.map(([key, stamp, time, values]) => [
            key,
            stamp,
            time,
            Object.fromEntries(
              Object.entries(values as object).map(([k, v]) => [
                k,
                danglingAt.has(`${c.name}(${JSON.stringify(key)}).${k}`) ? null : v,
              ]),
            ),
          ]),
        }))
        expect(content(again)).toEqual(expected)
        // Once loaded, a second dump is the same file: nothing is lost or added on the way.
        expect(dumpData(again)).toEqual(JSON.parse(JSON.stringify(file)))
      }),
      { numRuns: 150 },
    )
  })
})

describe('dumpData, one example', () => {
  it('writes rows in key order with stamps, times, related keys and base64 pictures, nulls left out', () => {
    const { ds, clock } = newStore()
    ds.loadData({
      Company: [{ ID: 2, name: 'B', logo: { $base64: 'iVBORw==', type: 'image/png' } }, { ID: 1 }],
      Employee: [
        { ID: 1, name: 'Ada', employerID: 2 },
        { ID: 2, name: 'Bob', manager: 1, born: '1970-05-01', __STAMP: 4 },
      ],
    })
    clock.advance(1000)
    ds.Employee.update(1, { salary: 10 })
    expect(dumpData(ds)).toEqual({
      Company: [
        { __STAMP: 1, __TIMESTAMP: '2024-01-01T00:00:00.000Z', ID: 1 },
        {
          __STAMP: 1,
          __TIMESTAMP: '2024-01-01T00:00:00.000Z',
          ID: 2,
          name: 'B',
          logo: { $base64: 'iVBORw==', type: 'image/png' },
        },
      ],
      Employee: [
        {
          __STAMP: 2,
          __TIMESTAMP: '2024-01-01T00:00:01.000Z',
          ID: 1,
          name: 'Ada',
          salary: 10,
          employerID: 2,
        },
        {
          __STAMP: 4,
          __TIMESTAMP: '2024-01-01T00:00:00.000Z',
          ID: 2,
          name: 'Bob',
          born: '1970-05-01',
          manager: 1,
        },
      ],
      Tag: [],
      Country: [],
    })
  })

  it("writes a picture's or BLOB's version only when it is not 1, and an empty BLOB as such", () => {
    const { ds } = newStore()
    ds.loadData({
      Company: [{ ID: 1, logo: { $base64: 'iVBORw==', type: 'image/png', version: 3 } }],
      Employee: [
        { ID: 1, cv: { $base64: 'AP8=', type: 'application/octet-stream' } },
        { ID: 2, cv: { $base64: '', type: 'application/octet-stream' } },
        { ID: 3, cv: null },
      ],
    })
    const file = dumpData(ds) as Record<string, Record<string, unknown>[]>
    expect(file.Company![0]!.logo).toEqual({ $base64: 'iVBORw==', type: 'image/png', version: 3 })
    expect(file.Employee!.map((row) => row.cv)).toEqual([
      { $base64: 'AP8=', type: 'application/octet-stream' },
      { $base64: '', type: 'application/octet-stream' },
      undefined,
    ])
  })

  it('reports a key left pointing at a deleted entity and writes it as null', () => {
    const { ds } = newStore()
    ds.loadData({ Company: [{ ID: 1 }], Employee: [{ ID: 5, employerID: 1, manager: 5 }] })
    ds.Company.drop(1)
    const dangling: DanglingReference[] = []
    const file = dumpData(ds.store, { onDangling: (d) => dangling.push(d) })
    expect(dangling).toEqual([{ location: 'Employee(5).employerID', target: 'Company', key: 1 }])
    expect(file.Employee).toEqual([
      { __STAMP: 1, __TIMESTAMP: '2024-01-01T00:00:00.000Z', ID: 5, manager: 5 },
    ])
    const again = newStore().ds
    again.loadData(file)
    expect(again.Employee.get(5)!.get('manager')).not.toBeNull()
  })
})
