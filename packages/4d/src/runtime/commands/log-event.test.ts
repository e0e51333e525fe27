// LOG EVENT (log-event.md): the message and its importance to the host's log, whatever the output
// type; the page's constants; without a host log, nothing happens.
import { describe, expect, it } from 'vitest'
import { run } from './run.fixture.js'

describe('LOG EVENT', () => {
  it('writes each message to the host log with its importance (0 when absent or unknown)', () => {
    const lines: string[] = []
    run(
      `LOG EVENT("opened")
LOG EVENT(Into 4D debug message; "started"; Information message)
LOG EVENT(Into system standard outputs; "slow"; Warning message)
LOG EVENT(Into Windows log events; "failed"; Error message)
LOG EVENT(Into 4D diagnostic log; "odd"; 9)`,
      { runtime: { log: (importance, message) => lines.push(`${importance} ${message}`) } },
    )
    expect(lines).toEqual([
      'information opened',
      'information started',
      'warning slow',
      'error failed',
      'information odd',
    ])
  })

  it("the Log Events theme's values", () => {
    expect(
      run(
        `return [Into Windows log events; Into 4D debug message; Into 4D request log; Into 4D commands log; Into 4D diagnostic log; Into system standard outputs; Information message; Warning message; Error message]`,
      ),
    ).toEqual([0, 1, 2, 3, 5, 6, 0, 1, 2])
  })

  it('goes nowhere without a host log', () => {
    expect(run(`LOG EVENT("nobody reads this")\nreturn True`)).toBe(true)
  })
})
