/**
 * Work run in turns on its own (a save whose events run in steps): at once when it ends in its
 * first slice, else a slice a turn, each under what the last left of the budget, so that the
 * turns it waits are not its time; the budget's error ends it.
 */
import { describe, expect, it } from 'vitest'
import { DatastoreError } from '../errors/datastore-error.js'
import { spend, withBudget, BUDGET_STEP } from './budget.js'
import type { Work } from './slices.js'
import { workInTurns } from './work-in-turns.js'

// A clock 1 ms later at each reading; `wait` moves it on by itself (a turn spent waiting).
function ticking() {
  let t = 0
  return { clock: { now: () => ++t }, wait: (ms: number) => void (t += ms) }
}

function* steps(n: number, each: () => void = () => {}): Work<number> {
  for (let i = 0; i < n; i++) {
    each()
    yield
  }
  return n
}

describe('workInTurns', () => {
  it('answers at once, with no Promise, work that ends in its first slice', () => {
    const { clock } = ticking()
    expect(workInTurns(steps(1), clock, 5)).toBe(1)
  })

  it('goes on a slice a turn, the turns between not counted against the budget', async () => {
    const { clock, wait } = ticking()
    // Each step spends a budget step (the clock is read), then a second passes before the next
    // slice: 40 slices of waiting would end any budget counted in wall time.
    let slices = 0
    const running = withBudget({ deadline: clock.now() + 500, clock, ms: 500 }, () =>
      workInTurns(
        steps(40, () => {
          spend(BUDGET_STEP)
          slices++
        }),
        clock,
        2,
      ),
    )
    expect(running).toBeInstanceOf(Promise)
    const turns = setInterval(() => wait(1_000), 0)
    try {
      expect(await running).toBe(40)
    } finally {
      clearInterval(turns)
    }
    expect(slices).toBe(40)
  })

  it('ends with the budget’s error once its slices have spent it', async () => {
    const { clock } = ticking()
    const running = withBudget({ deadline: clock.now() + 30, clock, ms: 30 }, () =>
      workInTurns(
        steps(1_000, () => spend(BUDGET_STEP)),
        clock,
        2,
      ),
    )
    const error = await (running as Promise<number>).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(DatastoreError.is(error) && error.name).toBe('QueryBudgetExceeded')
  })
})
