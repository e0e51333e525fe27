/** A session store given by the embedder (`createDatastore(…, { sessions: { store } })`). */
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../clock/clock.js'
import { createDatastore } from '../orda/objects/datastore.js'
import { writeData, writeModel } from '../txn/writes.fixture.js'
import { SessionStore } from './session-store.js'
import type { SessionStoreApi } from './session-api.js'

/** Another implementation: the in-memory one behind a log of the calls the datastore makes. */
function loggingStore(inner: SessionStoreApi, log: string[]): SessionStoreApi {
  return {
    get size() {
      return inner.size
    },
    get counts() {
      return inner.counts
    },
    open: () => (log.push('open'), inner.open()),
    openGuest: () => (log.push('openGuest'), inner.openGuest()),
    touch: (id) => (log.push('touch'), inner.touch(id)),
    establish: (id) => (log.push('establish'), inner.establish(id)),
    renew: (id, change) => (log.push('renew'), inner.renew(id, change)),
    peek: (id) => (log.push('peek'), inner.peek(id)),
    resume: (id) => (log.push('resume'), inner.resume(id)),
    close: (id) => (log.push('close'), inner.close(id)),
    sweep: () => inner.sweep(),
    onClose: (listener) => inner.onClose(listener),
    onRenew: (listener) => inner.onRenew(listener),
  }
}

describe('a pluggable session store', () => {
  it('is the datastore’s sessions, asked whether a lock holder lives, and told to release locks', () => {
    const clock = new ManualClock()
    const log: string[] = []
    const store = loggingStore(new SessionStore(clock), log)
    const ds = createDatastore(writeModel(), { data: writeData(), clock, sessions: { store } })
    expect(ds.sessions).toBe(store)
    const session = ds.sessions.open()
    const owner = { id: session.id, kind: 'session' as const }
    expect(ds.dataClass('Employee').get(1)!.lock({ owner }).success).toBe(true)
    expect(ds.locks.holder('Employee', 1)?.owner.id).toBe(session.id)
    expect(log).toContain('peek')
    ds.sessions.close(session.id)
    expect(ds.locks.holder('Employee', 1)).toBeUndefined()
  })

  it('moves a session’s locks to its new id when it is renewed (a login)', () => {
    const clock = new ManualClock()
    const log: string[] = []
    const store = loggingStore(new SessionStore(clock), log)
    const ds = createDatastore(writeModel(), { data: writeData(), clock, sessions: { store } })
    const session = ds.sessions.openGuest()
    const owner = { id: session.id, kind: 'session' as const }
    // The lock establishes the guest: a flood of guests cannot evict it.
    expect(ds.dataClass('Employee').get(1)!.lock({ owner }).success).toBe(true)
    expect(session.established).toBe(true)
    const old = session.id
    ds.sessions.renew(session.id, { user: { name: 'ada' } })
    expect(log).toContain('renew')
    expect(session.id).not.toBe(old)
    expect(ds.locks.holder('Employee', 1)?.owner.id).toBe(session.id)
    // The old id holds nothing and can lock nothing.
    expect(ds.dataClass('Employee').get(2)!.lock({ owner }).success).toBe(false)
    ds.sessions.close(session.id)
    expect(ds.locks.holder('Employee', 1)).toBeUndefined()
  })
})
