/**
 * Issue 78: many heavy calls of a project's 4D code at once hold a read by key no longer than one
 * does. Each call's slices wait in core's line of slices (`sliceLine`), which runs one slice of
 * any of them a turn of the event loop, so that the turn's I/O (a read by key that came in) is
 * served between any two. Counted in slices a turn, not in time: four calls that each queued a
 * turn of their own ran four slices between two looks at the sockets.
 */
import { sliceLine } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { HOSTILE, projectCopy, served } from './four-d-rest.fixture.js'

// Passes of each call's loop: many slices each.
const PASSES = 30_000_000
const CALLS = 4

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

describe('heavy 4D calls at once', () => {
  it('run one slice a turn between them, however many, and each ends right', async () => {
    const serve = await served(projectCopy(HOSTILE, {}), { queryBudgetMs: 120_000 })
    const calls = Array.from({ length: CALLS }, () =>
      serve.client().post('$catalog/count', [PASSES]),
    )
    // Until every call waits in the line (each has run its first slice).
    for (let i = 0; sliceLine.waiting < CALLS; i++) {
      expect(i, 'the calls never waited in the line together').toBeLessThan(10_000)
      await turn()
    }
    // This test's immediate, queued after the line's turn, runs in the same check phase.
    const perTurn: number[] = []
    for (let i = 0; i < 12; i++) {
      const before = sliceLine.ran
      await turn()
      perTurn.push(sliceLine.ran - before)
    }
    expect(perTurn).toEqual(new Array(12).fill(1))
    let expected = 0
    for (let i = 1; i <= PASSES; i++) expected += i % 7
    for (const reply of await Promise.all(calls)) expect(reply.json.result).toBe(expected)
  })
})
