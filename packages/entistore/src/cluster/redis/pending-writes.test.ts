/** What a request that needed Redis answers when something failed on the way. */
import { datastoreError } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { unavailable } from './pending-writes.js'

describe('unavailable', () => {
  it("passes the core's own errors as they are, with their status", () => {
    const quota = datastoreError('EntitySetNotFound', ['S1'])
    expect(unavailable(quota)).toBe(quota)
  })

  it('makes any other failure a 503 SharedStateUnavailable that says to try again', () => {
    const e = unavailable(new Error('connect ECONNREFUSED 127.0.0.1:6379'))
    expect([e.errCode, e.details]).toEqual([9140, { retryAfter: 1 }])
    expect(e.message).toContain('ECONNREFUSED')
  })
})
