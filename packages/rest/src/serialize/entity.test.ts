import { createDatastore, ManualClock, type DataFile, type ModelJson } from '@entistore/core'
import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { compileAttributes } from './compiled-attributes.js'
import { EntityWriter } from './entity.js'
import { Uris } from './uris.js'

// Every storage type, a relation each way, an alias of a date-only attribute and a calculated
// attribute: the compiled writer writes the texts, numbers and booleans itself and hands every
// other value back to the generic writer.
const model: ModelJson = {
  __NAME: 'shapes',
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'name', type: 'string' },
        { name: 'staff', kind: 'relatedEntities', path: 'employer' },
      ],
    },
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long' },
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
        { name: 'employerID', type: 'long' },
        { name: 'employer', kind: 'relatedEntity', path: 'Company', foreignKey: 'employerID' },
        { name: 'birthday', kind: 'alias', path: 'born' },
        { name: 'companyName', kind: 'alias', path: 'employer.name' },
        { name: 'double', kind: 'calculated', type: 'number' },
      ],
    },
  ],
}

const maybe = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 4, arbitrary: a })
const day = fc
  .date({ min: new Date('1900-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
  .map((d) => d.toISOString())

const employee = fc.record({
  name: maybe(fc.string({ unit: 'binary', maxLength: 12 })),
  salary: maybe(fc.double({ noNaN: true, noDefaultInfinity: true })),
  level: maybe(fc.integer({ min: -32768, max: 32767 })),
  big: maybe(fc.maxSafeInteger()),
  small: maybe(fc.integer({ min: -128, max: 127 })),
  active: maybe(fc.boolean()),
  born: maybe(day.map((iso) => iso.slice(0, 10))),
  seen: maybe(day),
  shift: maybe(fc.nat({ max: 86_400_000 })),
  extra: maybe(fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }))),
  token: maybe(fc.uint8Array({ minLength: 16, maxLength: 16 })).map((b) =>
    b ? Buffer.from(b).toString('hex').toUpperCase() : null,
  ),
  employerID: maybe(fc.integer({ min: 1, max: 2 })),
})

describe('compiled attribute writer', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('writes every entity exactly as the generic writer does', () => {
    fc.assert(
      fc.property(fc.array(employee, { minLength: 1, maxLength: 8 }), (rows) => {
        const data = {
          Company: [1, 2].map((ID) => ({ ID, name: `C${ID}` })),
          Employee: rows.map((r, i) => ({ ID: i + 1, ...r })),
        } as DataFile
        const ds = createDatastore(model, {
          data,
          clock: new ManualClock('2024-05-01T00:00:00Z'),
          calculated: { Employee: { double: (e) => 2 * Number(e.get('salary') ?? 0) } },
        })
        const writer = new EntityWriter(new Uris('/rest'))
        // A writer that may hide attributes writes every one through the generic loop.
        const generic = writer.restricted(() => true)
        for (const e of ds.dataClass('Employee').all()) {
          if (!e) continue
          const text = writer.member(e)
          expect(text).toBe(generic.member(e))
          expect(writer.single(e)).toBe(generic.single(e))
          expect(() => JSON.parse(text) as unknown).not.toThrow()
        }
      }),
      { numRuns: 60 },
    )
  })

  it('is left out where code generation is refused, and the generic loop writes instead', () => {
    vi.stubGlobal('Function', function refused() {
      throw new EvalError('Code generation from strings disallowed for this context')
    })
    expect(compileAttributes([{ form: 'text', name: 'a', member: ',"a":' }])).toBeUndefined()
  })
})

describe('a version rendered once for every reader (singleShared)', () => {
  it('renders a company once for any number of readers, again after a write; an alias never kept', () => {
    const ds = createDatastore(model, {
      data: { Company: [{ ID: 1, name: 'C1' }], Employee: [{ ID: 1, name: 'e' }] } as DataFile,
      clock: new ManualClock(0),
    })
    const writer = new EntityWriter(new Uris('/rest'))
    const single = vi.spyOn(writer, 'single')
    const company = ds.Company!.get(1)!
    const texts = [1, 2, 3].map(() => writer.singleShared(company))
    expect(new Set(texts).size).toBe(1)
    expect(texts[0]).toBe(writer.single(company))
    expect(single).toHaveBeenCalledTimes(2)
    const renamed = company.edit({ name: 'C2' }).saveOrFail()
    expect(JSON.parse(writer.singleShared(renamed)).name).toBe('C2')
    // Employee shows aliases and a calculated attribute: its text is made for each reader.
    const employee = ds.Employee!.get(1)!
    single.mockClear()
    writer.singleShared(employee)
    writer.singleShared(employee)
    expect(single).toHaveBeenCalledTimes(2)
  })
})
