/**
 * The session calls a function reaches through `currentCall()`, from 4D's pages (repository
 * 4d/docs): API/SessionClass.md (`.promote()`, `.demote()`, `.hasPrivilege()` "returns True for
 * promoted privileges", `.createOTP()`, `.restore()`, `.storage`) and Concepts/classes.md
 * ("Singleton classes": `session singleton Class constructor`, one instance per session).
 * Sessions act through `ds.actAs`, as a REST request's code does.
 */
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../clock/clock.js'
import { thrown } from '../../errors/thrown.fixture.js'
import { sessionSingleton, singleton } from '../../functions/define.js'
import { use } from '../../sessions/session-storage.js'
import type { Session } from '../../sessions/session-api.js'
import { currentCall } from '../current-call/current-call.js'
import { createDatastore } from '../objects/datastore.js'
import { defineFunctions } from '../objects/define-functions.js'
import { payrollData, payrollModel, payrollRoles } from './session-calls.fixture.js'

const sum = (): number =>
  (currentCall()!.datastore.dataClass('Employee').all().sum('salary') as number) ?? 0

// What each function saw, in order.
let seen: unknown[] = []
const functions = defineFunctions({
  dataStore: {
    promoted: {
      call() {
        const call = currentCall()!
        const before = call.hasPrivilege('payroll')
        const id = call.promote('payroll')
        seen = [before, id > 0, call.hasPrivilege('payroll'), sum(), call.promote('payroll')]
        call.demote(id)
        seen.push(call.hasPrivilege('payroll'))
        return sum()
      },
    },
    promoteAndCall: {
      call() {
        const call = currentCall()!
        call.promote('boss')
        // Included privileges come with it; a function it calls runs in the same "process".
        return [call.hasPrivilege('payroll'), call.datastore.call('readSalaries')]
      },
    },
    readSalaries: {
      call: sum,
    },
    statically: {
      call() {
        // Already promoted by roles.json: promote() adds nothing.
        return currentCall()!.promote('payroll')
      },
    },
    undeclared: {
      call() {
        return [currentCall()!.promote('nobody'), currentCall()!.promote('guest')]
      },
    },
    later: {
      async call() {
        const call = currentCall()!
        call.promote('payroll')
        await new Promise((resolve) => setImmediate(resolve))
        return sum()
      },
    },
    token: {
      call(lifespan?: number) {
        const call = currentCall()!
        use(call.storage!, (s) => (s.step = 'waiting'))
        return call.createOTP(lifespan)
      },
    },
    restore: {
      call(token: string) {
        const call = currentCall()!
        const ok = call.restore(token)
        return [ok, call.session?.id, call.storage?.step, call.hasPrivilege('payroll')]
      },
    },
    outside: {
      call() {
        const call = currentCall()!
        return [call.createOTP(), call.restore('x'), call.storage, call.promote('payroll')]
      },
    },
    cart: {
      call(item: string) {
        const me = currentCall()!.datastore.singleton('Cart')
        me.call('add', item)
        return me.state
      },
    },
  },
  singletons: {
    Cart: sessionSingleton(() => ({ items: [] as string[] }), {
      add: {
        call(item: string) {
          this.items.push(item)
        },
      },
    }),
    Hits: singleton(() => ({ n: 0 }), {
      hit: {
        call() {
          return ++this.n
        },
      },
    }),
  },
})

function setup() {
  const clock = new ManualClock()
  const ds = createDatastore(payrollModel, {
    clock,
    roles: payrollRoles,
    functions,
    data: payrollData(),
  })
  const as = <T>(session: Session, fn: () => T): T => ds.actAs(session, fn)
  return { ds, clock, as }
}

/** The errCode of the DatastoreError `fn` throws. */
const thrownCode = (fn: () => unknown): number => thrown(fn).errCode

describe('promote() and demote() (SessionClass.md, 20 R10)', () => {
  it('adds a privilege to the calling function while it runs, hasPrivilege included; demote takes it back', () => {
    const { ds, as } = setup()
    const s = ds.sessions.open()
    // demote() before the end: the last read is refused again.
    expect(thrownCode(() => as(s, () => ds.call('promoted')))).toBe(1607)
    expect(seen).toEqual([false, true, true, 300, 0, false])
    // The session never held it.
    expect(thrownCode(() => as(s, () => ds.call('readSalaries')))).toBe(1607)
  })

  it('reaches the functions it calls, with what the privilege includes; ends with the call', () => {
    const { ds, as } = setup()
    const s = ds.sessions.open()
    expect(as(s, () => ds.call('promoteAndCall'))).toEqual([true, 300])
    expect(thrownCode(() => as(s, () => ds.call('readSalaries')))).toBe(1607)
  })

  it('returns 0 for a privilege roles.json does not declare, or one already promoted', () => {
    const { ds, as } = setup()
    const s = ds.sessions.open()
    expect(as(s, () => ds.call('undeclared'))).toEqual([0, 0])
    expect(as(s, () => ds.call('statically'))).toBe(0)
    // Outside a request the code has every right: nothing to promote.
    expect(ds.call('undeclared')).toEqual([0, 0])
  })

  it('keeps the promotion across the function’s awaits, and no interleaved call sees it', async () => {
    const { ds, as } = setup()
    const s = ds.sessions.open()
    const later = as(s, () => ds.call('later')) as Promise<number>
    expect(thrownCode(() => as(s, () => ds.call('readSalaries')))).toBe(1607)
    expect(await later).toBe(300)
  })
})

describe('createOTP(), restore() and storage from a function (SessionClass.md, 20 R9)', () => {
  it('a token made in one session restores it in another call, with its storage and privileges', () => {
    const { ds, as } = setup()
    const a = ds.sessions.openGuest()
    ds.sessions.renew(a.id, { user: { name: 'ann', privileges: ['payroll'] } })
    const token = as(a, () => ds.call('token')) as string
    expect(token).toMatch(/^[0-9A-F]{32}$/)
    const b = ds.sessions.open()
    expect(as(b, () => ds.call('restore', token))).toEqual([true, a.id, 'waiting', true])
    // Used once.
    expect(as(b, () => ds.call('restore', token))).toEqual([false, b.id, undefined, false])
  })

  it('restores nothing for an expired token; a guest that asks for one is established', () => {
    const { ds, as, clock } = setup()
    const a = ds.sessions.openGuest()
    const token = as(a, () => ds.call('token', 10)) as string
    expect(a.established).toBe(true)
    clock.advance(10_000)
    const b = ds.sessions.open()
    expect(as(b, () => ds.call('restore', token))).toEqual([false, b.id, undefined, false])
    expect(thrownCode(() => as(a, () => ds.call('token', Number.NaN)))).toBe(9151)
  })

  it('answers 4D’s "other context" values without a session: "", false, no storage, 0', () => {
    const { ds } = setup()
    expect(ds.call('outside')).toEqual(['', false, undefined, 0])
  })
})

describe('session singletons (Concepts/classes.md, 20 R7)', () => {
  it('one instance per session, made on its first call; a shared singleton stays one', () => {
    const { ds, as } = setup()
    const [a, b] = [ds.sessions.openGuest(), ds.sessions.open()]
    as(a, () => ds.call('cart', 'apple'))
    expect(as(a, () => ds.call('cart', 'pear'))).toEqual({ items: ['apple', 'pear'] })
    expect(as(b, () => ds.singleton('Cart').state)).toEqual({ items: [] })
    expect(a.established).toBe(true)
    as(a, () => ds.singleton('Hits').call('hit'))
    expect(as(b, () => ds.singleton('Hits').call('hit'))).toBe(2)
    // Outside any session: refused, 9152.
    expect(thrownCode(() => ds.singleton('Cart'))).toBe(9152)
    ds.functions.resetSingletons()
    expect(as(a, () => ds.singleton('Cart').state)).toEqual({ items: [] })
  })
})
