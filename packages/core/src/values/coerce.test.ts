import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { StorageAttributeDef } from '../schema/definitions.js'
import { loadModel } from '../schema/load-model.js'
import { binaryValue, encodeBase64, isBinaryValue, type BinaryValue } from './binary.js'
import {
  coerceExact,
  CoercionError,
  coerceForAttribute,
  coerceToType,
  describeValue,
  normalizeUuid,
} from './coerce.js'

/** The reason coerceToType gives for refusing `raw`. */
function refusal(
  type: Parameters<typeof coerceToType>[0],
  raw: unknown,
  dateOnly?: boolean,
): string {
  try {
    coerceToType(type, raw, dateOnly)
  } catch (e) {
    if (e instanceof CoercionError) return e.message
    throw e
  }
  throw new Error(`expected ${JSON.stringify(raw)} to be refused as ${type}`)
}

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])

describe('coerceToType', () => {
  it('turns null and undefined into null for every type', () => {
    for (const type of ['bool', 'long', 'string', 'uuid', 'date', 'object', 'image'] as const) {
      expect(coerceToType(type, null)).toBeNull()
      expect(coerceToType(type, undefined)).toBeNull()
    }
  })

  it('reads booleans, 0 and 1, and the words true and false as bool', () => {
    expect(coerceToType('bool', true)).toBe(true)
    expect(coerceToType('bool', 0)).toBe(false)
    expect(coerceToType('bool', 1)).toBe(true)
    expect(coerceToType('bool', 'true')).toBe(true)
    expect(coerceToType('bool', 'false')).toBe(false)
    expect(refusal('bool', 'yes')).toBe('not a boolean')
    expect(refusal('bool', 2)).toBe('not a boolean')
  })

  it('reads numbers and numeric text as integers', () => {
    expect(coerceToType('long', 42)).toBe(42)
    expect(coerceToType('long', '42')).toBe(42)
    expect(coerceToType('long', ' -7 ')).toBe(-7)
    expect(coerceToType('long', '1e3')).toBe(1000)
    expect(coerceToType('long', '+5')).toBe(5)
  })

  it('never stores -0', () => {
    expect(Object.is(coerceToType('long', -0), 0)).toBe(true)
    expect(Object.is(coerceToType('number', '-0'), 0)).toBe(true)
    // Nor inside an object: JSON would write it back as 0.
    const stored = coerceToType('object', { v: [{ z: -0 }], w: -0 }) as {
      v: { z: number }[]
      w: number
    }
    expect(Object.is(stored.v[0]!.z, 0)).toBe(true)
    expect(Object.is(stored.w, 0)).toBe(true)
  })

  it.each([
    ['byte', -128, 127],
    ['word', -32768, 32767],
    ['long', -2147483648, 2147483647],
    ['long64', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  ] as const)('keeps %s within %d to %d', (type, min, max) => {
    expect(coerceToType(type, min)).toBe(min)
    expect(coerceToType(type, max)).toBe(max)
    expect(refusal(type, max + 1)).toBe(`out of range for ${type} (${min} to ${max})`)
    expect(refusal(type, min - 1)).toBe(`out of range for ${type} (${min} to ${max})`)
  })

  it('refuses long64 text beyond the safe integers, where a number would round', () => {
    expect(refusal('long64', '9007199254740993')).toMatch(/^out of range for long64/)
  })

  it('refuses fractions, non-numeric text and non-finite numbers as integers', () => {
    expect(refusal('long', 1.5)).toBe('not an integer')
    expect(refusal('long', '1.5')).toBe('not an integer')
    expect(refusal('long', 'abc')).toBe('not a number')
    expect(refusal('long', '')).toBe('not a number')
    expect(refusal('long', '0x10')).toBe('not a number')
    expect(refusal('long', true)).toBe('not a number')
    expect(refusal('long', Number.NaN)).toBe('not a finite number')
    expect(refusal('number', Number.POSITIVE_INFINITY)).toBe('not a finite number')
  })

  it('reads any finite number as number', () => {
    expect(coerceToType('number', 1.25)).toBe(1.25)
    expect(coerceToType('number', '.5')).toBe(0.5)
    expect(coerceToType('number', '-2.5e-3')).toBe(-0.0025)
  })

  it('reads durations as milliseconds, from numbers or HH:MM:SS[.mmm]', () => {
    expect(coerceToType('duration', 1500)).toBe(1500)
    expect(coerceToType('duration', '01:02:03')).toBe(3_723_000)
    expect(coerceToType('duration', '100:00:00.5')).toBe(360_000_500)
    expect(coerceToType('duration', '00:00:00.123')).toBe(123)
    expect(coerceToType('duration', '2500')).toBe(2500)
    expect(refusal('duration', '01:60:00')).toBe('not a number')
  })

  it('converts numbers and booleans to text, and refuses objects as text', () => {
    expect(coerceToType('string', 'x')).toBe('x')
    expect(coerceToType('string', '')).toBe('')
    expect(coerceToType('string', 12.5)).toBe('12.5')
    expect(coerceToType('string', false)).toBe('false')
    expect(refusal('string', { a: 1 })).toBe('not a string')
  })

  it('stores uuids as 32 uppercase hex digits', () => {
    const canonical = '0123456789ABCDEF0123456789ABCDEF'
    expect(coerceToType('uuid', '0123456789abcdef0123456789abcdef')).toBe(canonical)
    expect(coerceToType('uuid', '01234567-89ab-cdef-0123-456789abcdef')).toBe(canonical)
    expect(coerceToType('uuid', '{01234567-89AB-CDEF-0123-456789ABCDEF}')).toBe(canonical)
    expect(refusal('uuid', '0123')).toBe('not a uuid (32 hex digits)')
    expect(refusal('uuid', 'G123456789ABCDEF0123456789ABCDEF')).toBe('not a uuid (32 hex digits)')
    expect(refusal('uuid', 12)).toBe('not a uuid (32 hex digits)')
  })

  it('stores dates as YYYY-MM-DD, or as ISO date-times when not date-only', () => {
    expect(coerceToType('date', '!!2024-03-05!!')).toBe('2024-03-05')
    expect(coerceToType('date', '2024-03-05T10:00:00+01:00', false)).toBe(
      '2024-03-05T09:00:00.000Z',
    )
    expect(refusal('date', '2024-02-30')).toBe('not a date (YYYY-MM-DD or ISO 8601)')
  })
})

describe('coerceToType for objects', () => {
  it('stores a deep copy: later changes to the input do not reach the stored value', () => {
    const input = { a: { b: [1, 2] } }
    const stored = coerceToType('object', input) as { a: { b: number[] } }
    input.a.b.push(3)
    expect(stored).toEqual({ a: { b: [1, 2] } })
  })

  it('freezes the copy at every level', () => {
    const stored = coerceToType('object', { a: { b: [{ c: 1 }] } }) as { a: { b: { c: number }[] } }
    expect(Object.isFrozen(stored)).toBe(true)
    expect(Object.isFrozen(stored.a)).toBe(true)
    expect(Object.isFrozen(stored.a.b)).toBe(true)
    expect(Object.isFrozen(stored.a.b[0])).toBe(true)
  })

  it('accepts arrays, drops undefined properties and turns undefined array items into null', () => {
    expect(coerceToType('object', [1, 'x', null])).toEqual([1, 'x', null])
    expect(coerceToType('object', { a: undefined, b: 1 })).toEqual({ b: 1 })
    expect(coerceToType('object', [undefined])).toEqual([null])
  })

  it('keeps a "__proto__" key as a plain key without touching any prototype', () => {
    const input = JSON.parse(
      '{"__proto__": {"polluted": true}, "nested": {"__proto__": {"polluted": true}}}',
    ) as object
    const stored = coerceToType('object', input) as Record<string, unknown>
    expect(Object.keys(stored)).toEqual(['__proto__', 'nested'])
    expect(Object.getOwnPropertyDescriptor(stored, '__proto__')?.value).toEqual({ polluted: true })
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype)
    expect(Object.getPrototypeOf(stored.nested)).toBe(Object.prototype)
    expect((stored as { polluted?: unknown }).polluted).toBeUndefined()
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined()
    expect(JSON.stringify(stored)).toBe(JSON.stringify(input))
  })

  it('accepts null-prototype objects', () => {
    const input = Object.assign(Object.create(null) as object, { a: 1 })
    expect(coerceToType('object', input)).toEqual({ a: 1 })
  })

  it('refuses what JSON cannot hold', () => {
    expect(refusal('object', 'text')).toBe('not an object')
    expect(refusal('object', 3)).toBe('not an object')
    expect(refusal('object', { d: new Date() })).toBe('an object value holds a non-plain object')
    expect(refusal('object', new Map())).toBe('an object value holds a non-plain object')
    expect(refusal('object', { f: () => 1 })).toBe(
      'a function cannot be stored in an object attribute',
    )
    expect(refusal('object', { n: 10n })).toBe('a bigint cannot be stored in an object attribute')
    expect(refusal('object', { n: Number.NaN })).toBe('an object value holds a non-finite number')
  })

  it('refuses a cycle instead of recursing forever', () => {
    const a: Record<string, unknown> = {}
    a.self = a
    expect(refusal('object', a)).toBe('the object is nested too deeply (more than 256 levels)')
  })
})

describe('coerceToType for pictures and BLOBs', () => {
  it('decodes {$base64, type} and keeps the given type', () => {
    const v = coerceToType('blob', {
      $base64: encodeBase64(Uint8Array.from([1, 2, 3])),
      type: 'application/pdf',
    })
    expect(v).toEqual({
      kind: 'binary',
      bytes: Uint8Array.from([1, 2, 3]),
      type: 'application/pdf',
      version: 1,
    })
  })

  it('types a BLOB without a type as application/octet-stream', () => {
    const v = coerceToType('blob', { $base64: 'AQID' }) as BinaryValue
    expect(v.type).toBe('application/octet-stream')
  })

  it('sniffs the type of a picture given without one', () => {
    const v = coerceToType('image', { $base64: encodeBase64(PNG) }) as BinaryValue
    expect(v.type).toBe('image/png')
    expect(v.bytes).toEqual(PNG)
  })

  it('prefers the given type over the sniffed one', () => {
    const v = coerceToType('image', {
      $base64: encodeBase64(PNG),
      type: 'image/x-custom',
    }) as BinaryValue
    expect(v.type).toBe('image/x-custom')
  })

  it('refuses a picture of unknown format given without a type', () => {
    expect(refusal('image', { $base64: 'AQID' })).toBe('unknown image format: give its "type"')
    // The same bytes are fine as a BLOB, and as a picture whose type is given.
    expect(isBinaryValue(coerceToType('blob', { $base64: 'AQID' }))).toBe(true)
    expect(
      (coerceToType('image', { $base64: 'AQID', type: 'image/avif' }) as BinaryValue).type,
    ).toBe('image/avif')
  })

  it('refuses bad base64 and a type that is not text', () => {
    expect(refusal('image', { $base64: 'not base64!' })).toBe('"$base64" is not valid base64')
    expect(refusal('blob', { $base64: 'AQID', type: 3 })).toBe('"type" must be a media type string')
    expect(refusal('blob', 'AQID')).toBe('expected {"$base64": "...", "type": "..."} or bytes')
  })

  it('copies bytes given as a Uint8Array or an ArrayBuffer', () => {
    const input = Uint8Array.from([9, 8, 7])
    const fromArray = coerceToType('blob', input) as BinaryValue
    const fromBuffer = coerceToType('blob', input.buffer) as BinaryValue
    input[0] = 0
    expect(fromArray.bytes).toEqual(Uint8Array.from([9, 8, 7]))
    expect(fromBuffer.bytes).toEqual(Uint8Array.from([9, 8, 7]))
    expect((coerceToType('image', PNG) as BinaryValue).type).toBe('image/png')
  })

  it('refuses an object that only looks like a BinaryValue', () => {
    // JSON input can say "kind": "binary"; without real bytes it must not be stored as is.
    const spoof = JSON.parse(
      '{"kind": "binary", "bytes": {"0": 1}, "type": "image/png", "version": 1}',
    ) as unknown
    expect(refusal('image', spoof)).toBe('expected {"$base64": "...", "type": "..."} or bytes')
    expect(isBinaryValue(spoof)).toBe(false)
  })

  it('keeps a value that is already a BinaryValue', () => {
    const v = binaryValue(PNG, 'image/png', 3)
    expect(coerceToType('image', v)).toBe(v)
  })
})

describe('coerceExact', () => {
  const TYPES = ['string', 'long', 'number', 'byte', 'word', 'long64', 'bool', 'date'] as const
  const stored = (type: (typeof TYPES)[number], raw: unknown) => {
    try {
      return { value: coerceToType(type, raw) }
    } catch (e) {
      return { refused: (e as Error).message }
    }
  }

  it('gives what coerceToType stores whenever it gives anything, to the sign of a zero', () => {
    const raw = fc.oneof(
      fc.double(),
      fc.integer(),
      fc.constantFrom(-0, 0, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), -(2 ** 31) - 1, 1.5, NaN, Infinity),
      fc.string(),
      fc.constantFrom('12', ' 3 ', '', null, undefined, true, [], {}),
    )
    fc.assert(
      fc.property(fc.constantFrom(...TYPES), raw, (type, r) => {
        const exact = coerceExact(type, r)
        if (exact === undefined) return
        const general = stored(type, r)
        expect(general).toHaveProperty('value')
        expect(
          Object.is(exact, (general as { value: unknown }).value),
          `${type} ${String(r)}`,
        ).toBe(true)
      }),
      { numRuns: 2000 },
    )
  })

  it('leaves conversions, checks and nulls to the general path', () => {
    expect(coerceExact('long', '12')).toBeUndefined()
    expect(coerceExact('long', 2 ** 31)).toBeUndefined()
    expect(coerceExact('long', 1.5)).toBeUndefined()
    expect(coerceExact('number', Infinity)).toBeUndefined()
    expect(coerceExact('string', 12)).toBeUndefined()
    expect(coerceExact('string', null)).toBeUndefined()
    expect(coerceExact('date', '2024-01-01')).toBeUndefined()
    expect(Object.is(coerceExact('long', -0), 0)).toBe(true)
    expect(Object.is(coerceExact('number', -0), 0)).toBe(true)
  })
})

describe('coerceForAttribute', () => {
  const schema = loadModel({
    dataClasses: [
      {
        name: 'T',
        attributes: [
          { name: 'ID', type: 'long' },
          { name: 'required', type: 'string', not_null: true },
          { name: 'optional', type: 'string' },
          { name: 'stamp', type: 'date', dateOnly: false },
          { name: 'code', type: 'string', maxLength: 3 },
          { name: 'note', type: 'string', never_null: true },
          { name: 'count', type: 'long', never_null: true },
          { name: 'hours', type: 'duration', never_null: true },
          { name: 'flag', type: 'bool', never_null: true },
          { name: 'day', type: 'date', never_null: true },
          { name: 'both', type: 'string', never_null: true, maxLength: 2, not_null: true },
        ],
      },
    ],
  })
  const attr = (name: string) =>
    schema.dataClasses[0]!.attributesByName.get(name) as StorageAttributeDef

  it('refuses null for a not-null attribute and accepts it otherwise', () => {
    expect(() => coerceForAttribute(attr('required'), null)).toThrow(
      new CoercionError('the attribute does not accept null'),
    )
    expect(coerceForAttribute(attr('optional'), null)).toBeNull()
    expect(coerceForAttribute(attr('required'), '')).toBe('')
  })

  it('refuses a text longer than maxLength, counting characters as 4D does (code points)', () => {
    expect(coerceForAttribute(attr('code'), 'abc')).toBe('abc')
    expect(coerceForAttribute(attr('code'), '😀😀😀')).toBe('😀😀😀')
    expect(() => coerceForAttribute(attr('code'), 'abcd')).toThrow(
      new CoercionError("longer than the attribute's 3 characters"),
    )
    // A number given for a string is checked as the text it becomes.
    expect(() => coerceForAttribute(attr('code'), 1234)).toThrow(CoercionError)
    expect(coerceForAttribute(attr('code'), null)).toBeNull()
  })

  it('stores the blank value of the type for null where the model maps null to blank', () => {
    expect(coerceForAttribute(attr('note'), null)).toBe('')
    expect(coerceForAttribute(attr('count'), undefined)).toBe(0)
    expect(coerceForAttribute(attr('hours'), null)).toBe(0)
    expect(coerceForAttribute(attr('flag'), null)).toBe(false)
    // The null date is a date's blank: stored as null, as JSON writes it.
    expect(coerceForAttribute(attr('day'), null)).toBeNull()
    // Blank before not-null: 4D's structure editor never has both, a model may.
    expect(coerceForAttribute(attr('both'), null)).toBe('')
    expect(coerceForAttribute(attr('note'), 'x')).toBe('x')
  })

  it("follows the attribute's dateOnly setting", () => {
    expect(coerceForAttribute(attr('stamp'), '2024-03-05')).toBe('2024-03-05T00:00:00.000Z')
  })
})

describe('normalizeUuid', () => {
  it('accepts dashes, lowercase, braces and surrounding spaces', () => {
    expect(normalizeUuid(' {a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11} ')).toBe(
      'A0EEBC999C0B4EF8BB6D6BB9BD380A11',
    )
  })

  it('gives undefined for anything but 32 hex digits', () => {
    expect(normalizeUuid('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1')).toBeUndefined()
    expect(normalizeUuid('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a111')).toBeUndefined()
    expect(normalizeUuid('')).toBeUndefined()
  })
})

describe('describeValue', () => {
  it('quotes text, cuts it at 40 characters, and names objects and arrays', () => {
    expect(describeValue('abc')).toBe('"abc"')
    expect(describeValue('x'.repeat(50))).toBe(`"${'x'.repeat(40)}…"`)
    expect(describeValue(12)).toBe('12')
    expect(describeValue(null)).toBe('null')
    expect(describeValue(undefined)).toBe('undefined')
    expect(describeValue({ a: 1 })).toBe('an object')
    expect(describeValue([1])).toBe('an array')
  })
})
