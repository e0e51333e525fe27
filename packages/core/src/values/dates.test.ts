import { describe, expect, it } from 'vitest'
import { parseDate } from './dates.js'

describe('parseDate, date-only', () => {
  it.each([
    ['2024-03-05', '2024-03-05'],
    ['  2024-03-05 ', '2024-03-05'],
    ['!!2024-03-05!!', '2024-03-05'],
    ['5!3!2024', '2024-03-05'],
    ['05!03!2024', '2024-03-05'],
    ['2024-02-29', '2024-02-29'],
    ['2000-02-29', '2000-02-29'],
    ['2024-12-31', '2024-12-31'],
  ])('reads %j as %j', (input, expected) => {
    expect(parseDate(input, true)).toBe(expected)
  })

  it('keeps the day the client wrote in a date-time, whatever its time zone', () => {
    // 23:00 at +05:00 is 18:00 UTC the same day, but 23:00Z on the 5th is the 6th in Paris:
    // date-only values are the day as written, never shifted.
    expect(parseDate('2010-10-05T23:00:00Z', true)).toBe('2010-10-05')
    expect(parseDate('2010-10-05T23:00:00+05:00', true)).toBe('2010-10-05')
    expect(parseDate('2010-10-05T01:00:00-08:00', true)).toBe('2010-10-05')
    expect(parseDate('2010-10-05 12:30', true)).toBe('2010-10-05')
  })

  it.each([
    ['2023-02-29', 'February 29th of a common year'],
    ['2024-02-30', 'February 30th'],
    ['1900-02-29', 'February 29th of a century that is not a leap year'],
    ['2024-04-31', 'April 31st'],
    ['2024-13-01', 'month 13'],
    ['2024-00-10', 'month 0'],
    ['2024-01-00', 'day 0'],
    ['30!2!2024', 'February 30th in the dd!mm!yyyy form'],
    ['!!2024-02-30!!', 'February 30th in the !!YYYY-MM-DD!! form'],
    ['2024-02-30T10:00:00Z', 'February 30th in a date-time'],
    ['24-03-05', 'a two-digit year'],
    ['2024-3-5', 'unpadded month and day'],
    ['2024/03/05', 'slashes'],
    ['March 5, 2024', 'words'],
    ['', 'empty text'],
  ])('refuses %j (%s)', (input) => {
    expect(parseDate(input, true)).toBeUndefined()
    expect(parseDate(input, false)).toBeUndefined()
  })

  it('reads a Date and epoch milliseconds as their UTC day', () => {
    const ms = Date.UTC(2024, 2, 5, 23, 59)
    expect(parseDate(ms, true)).toBe('2024-03-05')
    expect(parseDate(new Date(ms), true)).toBe('2024-03-05')
    expect(parseDate(0, true)).toBe('1970-01-01')
  })

  it('refuses invalid Dates, non-finite numbers and other types', () => {
    expect(parseDate(new Date('nope'), true)).toBeUndefined()
    expect(parseDate(Number.NaN, true)).toBeUndefined()
    expect(parseDate(Number.POSITIVE_INFINITY, false)).toBeUndefined()
    expect(parseDate(true, true)).toBeUndefined()
    expect(parseDate({ year: 2024 }, true)).toBeUndefined()
    expect(parseDate(null, true)).toBeUndefined()
  })
})

describe('parseDate, with time of day', () => {
  it('writes a day as midnight UTC', () => {
    expect(parseDate('2024-03-05', false)).toBe('2024-03-05T00:00:00.000Z')
    expect(parseDate('!!2024-03-05!!', false)).toBe('2024-03-05T00:00:00.000Z')
    expect(parseDate('5!3!2024', false)).toBe('2024-03-05T00:00:00.000Z')
  })

  it('converts a date-time with an offset to UTC', () => {
    expect(parseDate('2010-10-05T23:00:00+02:00', false)).toBe('2010-10-05T21:00:00.000Z')
    expect(parseDate('2010-10-05T23:00:00+0200', false)).toBe('2010-10-05T21:00:00.000Z')
    expect(parseDate('2010-10-05T23:00:00-02:00', false)).toBe('2010-10-06T01:00:00.000Z')
  })

  it('reads a date-time without a zone as UTC', () => {
    expect(parseDate('2010-10-05T23:00', false)).toBe('2010-10-05T23:00:00.000Z')
    expect(parseDate('2010-10-05 23:00:12', false)).toBe('2010-10-05T23:00:12.000Z')
  })

  it('keeps milliseconds and drops finer digits', () => {
    expect(parseDate('2010-10-05T23:00:00.5Z', false)).toBe('2010-10-05T23:00:00.500Z')
    expect(parseDate('2010-10-05T23:00:00.123456789Z', false)).toBe('2010-10-05T23:00:00.123Z')
  })

  it('reads a Date and epoch milliseconds as their ISO form', () => {
    const ms = Date.UTC(2024, 2, 5, 10, 20, 30, 400)
    expect(parseDate(ms, false)).toBe('2024-03-05T10:20:30.400Z')
    expect(parseDate(new Date(ms), false)).toBe('2024-03-05T10:20:30.400Z')
  })

  it('refuses an impossible time of day, date-only or not', () => {
    for (const text of ['2010-10-05T25:00:00Z', '2010-10-05T23:60:00Z', '2010-10-05T23:00:61Z']) {
      expect(parseDate(text, false)).toBeUndefined()
      // A date-only attribute ignores the time, but text with an impossible time is still not a date.
      expect(parseDate(text, true)).toBeUndefined()
    }
  })

  it('gives a date-time in the stored form back as it is, once checked', () => {
    for (const text of [
      '2024-03-05T10:20:30.123Z',
      '2024-02-29T23:59:59.999Z',
      '0000-01-01T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
    ])
      expect(parseDate(text, false)).toBe(text)
    for (const text of [
      '2023-02-29T00:00:00.000Z',
      '2024-04-31T00:00:00.000Z',
      '2024-13-01T00:00:00.000Z',
      '2024-01-01T23:60:00.000Z',
      '2024-01-01T23:59:60.000Z',
    ])
      expect(parseDate(text, false)).toBeUndefined()
    // 24:00 ends the day (ISO 8601, as Date.parse reads it): stored as the next day's start.
    expect(parseDate('2024-01-01T24:00:00.000Z', false)).toBe('2024-01-02T00:00:00.000Z')
    // Every instant of the four-digit years reads back as the text toISOString wrote for it.
    const end = Date.parse('9999-12-31T23:59:59.999Z')
    for (let ms = Date.parse('0000-01-01T00:00:00.000Z'); ms <= end; ms += 1_234_567_890_123) {
      const text = new Date(ms).toISOString()
      expect(parseDate(text, false)).toBe(text)
    }
  })

  it('writes forms that sort as text in time order', () => {
    const inputs = [
      '2024-03-05T10:00:00+09:00',
      '2024-03-05T00:30:00Z',
      '2023-12-31T23:59:59.999Z',
      '2024-03-05',
    ]
    const stored = inputs.map((x) => parseDate(x, false)!)
    const byText = [...stored].sort()
    const byTime = [...stored].sort((a, b) => Date.parse(a) - Date.parse(b))
    expect(byText).toEqual(byTime)
  })
})

describe('parseDate outside the four-digit years', () => {
  it('refuses a Date whose year has no YYYY form rather than storing malformed text', () => {
    // toISOString writes year 10000 as "+010000-…"; stored, it would neither parse nor sort.
    expect(parseDate(Date.UTC(10000, 0, 1), true)).toBeUndefined()
    expect(parseDate(Date.UTC(10000, 0, 1), false)).toBeUndefined()
    expect(parseDate(new Date(Date.UTC(-1, 0, 1)), true)).toBeUndefined()
    expect(parseDate(Date.UTC(9999, 11, 31), true)).toBe('9999-12-31')
  })
})
