/**
 * Rate counts shared between processes without waiting: one message a turn, none when nothing is
 * counted, the others' counts added to this process's own, ended windows let go. Turns are run by
 * hand (no timers).
 */
import { describe, expect, it } from 'vitest'
import { RateCounts } from './quota-windows.js'
import { BatchedCounts, type CountEntry } from './shared-counts.js'

// 10:00:15: the minute's window started at 10:00:00.
const NOW = Date.UTC(2026, 0, 1, 10, 0, 15)
const MINUTE = Date.UTC(2026, 0, 1, 10, 0, 0)

function process_() {
  const sent: CountEntry[][] = []
  const turns: (() => void)[] = []
  let now = NOW
  const shared = new BatchedCounts(
    (counts) => sent.push(counts),
    () => now,
    (fn) => turns.push(fn),
  )
  return {
    shared,
    sent,
    turns,
    endTurn: () => turns.splice(0).forEach((fn) => fn()),
    at: (t: number) => (now = t),
  }
}

describe('shared rate counts', () => {
  it('sends what a turn counted in one message, and nothing in a turn that counted nothing', () => {
    const p = process_()
    const counts = new RateCounts(p.shared)
    counts.add('nbRequests', 1, NOW)
    counts.add('nbRequests', 1, NOW)
    counts.add('inBytes', 300, NOW)
    expect(p.turns).toHaveLength(1)
    p.endTurn()
    expect(p.sent).toHaveLength(1)
    expect(p.sent[0]).toEqual([
      [`|nbRequestsPerMin|${MINUTE}`, 2, MINUTE + 60_000],
      [`|nbRequestsPerHour|${MINUTE}`, 2, MINUTE + 3_600_000],
      [`|inBytesPerMin|${MINUTE}`, 300, MINUTE + 60_000],
      [`|inBytesPerHour|${MINUTE}`, 300, MINUTE + 3_600_000],
    ])
    p.endTurn()
    expect(p.turns).toHaveLength(0)
    expect(p.sent).toHaveLength(1)
  })

  it("checks its own counts plus the others' last heard, a session's under its id", () => {
    const p = process_()
    const server = new RateCounts(p.shared)
    const session = new RateCounts(p.shared, 'S1')
    server.add('nbRequests', 1, NOW)
    expect(server.reached({ nbRequestsPerMin: 3 }, '', NOW)).toBeUndefined()
    p.shared.heard([[`|nbRequestsPerMin|${MINUTE}`, 2, MINUTE + 60_000]])
    expect(server.count('nbRequests', 'PerMin', NOW)).toBe(3)
    expect(server.reached({ nbRequestsPerMin: 3 }, '', NOW)).toMatchObject({
      name: 'nbRequestsPerMin',
      retryAfter: 45,
    })
    // The hour's count and the session's are other keys.
    expect(server.count('nbRequests', 'PerHour', NOW)).toBe(1)
    expect(session.count('nbRequests', 'PerMin', NOW)).toBe(0)
    p.shared.heard([[`S1|nbRequestsPerMin|${MINUTE}`, 5, MINUTE + 60_000]])
    expect(session.reached({ nbRequestsPerMinPerSession: 5 }, 'PerSession', NOW)).toMatchObject({
      name: 'nbRequestsPerMinPerSession',
    })
    // The next minute starts from 0, and what was heard of the last one is let go.
    p.at(MINUTE + 60_000)
    p.shared.heard([])
    expect(p.shared.others(`|nbRequestsPerMin|${MINUTE}`)).toBe(0)
    expect(server.count('nbRequests', 'PerMin', MINUTE + 60_000)).toBe(0)
  })
})
