import { describe, expect, it } from 'vitest'
import { countWork } from './work-meter.ts'

const fixture = () => import('./work-meter.fixture.ts')
const count = (pick: (m: Awaited<ReturnType<typeof fixture>>) => () => unknown) =>
  countWork('work-meter.fixture', async () => pick(await fixture()))

describe('countWork', () => {
  it('grows 8× for 8× the input of a linear loop and far more for a quadratic one', async () => {
    const l1 = await count((m) => m.linear(1000))
    const l8 = await count((m) => m.linear(8000))
    expect(l8 / l1).toBeGreaterThan(7.5)
    expect(l8 / l1).toBeLessThan(8.5)
    // Nested loops in one function: no call to count, only blocks.
    const q1 = await count((m) => m.quadratic(200))
    const q8 = await count((m) => m.quadratic(1600))
    expect(q8 / q1).toBeGreaterThan(50)
  })

  it('counts the same work the same way every time, however hot the code is', async () => {
    const a = await count((m) => m.linear(20_000))
    const b = await count((m) => m.linear(20_000))
    expect(a).toBe(b)
    expect(a).toBeGreaterThan(20_000)
  })
})
