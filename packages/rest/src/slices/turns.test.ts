/**
 * The deadline the slices of one turn share, and what runs before the first of them: the replies
 * the turn's poll phase answered (core's `sliceLine.first`), which the process's turns run there.
 */
import { sliceLine } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { LOOP_TURNS, Turns } from './turns.js'

describe('Turns', () => {
  it('gives every slice of a turn the first one’s deadline, and runs atStart once a turn', () => {
    let clock = 100
    const ends: (() => void)[] = []
    const started: number[] = []
    const turns = new Turns(
      () => clock,
      (fn) => void ends.push(fn),
      () => void started.push(clock),
    )
    expect(turns.deadline(10)).toBe(110)
    clock = 105
    expect(turns.deadline(10)).toBe(110)
    expect(started).toEqual([100])
    ends.shift()!() // the turn ends
    expect(turns.deadline(10)).toBe(115)
    expect(started).toEqual([100, 105])
  })

  it('keeps the line’s slice half a turn of its own, whatever ran first in the turn', () => {
    let clock = 0
    const ends: (() => void)[] = []
    const line = { waiting: 1, running: false, ran: 0 }
    const turns = new Turns(
      () => clock,
      (fn) => void ends.push(fn),
      undefined,
      line,
    )
    // New work asks first while the line waits: half the turn's time.
    expect(turns.deadline(10)).toBe(5)
    clock = 9 // it overran its half by a slow step
    expect(turns.deadline(10)).toBe(5)
    // The line's slice: half a turn from its first question, the same at every later one.
    line.running = true
    line.waiting = 0
    expect(turns.deadline(10)).toBe(14)
    clock = 12
    expect(turns.deadline(10)).toBe(14)
    line.running = false
    // Work after the line's slice in the same turn: the turn's deadline, past.
    expect(turns.deadline(10)).toBe(5)
    ends.shift()!()
    // Nothing waits: the whole turn to the first slice, as without a line.
    clock = 20
    expect(turns.deadline(10)).toBe(30)
    ends.shift()!()
    // The line's slice first in its turn: the whole turn too.
    line.running = true
    line.ran = 1
    clock = 40
    expect(turns.deadline(10)).toBe(50)
    // Its next slice, in the same turn of a test's clock: a deadline of its own.
    line.ran = 2
    clock = 48
    expect(turns.deadline(10)).toBe(53)
  })

  it('writes what was asked to run first before the first slice of the process’s turn', async () => {
    // A turn of the loop with no slice in it first: the deadline of an earlier test's turn is over.
    await new Promise((resolve) => setImmediate(resolve))
    const ran: string[] = []
    sliceLine.first(() => ran.push('reply'))
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        LOOP_TURNS.deadline(10)
        ran.push('slice')
        resolve()
      }),
    )
    expect(ran).toEqual(['reply', 'slice'])
  })
})
