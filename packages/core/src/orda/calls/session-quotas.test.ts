/**
 * 4D 21 R4's `Session.quotas` (versioned_docs/version-21-R4/API/QuotaManagerClass.md and
 * API/SessionClass.md `.quotas`, 4d/docs): per session, `nbEntitySets` (0: no limit; past it a new
 * set is refused "until at least one entity set is released"), `defaultEntitySetTimeout` (7200 s,
 * for sets made afterwards), `maxEntitySetTimeout` (a longer `$timeout` is aligned down to it),
 * `currentValues` (read-only counts); a value <= 0 is an error, undefined resets. Over HTTP (the
 * 429, a function setting them): rest/src/read/session-quotas.test.ts.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { LockOwner } from '../../locks/lock-table.js'
import type { EntitySetStoreOptions } from '../../sets/entity-set-store.js'
import { writeClock, writeData, writeModel } from '../../txn/writes.fixture.js'
import { createDatastore } from '../objects/datastore.js'
import { quotaManager } from './session-quotas.js'

function shop(entitySets: EntitySetStoreOptions = {}) {
  const clock = writeClock()
  // Sessions outlive every set here: a set goes with its session at the latest.
  const ds = createDatastore(writeModel(), {
    data: writeData(),
    clock,
    entitySets,
    sessions: { inactivityTimeout: 48 * 3_600_000 },
  })
  const session = ds.sessions.open()
  const quotas = quotaManager(ds.entitySets, () => session)
  const as = <T>(s: { id: string }, fn: () => T): T =>
    ds.runAs({ kind: 'session', id: s.id } satisfies LockOwner, fn)
  const Employee = ds.dataClass('Employee')
  const keep = (timeout?: number) =>
    as(session, () => Employee.all().keep(timeout === undefined ? {} : { timeout }))
  return { ds, clock, session, quotas, as, keep, Employee }
}

/** The errCode a call throws, or undefined when it does not. */
const errCodeOf = (fn: () => unknown): number | undefined => {
  try {
    fn()
    return undefined
  } catch (e) {
    return (e as { errCode?: number }).errCode
  }
}

describe('Session.quotas (4D 21 R4)', () => {
  // QuotaManagerClass.md: "By default, there is no limit ... (the value is 0)"; past it, a request
  // "will get a 429 ... until at least one entity set is released".
  it('nbEntitySets: 0 by default; past it a new set is refused until one is released', () => {
    const { ds, quotas, keep, as, Employee } = shop()
    expect(quotas.nbEntitySets).toBe(0)
    quotas.nbEntitySets = 2
    expect(quotas.nbEntitySets).toBe(2)
    const first = keep()
    keep()
    expect(errCodeOf(keep)).toBe(9061)
    // Only this session is held: another session and the process keep sets as before.
    const other = ds.sessions.open()
    expect(as(other, () => Employee.all().keep()).owner.id).toBe(other.id)
    expect(Employee.all().keep().owner.kind).toBe('process')
    expect(ds.entitySets.release(first.id)).toBe(true)
    expect(keep().id).toMatch(/^[0-9A-F]{32}$/)
    expect(errCodeOf(keep)).toBe(9061)
    quotas.nbEntitySets = undefined
    expect(quotas.nbEntitySets).toBe(0)
    keep()
  })

  // SessionClass.md `.quotas`: currentValues.nbEntitySets, "Undefined = no entity set in memory".
  it('currentValues counts the session’s live sets, and an expired set frees its place', () => {
    const { quotas, keep, clock } = shop()
    expect(quotas.currentValues).toEqual({})
    quotas.nbEntitySets = 1
    keep(60)
    expect(quotas.currentValues).toEqual({ nbEntitySets: 1 })
    expect(errCodeOf(keep)).toBe(9061)
    clock.advance(60_001)
    expect(quotas.currentValues).toEqual({})
    keep()
    expect(quotas.currentValues).toEqual({ nbEntitySets: 1 })
  })

  // QuotaManagerClass.md: "You cannot pass a value <=0 (an error is generated in this case). To
  // reset the property value for the session, pass undefined."
  it('refuses a value <= 0 (and any that is not a whole number) with 9062, keeping the old one', () => {
    const { quotas } = shop()
    quotas.nbEntitySets = 5
    quotas.defaultEntitySetTimeout = 100
    quotas.maxEntitySetTimeout = 200
    for (const bad of [0, -1, 1.5, Number.NaN, Infinity, '3' as unknown as number]) {
      expect(errCodeOf(() => (quotas.nbEntitySets = bad))).toBe(9062)
      expect(errCodeOf(() => (quotas.defaultEntitySetTimeout = bad))).toBe(9062)
      expect(errCodeOf(() => (quotas.maxEntitySetTimeout = bad))).toBe(9062)
    }
    expect([
      quotas.nbEntitySets,
      quotas.defaultEntitySetTimeout,
      quotas.maxEntitySetTimeout,
    ]).toEqual([5, 100, 200])
  })

  // QuotaManagerClass.md `.defaultEntitySetTimeout`: 7200 s by default, "used for any entity set
  // created afterwards in the session (existing entity set default timeout values are not
  // modified)"; above maxEntitySetTimeout "it will be aligned with" it.
  it('defaultEntitySetTimeout: 7200 s, for the sets made afterwards, aligned to the maximum', () => {
    const { ds, quotas, keep, as, Employee } = shop()
    expect(quotas.defaultEntitySetTimeout).toBe(7200)
    const before = keep()
    quotas.defaultEntitySetTimeout = 1200
    expect(keep().timeout).toBe(1200)
    expect(keep(30).timeout).toBe(30) // a $timeout still says
    expect(ds.entitySets.get(before.id)!.timeout).toBe(7200)
    expect(as(ds.sessions.open(), () => Employee.all().keep()).timeout).toBe(7200)
    quotas.maxEntitySetTimeout = 600
    expect(quotas.defaultEntitySetTimeout).toBe(600)
    expect(keep().timeout).toBe(600)
    quotas.defaultEntitySetTimeout = undefined
    quotas.maxEntitySetTimeout = undefined
    expect(keep().timeout).toBe(7200)
  })

  // QuotaManagerClass.md `.maxEntitySetTimeout`: "the timeout defined in the request is ignored
  // and the entity set will be released after 40 minutes if not used" (2400 s, $timeout=3000).
  it('maxEntitySetTimeout: a longer $timeout is aligned down; the datastore’s maxTimeout stays outer', () => {
    const { ds, clock, quotas, keep } = shop({ maxTimeout: 10_000 })
    expect(quotas.maxEntitySetTimeout).toBe(10_000)
    quotas.maxEntitySetTimeout = 2400
    const set = keep(3000)
    expect(set.timeout).toBe(2400)
    clock.advance(2_400_001)
    expect(ds.entitySets.get(set.id)).toBeUndefined()
    quotas.maxEntitySetTimeout = 1_000_000
    expect(quotas.maxEntitySetTimeout).toBe(10_000)
    expect(keep(1e9).timeout).toBe(10_000)
  })

  it('the datastore’s per-session bound stays the outer limit (it evicts as configured)', () => {
    const { quotas, keep, ds } = shop({ maxSetsPerSession: 2 })
    quotas.nbEntitySets = 5
    const first = keep()
    keep()
    keep()
    expect(ds.entitySets.has(first.id)).toBe(false)
    expect(quotas.currentValues).toEqual({ nbEntitySets: 2 })
  })

  it('follow the session when a login renews its id, and apply to what it then keeps', () => {
    const { ds, quotas, keep, session } = shop()
    quotas.nbEntitySets = 1
    keep()
    const before = session.id
    ds.sessions.renew(session.id, { user: { name: 'ann' } })
    expect(session.id).not.toBe(before)
    expect(quotas.nbEntitySets).toBe(1)
    expect(quotas.currentValues).toEqual({ nbEntitySets: 1 })
    expect(errCodeOf(keep)).toBe(9061)
  })

  it('without a session: the defaults are read, and writes throw', () => {
    const { ds } = shop()
    const none = quotaManager(ds.entitySets, () => undefined)
    expect([none.nbEntitySets, none.defaultEntitySetTimeout, none.currentValues]).toEqual([
      0,
      7200,
      {},
    ])
    expect(() => (none.nbEntitySets = 3)).toThrow(/no session/)
  })

  it('a session never keeps more live sets than its nbEntitySets, and is refused only at it', () => {
    type Op =
      | { t: 'quota'; n: number | undefined }
      | { t: 'keep'; timeout: number }
      | { t: 'release'; i: number }
      | { t: 'wait'; ms: number }
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({
        t: fc.constant('quota' as const),
        n: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
      }),
      fc.record({ t: fc.constant('keep' as const), timeout: fc.integer({ min: 1, max: 5 }) }),
      fc.record({ t: fc.constant('release' as const), i: fc.nat(5) }),
      fc.record({ t: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 3000 }) }),
    )
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const { ds, clock, quotas, keep } = shop()
        const live: { id: string; until: number }[] = []
        let limit = 0
        // Sets past their lifetime are gone, as the store sees them.
        const expire = () => {
          for (let i = live.length - 1; i >= 0; i--)
            if (live[i]!.until < clock.now()) live.splice(i, 1)
        }
        for (const o of ops) {
          expire()
          if (o.t === 'quota') {
            quotas.nbEntitySets = o.n
            limit = o.n ?? 0
          } else if (o.t === 'keep') {
            const full = limit > 0 && live.length >= limit
            const code = errCodeOf(() => {
              const set = keep(o.timeout)
              live.push({ id: set.id, until: clock.now() + o.timeout * 1000 })
            })
            expect(code).toBe(full ? 9061 : undefined)
          } else if (o.t === 'release') {
            const set = live[o.i % Math.max(1, live.length)]
            if (set) {
              expect(ds.entitySets.release(set.id)).toBe(true)
              live.splice(live.indexOf(set), 1)
            }
          } else clock.advance(o.ms)
          expire()
          expect(quotas.currentValues.nbEntitySets ?? 0).toBe(live.length)
        }
      }),
      { numRuns: 150 },
    )
  })
})
