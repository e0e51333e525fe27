import { describe, expect, it } from 'vitest'
import { FourDError } from '../errors/fourd-error.js'
import { DateValue } from '../values/date-value.js'
import { TimeValue } from '../values/time-value.js'
import { add, div, idiv, mod, mul, neg, pow, sub } from './arithmetic.js'

const d = (y: number, m: number, day: number): DateValue => DateValue.of(y, m, day)
const t = TimeValue.hms
const text = (v: unknown): string => String(v)

describe('docs/Concepts/dt_number.md "Number operators"', () => {
  it('2+3 is 5, 3-2 is 1, 5*2 is 10, 5/2 is 2.5, 5\\2 is 2, 5%2 is 1, 2^3 is 8', () => {
    expect(add(2, 3)).toBe(5)
    expect(sub(3, 2)).toBe(1)
    expect(mul(5, 2)).toBe(10)
    expect(div(5, 2)).toBe(2.5)
    expect(idiv(5, 2)).toBe(2)
    expect(mod(5, 2)).toBe(1)
    expect(pow(2, 3)).toBe(8)
  })

  it('modulo: 10%2 is 0, 10%3 is 1, 10.5%2 is 0', () => {
    expect(mod(10, 2)).toBe(0)
    expect(mod(10, 3)).toBe(1)
    expect(mod(10.5, 2)).toBe(0)
  })

  it('precedence is the compiler’s: (3+4)*5 is 35 and 3+(4*5) is 23 as calls', () => {
    expect(mul(add(3, 4), 5)).toBe(35)
    expect(add(3, mul(4, 5))).toBe(23)
  })

  it('a\\b is Int(a/b), rounded down (docs/commands-legacy/int.md: Int(-123.4) is -124)', () => {
    expect(idiv(-7, 2)).toBe(-4)
    expect(idiv(7.5, 2)).toBe(3)
  })
})

describe('docs/commands/string.md: 1/0 is INF and -1/0 is -INF', () => {
  it('gives infinite numbers for `/`, and an error for `\\` and `%` by zero', () => {
    expect(div(1, 0)).toBe(Infinity)
    expect(div(-1, 0)).toBe(-Infinity)
    expect(() => idiv(1, 0)).toThrow(/Division by zero/)
    expect(() => mod(1, 0)).toThrow(FourDError)
  })
})

describe('docs/Concepts/dt_string.md "String operators"', () => {
  it('"abc" + "def" is "abcdef", "ab" * 3 is "ababab"', () => {
    expect(add('abc', 'def')).toBe('abcdef')
    expect(mul('ab', 3)).toBe('ababab')
  })

  it('docs/commands/num.md example 2: a text times 0 is the empty text', () => {
    expect(add(mul('Good', 1), mul('Bad', 0))).toBe('Good')
  })

  it('a text and a number do not add: "Argument types are incompatible" (54)', () => {
    expect(() => add('a', 1)).toThrow(expect.objectContaining({ errCode: 54 }))
    expect(() => add(1, 'a')).toThrow(/Number \+ Text/)
  })
})

describe('docs/Concepts/dt_date.md "Date operators"', () => {
  it('!2017-01-20! - !2017-01-01! is 19', () => {
    expect(sub(d(2017, 1, 20), d(2017, 1, 1))).toBe(19)
  })
  it('!2017-01-20! + 9 is !2017-01-29!, - 9 is !2017-01-11!', () => {
    expect(text(add(d(2017, 1, 20), 9))).toBe('01/29/2017')
    expect(text(sub(d(2017, 1, 20), 9))).toBe('01/11/2017')
  })
})

describe('docs/Concepts/dt_time.md "Time operators"', () => {
  it('?02:03:04? + ?01:02:03? is ?03:05:07?, - is ?01:01:01?', () => {
    expect(add(t(2, 3, 4), t(1, 2, 3))).toEqual(t(3, 5, 7))
    expect(sub(t(2, 3, 4), t(1, 2, 3))).toEqual(t(1, 1, 1))
  })
  it('?02:03:04? + 65 is 7449, - 65 is 7319, * 2 is 14768, / 2 is 3692, \\ 2 is 3692', () => {
    expect(add(t(2, 3, 4), 65)).toBe(7449)
    expect(sub(t(2, 3, 4), 65)).toBe(7319)
    expect(mul(t(2, 3, 4), 2)).toBe(14768)
    expect(div(t(2, 3, 4), 2)).toBe(3692)
    expect(idiv(t(2, 3, 4), 2)).toBe(3692)
  })
  it('?20:10:00? % ?04:20:00? is ?02:50:00?, ?02:03:04? % 2 is 0', () => {
    expect(mod(t(20, 10, 0), t(4, 20, 0))).toEqual(t(2, 50, 0))
    expect(mod(t(2, 3, 4), 2)).toBe(0)
  })
  it('example 2: (?23:00:00? + ?02:30:00?) % ?24:00:00? is ?01:30:00?', () => {
    const sum = add(t(23, 0, 0), t(2, 30, 0))
    expect(String(sum)).toBe('25:30:00')
    expect(mod(sum, t(24, 0, 0))).toEqual(t(1, 30, 0))
  })
})

describe('docs/Concepts/operators.md "Compound assignment operators" examples', () => {
  it('$d:=!2000-11-10!; $d+=10 is !2000-11-20!; $d1-=10 is !2000-10-31!', () => {
    expect(text(add(d(2000, 11, 10), 10))).toBe('11/20/2000')
    expect(text(sub(d(2000, 11, 10), 10))).toBe('10/31/2000')
  })
  it('$t2:="Hello"; $t2*=2 is "HelloHello"; $x3:=10; $x3/=2 is 5', () => {
    expect(mul('Hello', 2)).toBe('HelloHello')
    expect(div(10, 2)).toBe(5)
  })
  it('Time *= Time and Time /= Time give times', () => {
    expect(mul(t(0, 0, 3), t(0, 0, 4))).toEqual(TimeValue.of(12))
    expect(div(t(4, 0, 0), t(2, 0, 0))).toEqual(TimeValue.of(2))
  })
})

describe('operands 4D does not take', () => {
  it('Null and Undefined are errors in arithmetic', () => {
    expect(() => add(null, 1)).toThrow(/Null \+ Number/)
    expect(() => sub(undefined, 1)).toThrow(/Undefined - Number/)
  })
  it('a date plus a date, a boolean plus a number, a number before a date are errors', () => {
    expect(() => add(d(2000, 1, 1), d(2000, 1, 2))).toThrow(FourDError)
    expect(() => add(true, 1)).toThrow(FourDError)
    expect(() => add(1, d(2000, 1, 1))).toThrow(FourDError)
  })
  it('unary minus negates numbers and times only', () => {
    expect(neg(5)).toBe(-5)
    expect(neg(t(1, 0, 0))).toEqual(TimeValue.of(-3600))
    expect(() => neg('a')).toThrow(FourDError)
  })
})
