import { describe, expect, it } from 'vitest'
import { DateValue } from './date-value.js'
import { roundHalfEven, toInteger } from './numbers.js'
import { TimeValue } from './time-value.js'

describe('docs/Concepts/dt_date.md', () => {
  it('dates range from 1/1/100 to 12/31/32767; outside, or a day that does not exist, is the null date', () => {
    expect(DateValue.of(100, 1, 1).isNull).toBe(false)
    expect(DateValue.of(32767, 12, 31).isNull).toBe(false)
    expect(DateValue.of(99, 12, 31)).toBe(DateValue.NULL)
    expect(DateValue.of(2017, 2, 29)).toBe(DateValue.NULL)
    expect(DateValue.of(2016, 2, 29).isNull).toBe(false)
    expect(DateValue.of(32767, 12, 31).addDays(1)).toBe(DateValue.NULL)
  })
  it('!00-00-00! is the null date, written 00/00/00', () => {
    expect(DateValue.of(0, 0, 0)).toBe(DateValue.NULL)
    expect(String(DateValue.NULL)).toBe('00/00/00')
    expect(DateValue.NULL.toISO()).toBe('0000-00-00')
  })
  it('a date is immutable', () => {
    const d = DateValue.of(2020, 1, 1)
    expect(() => {
      ;(d as { year: number }).year = 2021
    }).toThrow(TypeError)
  })
  it('days count across months, leap years and centuries', () => {
    expect(DateValue.of(2000, 2, 28).addDays(1)).toEqual(DateValue.of(2000, 2, 29))
    expect(DateValue.of(1900, 2, 28).addDays(1)).toEqual(DateValue.of(1900, 3, 1))
    expect(DateValue.of(2024, 1, 1).daysSince(DateValue.of(2023, 1, 1))).toBe(365)
    expect(DateValue.fromISO('1970-01-01').days).toBe(0)
  })
})

describe('docs/Concepts/dt_time.md', () => {
  it('?00:00:00? is midnight; ?13:01:59? is 46919 seconds; 596,000 hours fit', () => {
    expect(TimeValue.hms(0, 0, 0)).toBe(TimeValue.ZERO)
    expect(TimeValue.hms(13, 1, 59).seconds).toBe(46919)
    expect(TimeValue.hms(596000, 0, 0).seconds).toBe(2_145_600_000)
    expect(String(TimeValue.hms(596000, 0, 0))).toBe('596000:00:00')
  })
  it('a negative time is written with its sign', () => {
    expect(String(TimeValue.of(-3661))).toBe('-01:01:01')
  })
})

describe('docs/Concepts/dt_number.md: Integers are 32-bit longs', () => {
  it('reals round half to even (Mod(3.5;2) is 0 as 3.5 makes 4; 10.5 % 2 is 0 as 10.5 makes 10)', () => {
    expect(roundHalfEven(3.5)).toBe(4)
    expect(roundHalfEven(10.5)).toBe(10)
    expect(roundHalfEven(-2.5)).toBe(-2)
    expect(roundHalfEven(2.4)).toBe(2)
    expect(roundHalfEven(-2.6)).toBe(-3)
  })
  it('keep 32 bits: -2^31..2^31-1, 2^31 becoming -2^31', () => {
    expect(toInteger(2 ** 31 - 1)).toBe(2 ** 31 - 1)
    expect(toInteger(2 ** 31)).toBe(-(2 ** 31))
    expect(toInteger(Number.NaN)).toBe(0)
    expect(Object.is(toInteger(-0.4), 0)).toBe(true)
  })
})
