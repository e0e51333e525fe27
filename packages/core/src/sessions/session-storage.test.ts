/**
 * `Session.storage`, from 4D's pages: API/SessionClass.md (`.storage`: "a shared object that can be
 * used to store information available to all processes of the session", empty when the session
 * is made, written inside `Use (Session.storage) … End use`) and WebServer/sessions.md ("Storing
 * and sharing session information"), repository 4d/docs.
 */
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../clock/clock.js'
import { thrown } from '../errors/thrown.fixture.js'
import { SessionStore } from './session-store.js'
import { SESSION_STORAGE_KEY, sessionStorage, use } from './session-storage.js'

function setup() {
  const sessions = new SessionStore(new ManualClock())
  const changed: string[] = []
  sessions.observe({ changed: (s) => changed.push(s.id) })
  return { sessions, changed }
}

/** The errCode of the DatastoreError `fn` throws. */
const thrownCode = (fn: () => unknown): number => thrown(fn).errCode

describe('sessionStorage (4D Session.storage)', () => {
  it('is empty when the session is made, and the same object for every reader of the session', () => {
    const { sessions } = setup()
    const s = sessions.open()
    const storage = sessionStorage(s, sessions)
    expect(Object.keys(storage)).toEqual([])
    expect(storage.status).toBeUndefined()
    expect(sessionStorage(s, sessions)).toBe(storage)
    expect(s.data.has(SESSION_STORAGE_KEY)).toBe(false)
  })

  it('is written inside use(), read anywhere, nested objects and arrays included', () => {
    const { sessions } = setup()
    const s = sessions.open()
    const storage = sessionStorage(s, sessions)
    use(storage, (st) => {
      st.status = { step: 'Waiting for validation email', ID: 3 }
      st.tags = ['a']
    })
    expect(storage.status.step).toBe('Waiting for validation email')
    expect(storage.status).toBe(storage.status)
    // 4D: `Use (Session.storage.status) … End use` writes a nested shared object.
    use(storage.status, (status) => {
      status.step = 'Email validated'
    })
    use(storage, (st) => st.tags.push('b'))
    expect(JSON.parse(JSON.stringify(storage))).toEqual({
      status: { step: 'Email validated', ID: 3 },
      tags: ['a', 'b'],
    })
    // Another session has its own.
    expect(sessionStorage(sessions.open(), sessions).status).toBeUndefined()
  })

  it('refuses a write outside use(), as 4D refuses a shared object changed outside Use (9150)', () => {
    const { sessions } = setup()
    const storage = sessionStorage(sessions.open(), sessions)
    use(storage, (st) => (st.cart = { items: [1] }))
    expect(thrownCode(() => (storage.x = 1))).toBe(9150)
    expect(thrownCode(() => delete storage.cart)).toBe(9150)
    expect(thrownCode(() => (storage.cart.items[0] = 2))).toBe(9150)
    expect(thrownCode(() => storage.cart.items.push(2))).toBe(9150)
    expect(thrownCode(() => Object.defineProperty(storage, 'y', { value: 1 }))).toBe(9150)
    expect(thrownCode(() => use({}, () => 0))).toBe(9150)
    expect(storage.cart.items).toEqual([1])
  })

  it('copies what it is given, and holds only what JSON carries', () => {
    const { sessions } = setup()
    const storage = sessionStorage(sessions.open(), sessions)
    const given = { n: 1 }
    use(storage, (st) => (st.given = given))
    given.n = 2
    expect(storage.given.n).toBe(1)
    class Point {
      x = 1
    }
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    for (const bad of [new Date(), new Point(), () => 0, NaN, Infinity, 10n, cyclic, new Map()])
      expect(thrownCode(() => use(storage, (st) => (st.bad = bad)))).toBe(9150)
    expect(thrownCode(() => use(storage, (st) => (st['__proto__'] = {})))).toBe(9150)
    // undefined deletes; null is a value; an object of the storage is copied from what it holds.
    use(storage, (st) => {
      st.copy = st.given
      st.given = undefined
      st.none = null
    })
    expect(JSON.parse(JSON.stringify(storage))).toEqual({ copy: { n: 1 }, none: null })
  })

  it('runs use() synchronously: a function that returns a Promise is refused', () => {
    const { sessions } = setup()
    const storage = sessionStorage(sessions.open(), sessions)
    expect(thrownCode(() => use(storage, async () => 0))).toBe(9150)
    expect(use(storage, () => 42)).toBe(42)
  })

  it('tells the session store once a use() block wrote, so that a mirror follows; reads tell nothing', () => {
    const { sessions, changed } = setup()
    const s = sessions.open()
    const storage = sessionStorage(s, sessions)
    void storage.anything
    use(storage, () => undefined)
    expect(changed).toEqual([])
    use(storage, (st) => {
      st.a = 1
      st.b = 2
      use(st, (again) => (again.c = 3))
    })
    // The first write made the storage's object, the block's end told its writes.
    expect(changed).toEqual([s.id, s.id])
    // A session adopted from another process brings its storage: the same object reads it.
    sessions.adopt({
      id: s.id,
      createdAt: s.createdAt,
      lastAccess: s.lastAccess,
      timeout: s.timeout,
      established: true,
      data: [[SESSION_STORAGE_KEY, { a: 10 }]],
    })
    expect(storage.a).toBe(10)
  })

  it('establishes a guest that writes it, as a lock does', () => {
    const { sessions } = setup()
    const guest = sessions.openGuest()
    const storage = sessionStorage(guest, sessions)
    expect(guest.established).toBe(false)
    use(storage, (st) => (st.cart = []))
    expect(guest.established).toBe(true)
  })
})
