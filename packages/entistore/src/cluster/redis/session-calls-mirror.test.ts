/**
 * What of 4D's session calls (issue 49) travels between two processes sharing their sessions
 * through the in-memory Redis, as they are (the cluster is not changed for them): the session's
 * `storage` does, as any session data (a `use` block tells the store once when it ends); one-time
 * passcodes do not (each process keeps its own table), nor do session singletons' states.
 */
import { sessionStorage, use } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { fakeCluster } from './fake-cluster.fixture.js'

const turn = () => new Promise((resolve) => setImmediate(resolve))

describe('the session calls in a cluster', () => {
  it('a storage written through A is read through B; an OTP made in A restores nothing in B', async () => {
    const { process } = fakeCluster()
    const [A, B] = [process(), process()]
    const session = A.ds.sessions.open()
    await A.written()
    await B.sessions.fetch(session.id)
    use(sessionStorage(session, A.ds.sessions), (s) => (s.status = { step: 'waiting' }))
    A.sessionWrites.flushDirty()
    await A.written()
    await turn()
    const there = B.ds.sessions.peek(session.id)!
    expect(sessionStorage(there, B.ds.sessions).status).toEqual({ step: 'waiting' })
    const token = A.ds.sessionTokens.create(session)
    expect(B.ds.sessionTokens.restore(token)).toBeUndefined()
    expect(A.ds.sessionTokens.restore(token)).toBe(session)
    expect([A.errors, B.errors]).toEqual([[], []])
  })
})
