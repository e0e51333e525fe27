// 4D's Session class as a function called over REST reaches it, `currentSession()`: each member
// written from the example of 4D's page API/SessionClass (4D 21 R4), section named in the test's
// title. A request's code is a function called as its session (`ds.actAs(session, () => ds.call(…))`).
import { describe, expect, expectTypeOf, it } from 'vitest'
import { ManualClock } from '../../clock/clock.js'
import { thrown } from '../../errors/thrown.fixture.js'
import type { RolesJson } from '../../roles/roles.js'
import { use } from '../../sessions/session-storage.js'
import type { Session } from '../../sessions/session-api.js'
import { currentCall, currentSession } from './current-call.js'
import { createDatastore } from '../objects/datastore.js'
import { defineFunctions } from '../objects/define-functions.js'
import { payrollData, payrollModel } from '../calls/session-calls.fixture.js'
import type { WebSession } from './web-session.js'

// The roles.json of getPrivileges()'s example, and privileges the other examples name.
const roles: RolesJson = {
  privileges: [
    { privilege: 'simple', includes: [] },
    { privilege: 'medium', includes: ['simple'] },
    { privilege: 'WebAdmin' },
    { privilege: 'CreateInvoices' },
    { privilege: 'admin' },
    { privilege: 'superAdmin', includes: ['admin'] },
    { privilege: 'super_admin' },
  ],
  roles: [{ role: 'Medium', privileges: ['medium'] }],
  permissions: {
    allowed: [{ applyTo: 'Employee.salary', type: 'attribute', read: ['admin'] }],
  },
}

// The code the datastore function `run` runs: each test gives its own.
let body: () => unknown = () => undefined
const functions = defineFunctions({
  dataClasses: {
    // The blog's "restrict data according to information saved in session storage".
    Employee: {
      restrict() {
        const only = currentSession()?.storage.only as string | undefined
        return only === undefined ? this.all() : this.query('name = :1', only)
      },
    },
  },
  dataStore: {
    run: { call: () => body() },
    // getPrivileges()'s example: the role given by an `authentify` function.
    authentify: {
      call(role: string) {
        currentSession()!.clearPrivileges()
        currentSession()!.setPrivileges({ roles: role })
      },
    },
  },
})

function setup() {
  const clock = new ManualClock('2024-03-01T10:00:00Z')
  const ds = createDatastore(payrollModel, { clock, roles, functions, data: payrollData() })
  /** Runs `fn` as the code of a function `session` calls over REST. */
  const inSession = <T>(session: Session, fn: (s: WebSession) => T): T => {
    body = () => fn(currentSession()!)
    return ds.actAs(session, () => ds.call('run')) as T
  }
  return { ds, clock, inSession }
}

const salaries = (s: WebSession | null) =>
  currentCall()!.datastore.dataClass('Employee').all().sum('salary') ?? (s ? 0 : -1)

describe('currentSession(): 4D’s Session for a function called over REST', () => {
  it('is the call’s session; null outside a call and for a call made from TypeScript', () => {
    const { ds, inSession } = setup()
    const s = ds.sessions.openGuest()
    expect(currentSession()).toBeNull()
    body = () => currentSession()
    expect(ds.call('run')).toBeNull()
    const [first, second, id] = inSession(s, (session) => [session, currentSession(), session.id])
    expect(first).toBe(second)
    expect(id).toBe(s.id)
    expectTypeOf(currentSession()).toEqualTypeOf<WebSession | null>()
  })
})

describe('currentSession() in code a session runs outside a function', () => {
  it('ds.actAs and a restrict event read the acting session', () => {
    const { ds } = setup()
    const s = ds.sessions.openGuest()
    expect(ds.actAs(s, () => currentSession()?.id)).toBe(s.id)
    ds.actAs(s, () => use(currentSession()!.storage, (st) => (st.only = 'Ada')))
    expect(ds.actAs(s, () => ds.Employee.all().extract('name'))).toEqual(['Ada'])
    const other = ds.sessions.openGuest()
    expect(ds.actAs(other, () => ds.Employee.all().extract('name'))).toEqual(['Ada', 'Alan'])
    // Code that acts as no session (TypeScript's own calls) sees every entity.
    expect(ds.Employee.all().length).toBe(2)
  })
})

describe('Session members (4D API/SessionClass)', () => {
  it('.setPrivileges(): the WebAdmin example; text, list or settings, true', () => {
    const { ds, inSession } = setup()
    const s = ds.sessions.openGuest()
    const answer = inSession(s, (session) => {
      const info = { privileges: ['WebAdmin'] }
      return [session.setPrivileges(info), session.hasPrivilege('WebAdmin')]
    })
    expect(answer).toEqual([true, true])
    expect(inSession(s, (session) => session.hasPrivilege('webadmin'))).toBe(true)
    inSession(s, (session) => session.setPrivileges('simple, CreateInvoices'))
    expect(inSession(s, (session) => session.getPrivileges())).toEqual(['simple', 'CreateInvoices'])
    // Names the roles file does not declare are ignored.
    inSession(s, (session) => session.setPrivileges(['nobody', 'medium']))
    expect(inSession(s, (session) => session.getPrivileges())).toEqual(['simple', 'medium'])
  })

  it('.getPrivileges(): the roles given and what they include, not promoted ones (example)', () => {
    const { ds, inSession } = setup()
    const s = ds.sessions.openGuest()
    expect(inSession(s, (session) => session.getPrivileges())).toEqual([])
    ds.actAs(s, () => ds.call('authentify', 'Medium'))
    expect(inSession(s, (session) => session.getPrivileges())).toEqual(['simple', 'medium'])
    const promoted = inSession(s, (session) => {
      session.promote('admin')
      return [session.hasPrivilege('admin'), session.getPrivileges()]
    })
    expect(promoted).toEqual([true, ['simple', 'medium']])
  })

  it('.hasPrivilege(): the CreateInvoices example; a promoted privilege counts (21)', () => {
    const { ds, inSession } = setup()
    const s = ds.sessions.openGuest()
    const canCreate = () => inSession(s, (session) => session.hasPrivilege('CreateInvoices'))
    expect(canCreate()).toBe(false)
    inSession(s, (session) => session.setPrivileges('CreateInvoices'))
    expect(canCreate()).toBe(true)
  })

  it('.clearPrivileges(): no privilege and no user left, a guest again; promoted ones stay', () => {
    const { ds, inSession } = setup()
    const s = ds.sessions.openGuest()
    inSession(s, (session) => session.setPrivileges({ privileges: 'WebAdmin', userName: 'ann' }))
    const cleared = inSession(s, (session) => {
      session.promote('admin')
      const isOK = session.clearPrivileges()
      return [isOK, session.isGuest(), session.userName, session.hasPrivilege('admin')]
    })
    expect(cleared).toEqual([true, true, '', true])
    expect(inSession(s, (session) => session.hasPrivilege('WebAdmin'))).toBe(false)
    // A guest has nothing to clear: still true, the session unchanged.
    const id = s.id
    expect(inSession(s, (session) => session.clearPrivileges())).toBe(true)
    expect(s.id).toBe(id)
  })

  it('.isGuest(): true until setPrivileges() gives the session a user', () => {
    const { ds, inSession } = setup()
    const s = ds.sessions.openGuest()
    expect(inSession(s, (session) => session.isGuest())).toBe(true)
    inSession(s, (session) => session.setPrivileges({ roles: 'Medium' }))
    expect(inSession(s, (session) => session.isGuest())).toBe(false)
  })

  it('.userName: empty by default, set by setPrivileges({ userName })', () => {
    const { ds, inSession } = setup()
    const s = ds.sessions.openGuest()
    expect(inSession(s, (session) => session.userName)).toBe('')
    inSession(s, (session) => session.setPrivileges({ privileges: 'simple', userName: 'ann' }))
    expect(inSession(s, (session) => session.userName)).toBe('ann')
  })

  it('.id: the session’s id, a new one when its privileges change (as at a login)', () => {
    const { ds, inSession } = setup()
    const s = ds.sessions.openGuest()
    const before = s.id
    const [id, after] = inSession(s, (session) => {
      const id = session.id
      session.setPrivileges('simple')
      return [id, session.id]
    })
    expect(id).toBe(before)
    expect(after).toBe(s.id)
    expect(after).not.toBe(before)
  })

  it('.idleTimeout: 60 minutes by default, set by the example, never below 60', () => {
    const { ds, inSession } = setup()
    const guest = ds.sessions.openGuest()
    const user = ds.sessions.openGuest()
    inSession(user, (session) => session.setPrivileges('simple'))
    const example = (session: WebSession) => {
      if (session.isGuest()) session.idleTimeout = 60
      else session.idleTimeout = 120
      return session.idleTimeout
    }
    expect(inSession(guest, (session) => session.idleTimeout)).toBe(60)
    expect(inSession(guest, example)).toBe(60)
    expect(inSession(user, example)).toBe(120)
    expect(user.timeout).toBe(120 * 60_000)
    expect(inSession(user, (session) => ((session.idleTimeout = 5), session.idleTimeout))).toBe(60)
    expect(thrown(() => inSession(user, (session) => (session.idleTimeout = NaN))).errCode).toBe(
      1806,
    )
  })

  it('.idleTimeout closes the session after that inactivity', () => {
    const { ds, clock, inSession } = setup()
    const s = ds.sessions.openGuest()
    inSession(s, (session) => (session.idleTimeout = 120))
    clock.advance(119 * 60_000)
    expect(ds.sessions.touch(s.id)).toBeDefined()
    clock.advance(120 * 60_000)
    expect(ds.sessions.touch(s.id)).toBeUndefined()
  })

  it('.expirationDate: ISO 8601, recomputed when idleTimeout changes', () => {
    const { ds, clock, inSession } = setup()
    const s = ds.sessions.openGuest()
    clock.advance(60_000)
    const dates = inSession(s, (session) => {
      const first = session.expirationDate
      session.idleTimeout = 90
      return [first, session.expirationDate]
    })
    expect(dates).toEqual(['2024-03-01T11:00:00.000Z', '2024-03-01T11:31:00.000Z'])
  })

  it('.info: what Entistore knows of a web user session', () => {
    const { ds, clock, inSession } = setup()
    const s = ds.sessions.openGuest()
    clock.advance(5_000)
    inSession(s, (session) => session.setPrivileges({ privileges: 'simple', userName: 'ann' }))
    expect(inSession(s, (session) => session.info)).toEqual({
      type: 'rest',
      userName: 'ann',
      creationDateTime: '2024-03-01T10:00:00.000Z',
      state: 'active',
      ID: s.id,
    })
  })

  it('.promote() and .demote(): the search example, LIFO; promoted for this call only', () => {
    const { ds, inSession } = setup()
    const s = ds.sessions.openGuest()
    const search = (session: WebSession) => {
      const promoteId1 = session.promote('admin')
      const promoteId2 = session.promote('superAdmin')
      const total = salaries(session)
      session.demote(promoteId2)
      const still = session.hasPrivilege('admin')
      session.demote(promoteId1)
      return [promoteId1 > 0, promoteId2 > promoteId1, total, still, session.hasPrivilege('admin')]
    }
    // superAdmin includes admin, which admin's promotion gave already: both ids, both taken back.
    expect(inSession(s, search)).toEqual([true, true, 300, true, false])
    expect(thrown(() => inSession(s, (session) => salaries(session))).errCode).toBe(1607)
  })

  it('.promote(): the createInfo example, deciding on the session’s storage', () => {
    const { ds, inSession } = setup()
    const s = ds.sessions.openGuest()
    const createInfo = (session: WebSession) => {
      if (session.storage.role?.name === 'userApp2') {
        const promoteId = session.promote('super_admin')
        const held = session.hasPrivilege('super_admin')
        session.demote(promoteId)
        return held
      }
      return false
    }
    expect(inSession(s, createInfo)).toBe(false)
    inSession(s, (session) => use(session.storage, (st) => (st.role = { name: 'userApp2' })))
    expect(inSession(s, createInfo)).toBe(true)
    // 0 for a privilege the roles file does not declare.
    expect(inSession(s, (session) => session.promote('root'))).toBe(0)
  })

  it('.createOTP() and .restore(): a token of one session restores it in another call', () => {
    const { ds, inSession, clock } = setup()
    const a = ds.sessions.openGuest()
    const token = inSession(a, (session) => {
      session.setPrivileges('WebAdmin')
      use(session.storage, (st) => (st.cart = 3))
      return session.createOTP(60)
    })
    expect(token).toMatch(/^[0-9A-F]{32}$/)
    const b = ds.sessions.openGuest()
    const restored = inSession(b, (session) => [
      session.restore(token),
      session.id,
      session.storage.cart,
      session.hasPrivilege('WebAdmin'),
    ])
    expect(restored).toEqual([true, a.id, 3, true])
    // Used once; an expired one is ignored.
    expect(inSession(b, (session) => session.restore(token))).toBe(false)
    const late = inSession(a, (session) => session.createOTP(60))
    clock.advance(61_000)
    expect(inSession(b, (session) => session.restore(late))).toBe(false)
  })

  it('.storage: the web session example, a client IP stored on first access', () => {
    const { ds, inSession } = setup()
    const s = ds.sessions.openGuest()
    const onWebAuthentication = (session: WebSession, clientIP: string) => {
      if (session.storage.clientIP == null)
        use(session.storage, (st) => (st.clientIP = { value: clientIP }))
      return session.storage.clientIP.value as string
    }
    expect(inSession(s, (session) => onWebAuthentication(session, '10.0.0.1'))).toBe('10.0.0.1')
    expect(inSession(s, (session) => onWebAuthentication(session, '10.0.0.2'))).toBe('10.0.0.1')
    expect(thrown(() => inSession(s, (session) => (session.storage.x = 1))).errCode).toBe(9150)
  })

  it('.quotas: the nbEntitySets example (21 R4)', () => {
    const { ds, inSession } = setup()
    const s = ds.sessions.openGuest()
    inSession(s, (session) => (session.quotas.nbEntitySets = 50))
    expect(inSession(s, (session) => session.quotas.nbEntitySets)).toBe(50)
  })
})
