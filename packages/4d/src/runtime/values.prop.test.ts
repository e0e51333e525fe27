import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as rt from './operators.js'
import {
  REF_TABLE,
  refAddDays,
  refDaysBetween,
  refTextEquals,
  refTextOrder,
  refTruthy,
  type RefDate,
  type RefKind,
} from './reference.fixture.js'

// Texts with what 4D's comparison is about: case, precomposed and combining accents, wildcards,
// and plain letters around them.
const PIECES = ['a', 'A', 'b', 'é', 'E', 'e\u0301', 'ñ', 'N', 'å', 'ß', '@', ' ', '*', 'z', '1']
const text = fc.oneof(
  fc.array(fc.constantFrom(...PIECES), { maxLength: 6 }).map((p) => p.join('')),
  fc.string({ maxLength: 5 }),
)
const sign = (n: number): number => (n < 0 ? -1 : n > 0 ? 1 : 0)

describe('texts compare as docs/Concepts/dt_string.md says', () => {
  it('= and # fold case and accents and take @ in the right operand', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(rt.eq(a, b)).toBe(refTextEquals(a, b))
        expect(rt.ne(a, b)).toBe(!refTextEquals(a, b))
        // A text equals its capitals (where capitals keep its letters: "ß" gives "SS").
        const upper = a.toUpperCase()
        if (!a.includes('@') && upper.toLowerCase() === a.toLowerCase())
          expect(rt.eq(upper, a)).toBe(true)
      }),
      { numRuns: 3000 },
    )
  })

  it('< > <= >= order folded texts, a trailing @ standing for every text it begins', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        const c = refTextOrder(a, b)
        expect(rt.lt(a, b)).toBe(c < 0)
        expect(rt.gt(a, b)).toBe(c > 0)
        expect(rt.le(a, b)).toBe(c <= 0)
        expect(rt.ge(a, b)).toBe(c >= 0)
        expect(sign(rt.compareTexts(a, b))).toBe(c)
      }),
      { numRuns: 3000 },
    )
  })
})

// ---- The operator tables ----

type Sample = { kind: RefKind | 'collection' | 'object'; make: () => unknown }

const sample = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }).map((n): Sample => ({ kind: 'number', make: () => n })),
  fc
    .double({ min: -1e6, max: 1e6, noNaN: true })
    .map((n): Sample => ({ kind: 'number', make: () => n })),
  text.map((s): Sample => ({ kind: 'text', make: () => s })),
  fc.boolean().map((b): Sample => ({ kind: 'boolean', make: () => b })),
  fc
    .date({ min: new Date('1900-01-01'), max: new Date('2100-12-31'), noInvalidDate: true })
    .map((d): Sample => ({
      kind: 'date',
      make: () => rt.DateValue.of(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()),
    })),
  fc
    .integer({ min: -86400, max: 400000 })
    .map((s): Sample => ({ kind: 'time', make: () => rt.TimeValue.of(s) })),
  fc.constant<Sample>({ kind: 'null', make: () => null }),
  fc.constant<Sample>({ kind: 'undefined', make: () => undefined }),
  fc.constant<Sample>({ kind: 'collection', make: () => rt.collectionOf(1) }),
  fc.constant<Sample>({ kind: 'object', make: () => rt.objectOf('a', 1) }),
)

const OPERATORS: Record<string, (a: unknown, b: unknown) => unknown> = {
  '+': rt.add,
  '-': rt.sub,
  '*': rt.mul,
  '/': rt.div,
  '\\': rt.idiv,
  '%': rt.mod,
  '^': rt.pow,
}

const kindOfResult = (v: unknown): string => {
  const k = rt.kindOf(v)
  return k
}

describe('arithmetic follows 4D operator tables', () => {
  it('gives the kind the table says for each pair, and an error for each pair it does not list', () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(OPERATORS)), sample, sample, (op, x, y) => {
        const expected = REF_TABLE[op]![`${x.kind},${y.kind}`]
        const run = (): unknown => OPERATORS[op]!(x.make(), y.make())
        if (expected === undefined) {
          expect(run).toThrow(rt.FourDError)
          return
        }
        let result: unknown
        try {
          result = run()
        } catch (e) {
          // Only a division by zero may refuse a listed pair.
          expect((e as rt.FourDError).errCode).toBe(rt.ERRORS.DivisionByZero.errCode)
          return
        }
        expect(kindOfResult(result)).toBe(expected)
      }),
      { numRuns: 4000 },
    )
  })

  it('computes numbers and texts as JavaScript would, `%` on longs and `\\` rounding down', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e6, max: 1e6 }),
        fc.integer({ min: -1000, max: 1000 }),
        (a, b) => {
          expect(rt.add(a, b)).toBe(a + b)
          expect(rt.sub(a, b)).toBe(a - b)
          expect(rt.mul(a, b)).toBe(a * b)
          if (b !== 0) {
            expect(rt.mod(a, b)).toBe((a % b) | 0)
            expect(rt.idiv(a, b)).toBe(Math.floor(a / b))
          } else {
            expect(() => rt.mod(a, b)).toThrow(rt.FourDError)
            expect(() => rt.idiv(a, b)).toThrow(rt.FourDError)
          }
        },
      ),
    )
  })
})

// ---- Dates and times ----

const refDate = fc
  .date({ min: new Date('0100-01-01'), max: new Date('9999-12-31'), noInvalidDate: true })
  .map((d): RefDate => ({ y: d.getUTCFullYear(), m: d.getUTCMonth() + 1, d: d.getUTCDate() }))
const toDate = (d: RefDate): rt.DateValue => rt.DateValue.of(d.y, d.m, d.d)
const fields = (d: rt.DateValue): RefDate => ({ y: d.year, m: d.month, d: d.day })

describe('dates count days as docs/Concepts/dt_date.md says', () => {
  it('Date + Number and Date - Number move by days, Date - Date counts them', () => {
    fc.assert(
      fc.property(refDate, refDate, fc.integer({ min: -20000, max: 20000 }), (a, b, n) => {
        const shifted = refAddDays(a, n)
        if (shifted.y >= 100 && shifted.y <= 9999) {
          expect(fields(rt.add(toDate(a), n) as rt.DateValue)).toEqual(shifted)
          expect(fields(rt.sub(toDate(a), -n) as rt.DateValue)).toEqual(shifted)
        }
        expect(rt.sub(toDate(a), toDate(b))).toBe(refDaysBetween(a, b))
        expect(rt.lt(toDate(a), toDate(b))).toBe(refDaysBetween(a, b) < 0)
        expect(rt.eq(toDate(a), toDate(b))).toBe(refDaysBetween(a, b) === 0)
      }),
      { numRuns: 2000 },
    )
  })

  it('the null date is before every date and stays null under day arithmetic', () => {
    fc.assert(
      fc.property(refDate, fc.integer({ min: -1000, max: 1000 }), (a, n) => {
        expect(rt.lt(rt.DateValue.NULL, toDate(a))).toBe(true)
        expect((rt.add(rt.DateValue.NULL, n) as rt.DateValue).isNull).toBe(true)
      }),
    )
  })
})

describe('times are seconds as docs/Concepts/dt_time.md says', () => {
  it('Time ± Time is a Time, Time ± Number a Number, `%` of two times a Time', () => {
    const seconds = fc.integer({ min: 0, max: 596000 * 3600 - 1 })
    fc.assert(
      fc.property(seconds, seconds, fc.integer({ min: -100000, max: 100000 }), (s, t, n) => {
        const a = rt.TimeValue.of(s)
        const b = rt.TimeValue.of(t)
        expect((rt.add(a, b) as rt.TimeValue).seconds).toBe((s + t) | 0)
        expect((rt.sub(a, b) as rt.TimeValue).seconds).toBe(s - t)
        expect(rt.add(a, n)).toBe(s + n)
        expect(rt.sub(a, n)).toBe(s - n)
        if (t !== 0) expect((rt.mod(a, b) as rt.TimeValue).seconds).toBe(s % t)
        expect(rt.eq(a, b)).toBe(s === t)
        expect(rt.lt(a, b)).toBe(s < t)
      }),
    )
  })
})

// ---- Truthiness ----

describe('truthiness follows docs/Concepts/operators.md "Truthy and falsy"', () => {
  it('is false for False, Null, Undefined, the null date, "", [] and {} only', () => {
    const value = fc.oneof(
      fc.boolean().map((b) => ({ v: b, d: { kind: 'boolean' as const, value: b } })),
      fc.oneof(fc.constant(0), fc.double()).map((n) => ({ v: n, d: { kind: 'number' as const } })),
      text.map((s) => ({ v: s, d: { kind: 'text' as const, value: s } })),
      fc.constant({ v: null, d: { kind: 'null' as const } }),
      fc.constant({ v: undefined, d: { kind: 'undefined' as const } }),
      refDate.map((d) => ({ v: toDate(d), d: { kind: 'date' as const } })),
      fc.constant({ v: rt.DateValue.NULL, d: { kind: 'date' as const, nullDate: true } }),
      fc
        .integer({ min: 0, max: 100 })
        .map((s) => ({ v: rt.TimeValue.of(s), d: { kind: 'time' as const } })),
      fc.array(fc.integer(), { maxLength: 3 }).map((items) => ({
        v: rt.collectionOf(...items),
        d: { kind: 'collection' as const, empty: items.length === 0 },
      })),
      fc
        .dictionary(fc.string({ minLength: 1, maxLength: 3 }), fc.integer(), { maxKeys: 3 })
        .map((o) => ({
          v: rt.objectOf(...Object.entries(o).flat()),
          d: { kind: 'object' as const, empty: Object.keys(o).length === 0 },
        })),
    )
    fc.assert(
      fc.property(value, ({ v, d }) => {
        expect(rt.truthy(v)).toBe(refTruthy(d))
      }),
      { numRuns: 1000 },
    )
  })
})
