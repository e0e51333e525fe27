/**
 * Writing a computed attribute: with a set function, its value becomes the assignments the function
 * returns, checked like any write and staged whole or not at all; without one, it is read-only.
 */
import { describe, expect, it } from 'vitest'
import { thrown } from '../errors/thrown.fixture.js'
import { computedStore } from '../orda/objects/computed.fixture.js'
import { createDatastore, type Datastore } from '../orda/objects/datastore.js'
import type { ComputedAttributeFunctions } from '../schema/definitions.js'
import { writingDatastore } from '../orda/writes/writing.js'

const names = (ds: Datastore, key: number) => {
  const e = ds.dataClass('Employee').get(key)!
  return [e.get('firstName'), e.get('lastName'), e.getStamp()]
}

/** A store whose fullName's set returns what `set` gives. */
const withSet = (set: NonNullable<ComputedAttributeFunctions['set']>) =>
  computedStore({
    functions: { get: (e) => `${String(e.get('firstName'))} ${String(e.get('lastName'))}`, set },
  }).ds

/** Every entity's values and stamp, and the global stamp: what a refused write must not change. */
const state = (ds: Datastore) => ({
  stamp: ds.globalStamp,
  rows: ds
    .dataClass('Employee')
    .all()
    .toArray()
    .map((e) => [e.getKey(), e.getStamp(), { ...e.values }]),
})

describe('a computed attribute with a set function', () => {
  it('is written through it on create, with this null and 4D’s event', () => {
    const { ds, log } = computedStore()
    const e = ds.dataClass('Employee').create({ fullName: 'Marie Curie', salary: 1 })
    expect([e.get('firstName'), e.get('lastName'), e.get('fullName')]).toEqual([
      'Marie',
      'Curie',
      'Marie Curie',
    ])
    expect(log.set).toEqual([
      {
        self: null,
        value: 'Marie Curie',
        event: {
          attributeName: 'fullName',
          dataClassName: 'Employee',
          kind: 'set',
          value: 'Marie Curie',
        },
      },
    ])
    expect(Object.isFrozen(log.set[0]!.event)).toBe(true)
  })

  it('finds the datastore of its write on create, where it has no this (writing.ts)', () => {
    const seen: unknown[] = []
    const ds = withSet(function (value) {
      seen.push(this, writingDatastore())
      const [firstName, lastName] = String(value).split(' ')
      return { firstName, lastName }
    })
    ds.dataClass('Employee').create({ fullName: 'Marie Curie', salary: 1 })
    ds.dataClass('Employee').update(6, { fullName: 'Flora Martin' })
    expect(seen).toEqual([null, ds, expect.anything(), ds])
    expect(writingDatastore()).toBeUndefined()
  })

  it('is written through it on update, with this the version being updated', () => {
    const { ds, log } = computedStore()
    const before = ds.dataClass('Employee').get(6)!
    const after = ds.dataClass('Employee').update(6, { fullName: 'Flora Martin' })
    expect(names(ds, 6)).toEqual(['Flora', 'Martin', 2])
    expect(log.set[0]!.self).toBe(before)
    expect(after.get('fullName')).toBe('Flora Martin')
  })

  it('is written through drafts, new and edited', () => {
    const { ds } = computedStore()
    const Employee = ds.dataClass('Employee')
    const made = Employee.new().set('fullName', 'Ada Lovelace').saveOrFail()
    expect([made.get('firstName'), made.get('lastName')]).toEqual(['Ada', 'Lovelace'])
    Employee.get(1)!.edit({ fullName: 'Ann Smyth' }).saveOrFail()
    expect(names(ds, 1)).toEqual(['Ann', 'Smyth', 2])
  })

  it('sees the version its own transaction staged', () => {
    const { ds, log } = computedStore()
    const Employee = ds.dataClass('Employee')
    ds.transaction(() => {
      Employee.update(2, { salary: 3100 })
      Employee.update(2, { fullName: 'Bob Smyth' })
    })
    const self = log.set[0]!.self as { get(n: string): unknown; getStamp(): number }
    expect([self.get('salary'), self.getStamp()]).toEqual([3100, 2])
    expect(names(ds, 2)).toEqual(['Bob', 'Smyth', 3])
  })

  it('lets a value the write names itself win over the one set gives', () => {
    const { ds } = computedStore()
    ds.dataClass('Employee').update(3, { fullName: 'Anna Jonas', lastName: 'Jones-Smith' })
    expect(names(ds, 3)).toEqual(['Anna', 'Jones-Smith', 2])
    // In either order of the names.
    ds.dataClass('Employee').update(3, { firstName: 'Annie', fullName: 'X Y' })
    expect(names(ds, 3)).toEqual(['Annie', 'Y', 3])
  })

  it('gives set the value converted to the attribute’s type', () => {
    const { ds, log } = computedStore()
    ds.dataClass('Employee').update(4, { fullName: 42 })
    expect(log.set[0]!.value).toBe('42')
    expect(names(ds, 4)).toEqual(['42', '', 2])
    ds.dataClass('Employee').update(4, { fullName: null })
    expect(log.set[1]!.value).toBeNull()
  })

  it('writes nothing when set returns nothing', () => {
    for (const answer of [undefined, null, {}]) {
      const ds = withSet(() => answer)
      const before = state(ds)
      ds.dataClass('Employee').update(5, { fullName: 'x y' })
      expect(names(ds, 5)).toEqual(['Dana', 'White', 2])
      expect(ds.globalStamp).toBe(before.stamp + 1)
    }
  })

  it('refuses assignments that no write could make, and writes nothing', () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ salary: 'lots' }, 1570, 'salary'],
      [{ nickName: 'x' }, 1500, 'nickName'],
      [{ bossName: 'x' }, 1516, 'bossName'],
      [{ fullName: 'a b' }, 1516, 'fullName'],
      [{ manager: 99 }, 1570, 'manager'],
      [{ secret: 3, salary: null, employer: { nope: 1 } }, 1570, 'employer'],
    ]
    for (const [assignments, code, name] of cases) {
      const ds = withSet(() => ({ firstName: 'Changed', ...assignments }))
      const before = state(ds)
      const e = thrown(() =>
        ds.dataClass('Employee').update(5, { fullName: 'a b', lastName: 'Not written' }),
      )
      expect(e.errCode, JSON.stringify(assignments)).toBe(code)
      expect(e.message).toContain(`"${name}"`)
      expect(state(ds)).toEqual(before)
      // A create too, inside a transaction that goes on and commits what it staged.
      ds.transaction(() => {
        expect(thrown(() => ds.dataClass('Employee').create({ fullName: 'a b' })).errCode).toBe(
          code,
        )
        ds.dataClass('Employee').update(1, { salary: 5001 })
      })
      expect(ds.dataClass('Employee').all().length).toBe(8)
      expect(names(ds, 1)).toEqual(['Ann', 'Smith', 2])
    }
    // A changed primary key too (an update only: a create may give its key).
    const ds = withSet(() => ({ ID: 77 }))
    expect(thrown(() => ds.dataClass('Employee').update(5, { fullName: 'a b' })).errCode).toBe(1516)
    expect(ds.dataClass('Employee').get(77)).toBeNull()
  })

  it('refuses a value that is not of the attribute’s type before calling set', () => {
    let calls = 0
    const ds = computedStore({
      functions: {
        get: () => 1,
        set: () => {
          calls++
          return {}
        },
      },
    }).ds
    // fullName is a string: an object cannot be one.
    const e = thrown(() => ds.dataClass('Employee').update(1, { fullName: { a: 1 } }))
    expect(e.errCode).toBe(1570)
    expect(calls).toBe(0)
  })

  it('lets its own error through, and writes nothing', () => {
    const oops = new Error('no')
    const ds = withSet(() => {
      throw oops
    })
    const before = state(ds)
    expect(() => ds.dataClass('Employee').update(1, { fullName: 'a b', salary: 2 })).toThrow(oops)
    expect(state(ds)).toEqual(before)
  })

  it('is an Internal error (9099) when set returns something else than assignments', () => {
    for (const answer of ['firstName', 3, ['a']]) {
      const ds = withSet(() => answer as never)
      const e = thrown(() => ds.dataClass('Employee').update(1, { fullName: 'a b' }))
      expect(e.errCode).toBe(9099)
      expect(e.message).toContain('the set function of Employee.fullName returned')
    }
  })

  it('is refused when two set functions give one attribute two values', () => {
    const ds = createDatastore(
      {
        dataClasses: [
          {
            name: 'T',
            attributes: [
              { name: 'ID', type: 'long' },
              { name: 'a', type: 'string' },
              { name: 'x', kind: 'calculated', type: 'string' },
              { name: 'y', kind: 'calculated', type: 'string' },
            ],
          },
        ],
      },
      {
        data: { T: [{ ID: 1, a: 'start' }] },
        calculated: {
          T: { x: { set: (v) => ({ a: v }) }, y: { set: (v) => ({ a: `${String(v)}!` }) } },
        },
      },
    )
    const T = ds.dataClass('T')
    const e = thrown(() => T.update(1, { x: 'one', y: 'two' }))
    expect(e.errCode).toBe(1570)
    expect(e.message).toContain('the set functions of "x" and "y" give it different values')
    expect(T.get(1)!.get('a')).toBe('start')
    // The same value twice is one assignment; an explicit value wins over both.
    T.update(1, { x: 'same!', y: 'same' })
    expect(T.get(1)!.get('a')).toBe('same!')
    T.update(1, { x: 'one', y: 'two', a: 'mine' })
    expect(T.get(1)!.get('a')).toBe('mine')
    // Without get, a computed attribute reads null.
    expect(T.get(1)!.get('x')).toBeNull()
  })
})

describe('what a set function assigns is written as its caller', () => {
  // A session that may write anything of Employee but its lastName.
  const asNoLastName = <T>(ds: Datastore, fn: () => T): T =>
    ds.actAs(ds.sessions.open(), fn, {
      authorize: (_s, action, target) =>
        !(action !== 'read' && action !== 'describe' && target.attribute === 'lastName'),
    })

  it('refuses, whole, a write whose setter assigns what the caller may not write', () => {
    const ds = withSet((v) => {
      const [firstName, lastName] = String(v).split(' ')
      return { firstName, lastName }
    })
    const before = state(ds)
    const E = ds.dataClass('Employee')
    for (const write of [
      () => E.update(6, { fullName: 'Flora Martin' }),
      () => E.get(6)!.edit({ fullName: 'Flora Martin' }).saveOrFail(),
      () => E.create({ fullName: 'Marie Curie' }),
    ]) {
      const e = thrown(() => asNoLastName(ds, write))
      expect(e.errCode).toBe(1608)
      expect(e.message).toContain('lastName')
      expect(e.message).toContain('(in what the set function of Employee.fullName returned)')
    }
    expect(state(ds)).toEqual(before)
    // Named by the write itself, it is refused as any write of it.
    expect(thrown(() => asNoLastName(ds, () => E.update(6, { lastName: 'X' }))).errCode).toBe(1608)
  })

  it('asks about what is finally stored: not what the write’s own value replaces', () => {
    const ds = withSet((v) => {
      const [firstName, lastName] = String(v).split(' ')
      return { firstName, lastName }
    })
    const E = ds.dataClass('Employee')
    // The write's own null (the default, which a creation needs no permission for) wins over the
    // set function's lastName: nothing of lastName is stored, nothing is asked.
    const made = asNoLastName(ds, () => E.create({ fullName: 'Marie Curie', lastName: null }))
    expect([made.get('firstName'), made.get('lastName')]).toEqual(['Marie', null])
    const e = thrown(() => asNoLastName(ds, () => E.create({ fullName: 'Marie Curie' })))
    expect(e.errCode).toBe(1608)
  })
})

describe('a computed attribute without a set function', () => {
  it('is read-only, as before (1516)', () => {
    const { ds } = computedStore({ plain: true })
    const before = state(ds)
    const e = thrown(() => ds.dataClass('Employee').update(1, { fullName: 'A B' }))
    expect(e.errCode).toBe(1516)
    expect(e.message).toContain('computed on read')
    expect(thrown(() => ds.dataClass('Employee').create({ fullName: 'A B' })).errCode).toBe(1516)
    expect(state(ds)).toEqual(before)
  })
})
