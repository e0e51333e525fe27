import { describe, expect, it } from 'vitest'
import { run4d } from '../../compile/run4d.js'

describe('Session', () => {
  it("is the host's session object, Null when the code runs for none (session.md)", () => {
    const session = { userName: 'ada' }
    expect(run4d('return Session', [], { runtime: { session } })).toBe(session)
    expect(run4d('return Session:C1714.userName', [], { runtime: { session } })).toBe('ada')
    expect(run4d('return Session=Null', [])).toBe(true)
  })
})
