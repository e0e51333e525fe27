import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bitSet } from '../ops/logic.js'
import { newObject } from '../values/kinds.js'
import { FourDError } from '../errors/fourd-error.js'
import { DateValue } from '../values/date-value.js'
import { TimeValue } from '../values/time-value.js'
import { toBool, toDate, toNum, toText, toTime } from './conversions.js'

describe('docs/commands/string.md', () => {
  it('String(2^15) is "32768"; String(1/3) "0.3333333333333"; String(Arctan(1)*4) "3.14159265359"', () => {
    expect(toText(2 ** 15)).toBe('32768')
    expect(toText(1 / 3)).toBe('0.3333333333333')
    expect(toText(Math.atan(1) * 4)).toBe('3.14159265359')
  })
  it('an integer is its digits, the int32 fast path as the 13 significant digits give them', () => {
    const slow = (n: number) => String(Number(n.toPrecision(13)) || 0)
    fc.assert(fc.property(fc.integer(), (n) => toText(n) === slow(n)))
    expect(toText(-0)).toBe('0')
    expect(toText(2 ** 31)).toBe('2147483648')
    expect(toText(-(2 ** 31) - 1)).toBe('-2147483649')
    expect(toText(12345678901234)).toBe('12345678901230')
  })
  it('String(Log(-1)) is ""; String(1/0) "INF"; String(-1/0) "-INF"', () => {
    expect(toText(Math.log(-1))).toBe('')
    expect(toText(1 / 0)).toBe('INF')
    expect(toText(-1 / 0)).toBe('-INF')
  })
  it('a Boolean gives "True" or "False"; Undefined ""; Null "null"; a text itself', () => {
    expect(toText(true)).toBe('True')
    expect(toText(false)).toBe('False')
    expect(toText(undefined)).toBe('')
    expect(toText(null)).toBe('null')
    expect(toText('abc')).toBe('abc')
  })
  it('String(!2023-11-27!) is "11/27/2023"; a time HH:MM:SS', () => {
    expect(toText(DateValue.of(2023, 11, 27))).toBe('11/27/2023')
    expect(toText(TimeValue.hms(17, 30, 45))).toBe('17:30:45')
  })
  it('String(0 ?+ 7) is the number 128', () => {
    expect(toText(bitSet(0, 7))).toBe('128')
  })
  it('an object is not a parameter String takes', () => {
    expect(() => toText(newObject())).toThrow(FourDError)
  })
})

describe('docs/commands/num.md', () => {
  it('example 1: "ABCD" 0, "A1B2C3" 123, "123" 123, "123.4" 123.4, "–123" –123, "–123e2" –12300', () => {
    expect(toNum('ABCD')).toBe(0)
    expect(toNum('A1B2C3')).toBe(123)
    expect(toNum('123')).toBe(123)
    expect(toNum('123.4')).toBe(123.4)
    expect(toNum('–123')).toBe(-123)
    expect(toNum('–123e2')).toBe(-12300)
  })
  it('Num("123-456") is 123 but Num("-9") is -9; Num("123e–2") is 1.23', () => {
    expect(toNum('123-456')).toBe(123)
    expect(toNum('-9')).toBe(-9)
    expect(toNum('123e–2')).toBe(1.23)
  })
  it('example 3: Num("33,333.33";".") is 33333.33', () => {
    expect(toNum('33,333.33', '.')).toBe(33333.33)
    expect(toNum('33 333,33', ',')).toBe(33333.33)
  })
  it('a Boolean gives 1 or 0, a number itself, Undefined 0', () => {
    expect(toNum(true)).toBe(1)
    expect(toNum(false)).toBe(0)
    expect(toNum(12.5)).toBe(12.5)
    expect(toNum(undefined)).toBe(0)
  })
  it('example 2: ("Good"*Num(debt<1000))', () => {
    expect(toNum(500 < 1000)).toBe(1)
  })
})

describe('docs/commands-legacy/bool.md', () => {
  it('Undefined False, Null False, a Boolean itself, a number False if 0, other types False', () => {
    expect(toBool(undefined)).toBe(false)
    expect(toBool(null)).toBe(false)
    expect(toBool(true)).toBe(true)
    expect(toBool(0)).toBe(false)
    expect(toBool(-2)).toBe(true)
    expect(toBool('True')).toBe(false)
    expect(toBool(newObject())).toBe(false)
  })
})

describe('docs/commands-legacy/date.md', () => {
  it('example 2: "12/25/94" is 12/25/94; "40/40/94" 00/00/00; "It was the 6/30, we were in 2016" 06/30/16', () => {
    expect(toDate('12/25/94')).toEqual(DateValue.of(1994, 12, 25))
    expect(toDate('40/40/94')).toBe(DateValue.NULL)
    expect(toDate('It was the 6/30, we were in 2016')).toEqual(DateValue.of(2016, 6, 30))
  })
  it('example 2: "2020-11-17T00:00:00.0000" is 11/17/20; an undefined attribute 00/00/00', () => {
    expect(toDate('2020-11-17T00:00:00.0000')).toEqual(DateValue.of(2020, 11, 17))
    expect(toDate(undefined)).toBe(DateValue.NULL)
  })
  it('example 3: "2013-06-05T20:00:00" is June 5th, 2013', () => {
    expect(toDate('2013-06-05T20:00:00')).toEqual(DateValue.of(2013, 6, 5))
  })
  it('a two-digit year is 19xx from 30 and 20xx below', () => {
    expect(toDate('1/2/29')).toEqual(DateValue.of(2029, 1, 2))
    expect(toDate('1/2/30')).toEqual(DateValue.of(1930, 1, 2))
    expect(toDate('1.2.2030')).toEqual(DateValue.of(2030, 1, 2))
  })
  it('a date is returned as is', () => {
    const d = DateValue.of(2001, 2, 3)
    expect(toDate(d)).toBe(d)
  })
})

describe('docs/commands-legacy/time.md', () => {
  it('example 2: Time(10000) is 02:46:40, and so is Time((60*60)+(20*60)+5200)', () => {
    expect(String(toTime(10000))).toBe('02:46:40')
    expect(String(toTime(60 * 60 + 20 * 60 + 5200))).toBe('02:46:40')
  })
  it('example 1: Time("13:00:00") is 13 hours; Undefined ?00:00:00?', () => {
    expect(toTime('13:00:00')).toEqual(TimeValue.hms(13, 0, 0))
    expect(toTime(undefined)).toBe(TimeValue.ZERO)
    expect(toTime('not a time')).toBe(TimeValue.ZERO)
  })
})
