import { Turns } from '@entistore/rest'
import { describe, expect, it } from 'vitest'
import { takeSlice, turnDeadline } from './take-slice.js'

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Pieces that each take `ms` of busy time to make, `count` of them. */
function* slow(count: number, ms: number): Generator<string> {
  for (let i = 0; i < count; i++) {
    const until = performance.now() + ms
    while (performance.now() < until);
    yield 'x'
  }
}

describe('slices of work in one turn of the event loop', () => {
  it('share one deadline, set by the first slice of the turn', async () => {
    await nextTurn()
    const first = turnDeadline(5)
    expect(turnDeadline(50)).toBe(first)
    await nextTurn()
    // A new turn: a new deadline, from the first slice that asks.
    const before = performance.now()
    const second = turnDeadline(50)
    expect(second).toBeGreaterThanOrEqual(before + 50)
  })

  it('leave a second writer of the same turn one piece when the first used the budget', async () => {
    await nextTurn()
    const a = takeSlice(slow(1000, 1), Infinity, 50)
    const b = takeSlice(slow(1000, 1), Infinity, 50)
    // The first took pieces until its 50 ms were spent; the second, in the same turn, one.
    expect(a.pieces.length).toBeGreaterThan(1)
    expect(b.pieces.length).toBe(1)
    await nextTurn()
    expect(takeSlice(slow(1000, 1), Infinity, 50).pieces.length).toBeGreaterThan(1)
  })

  it('read the turns they are given: on a clock that counts, a slice of 5 takes 5 pieces', () => {
    // A clock that moves one unit a reading, and a turn that never ends (the test ends none).
    let readings = 0
    const turns = new Turns(
      () => readings++,
      () => undefined,
    )
    const pieces = Array.from({ length: 100 }, () => 'x')[Symbol.iterator]()
    expect(takeSlice(pieces, Infinity, 5, turns).pieces).toHaveLength(5)
    // The same turn: its deadline is passed, one piece moves the write on.
    expect(takeSlice(pieces, Infinity, 5, turns).pieces).toHaveLength(1)
  })
})
