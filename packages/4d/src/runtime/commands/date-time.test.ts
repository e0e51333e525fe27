// The Date and Time theme (docs/commands-legacy/*.md), the clock the running context's.
import { ManualClock } from '@entistore/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { run } from './run.fixture.js'

let zone: string | undefined
beforeAll(() => {
  zone = process.env.TZ
  process.env.TZ = 'UTC'
})
afterAll(() => {
  if (zone === undefined) delete process.env.TZ
  else process.env.TZ = zone
})

// 2024-01-15T13:31:29.477Z, a Monday.
const clock = (): ManualClock => new ManualClock(Date.UTC(2024, 0, 15, 13, 31, 29, 477))

describe('Current date, Current time, Timestamp, Milliseconds, Tickcount', () => {
  it('read the injectable clock', () => {
    expect(
      run(`return [Current date; String(Current time); Timestamp; Milliseconds; Tickcount]`, {
        runtime: { clock: clock() },
      }),
    ).toEqual([
      '2024-01-15',
      '13:31:29',
      '2024-01-15T13:31:29.477Z',
      Date.UTC(2024, 0, 15, 13, 31, 29, 477),
      Math.floor((Date.UTC(2024, 0, 15, 13, 31, 29, 477) * 60) / 1000),
    ])
  })
})

describe('Add to date', () => {
  it('in one year, next month, tomorrow (as Current date+1)', () => {
    expect(
      run(
        `$d:=Current date
return [Add to date($d;1;0;0); Add to date($d;0;1;0); Add to date($d;0;0;1)=($d+1)]`,
        {
          runtime: { clock: clock() },
        },
      ),
    ).toEqual(['2025-01-15', '2024-02-15', true])
  })
  it('across years, backwards, and a day the month lacks', () => {
    expect(
      run(
        `return [Add to date(!2023-11-30!;0;3;0); Add to date(!2024-03-31!;0;-1;0); Add to date(!2024-01-31!;0;1;0); Add to date(!00-00-00!;1;1;1)]`,
      ),
    ).toEqual(['2024-03-01', '2024-03-02', '2024-03-02', '0000-00-00'])
  })
})

describe('Day of, Month of, Year of, Day number, Date, Time, Time string', () => {
  it('the parts of a date; Day number 1 for Sunday', () => {
    expect(
      run(`$d:=!2024-01-15!
return [Day of($d); Month of($d); Year of($d); Day number($d); Day number(!2024-01-14!); Day of(!00-00-00!)]`),
    ).toEqual([15, 1, 2024, 2, 1, 0])
  })
  it('Date and Time of texts and numbers (date.md, time.md)', () => {
    expect(
      run(
        `return [Date("12/25/94"); Date("2013-06-05T20:00:00"); String(Time("13:00:00")); String(Time(10000)); Time string(10000); Time string(?25:00:00?)]`,
      ),
    ).toEqual(['1994-12-25', '2013-06-05', '13:00:00', '02:46:40', '02:46:40', '25:00:00'])
  })
})
