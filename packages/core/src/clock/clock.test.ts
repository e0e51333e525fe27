import { afterEach, describe, expect, it, vi } from 'vitest'
import { ManualClock, systemClock } from './clock.js'

describe('systemClock', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('reads the wall clock', () => {
    vi.useFakeTimers()
    vi.setSystemTime(Date.UTC(2030, 5, 1))
    expect(systemClock.now()).toBe(Date.UTC(2030, 5, 1))
  })
})

describe('ManualClock', () => {
  it('starts at 2024-01-01 UTC by default, not at 0', () => {
    expect(new ManualClock().now()).toBe(Date.UTC(2024, 0, 1))
  })

  it('starts at a given number, Date or date text', () => {
    expect(new ManualClock(1234).now()).toBe(1234)
    expect(new ManualClock(new Date(Date.UTC(2020, 1, 2))).now()).toBe(Date.UTC(2020, 1, 2))
    expect(new ManualClock('2021-03-04T05:06:07Z').now()).toBe(Date.UTC(2021, 2, 4, 5, 6, 7))
  })

  it('refuses an invalid start time', () => {
    expect(() => new ManualClock('not a date')).toThrow(RangeError)
    expect(() => new ManualClock(Number.NaN)).toThrow('ManualClock: invalid start time NaN')
  })

  it('stands still until moved', () => {
    const clock = new ManualClock(1000)
    expect(clock.now()).toBe(1000)
    expect(clock.now()).toBe(1000)
  })

  it('moves forward by advance() and returns itself for chaining', () => {
    const clock = new ManualClock(1000)
    expect(clock.advance(500).advance(0).now()).toBe(1500)
  })

  it('rejects going backwards', () => {
    const clock = new ManualClock(1000)
    expect(() => clock.advance(-1)).toThrow(
      'ManualClock.advance: expected a non-negative duration, got -1',
    )
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError)
    expect(() => clock.set(999)).toThrow('ManualClock.set: time cannot go backward')
    expect(() => clock.set(new Date(0))).toThrow(RangeError)
    expect(clock.now()).toBe(1000)
  })

  it('jumps to a later or equal absolute time with set()', () => {
    const clock = new ManualClock(1000)
    expect(clock.set(1000).now()).toBe(1000)
    expect(clock.set('2030-01-01T00:00:00Z').now()).toBe(Date.UTC(2030, 0, 1))
    expect(clock.set(new Date(Date.UTC(2031, 0, 1))).now()).toBe(Date.UTC(2031, 0, 1))
  })

  it('refuses an invalid time in set()', () => {
    const clock = new ManualClock(1000)
    expect(() => clock.set('nope')).toThrow(RangeError)
    expect(clock.now()).toBe(1000)
  })
})
