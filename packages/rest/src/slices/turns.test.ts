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
