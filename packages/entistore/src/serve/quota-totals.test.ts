/** The primary's totals of the workers' quota counts: each worker hears the others', ended windows go. */
import { describe, expect, it } from 'vitest'
import { QuotaTotals } from './quota-totals.js'

describe("the primary's quota totals", () => {
  it('gives each other worker the total less its own, and lets ended windows go', () => {
    let now = 0
    const totals = new QuotaTotals(() => now)
    totals.add(1, [['|nbRequestsPerMin|0', 3, 60_000]])
    const toHear = totals.add(2, [
      ['|nbRequestsPerMin|0', 2, 60_000],
      ['|nbRequestsPerHour|0', 2, 3_600_000],
    ])
    expect(toHear(2)).toBeUndefined()
    expect(toHear(1)).toEqual([
      ['|nbRequestsPerMin|0', 2, 60_000],
      ['|nbRequestsPerHour|0', 2, 3_600_000],
    ])
    expect(toHear(3)).toEqual([
      ['|nbRequestsPerMin|0', 5, 60_000],
      ['|nbRequestsPerHour|0', 2, 3_600_000],
    ])
    // A message that is not counts of numbers changes nothing.
    expect(totals.add(1, [['|x|0', Number.NaN, 60_000]])(2)).toBeUndefined()
    now = 60_000
    totals.add(1, [])
    expect(totals.size).toBe(1)
  })
})
