import { describe, expect, it } from 'vitest'
import { thrown } from '../../errors/thrown.fixture.js'
import { writeClock, writeData, writeModel } from '../../txn/writes.fixture.js'
import { createDatastore } from '../objects/datastore.js'

const fresh = () => {
  const clock = writeClock()
  let n = 0
  const ds = createDatastore(writeModel(), {
    data: writeData(),
    clock,
    newUuid: () => `00000000-0000-0000-0000-${String(++n).padStart(12, '0')}`,
    calculated: { Employee: { fullName: (e) => `#${String(e.get('lastName'))}` } },
  })
  return { ds, clock, Employee: ds.dataClass('Employee'), Company: ds.dataClass('Company') }
}

describe('create', () => {
  it('saves with stamp 1, the clock time, the next autosequence, and moves the global stamp', () => {
    const { ds, clock, Employee } = fresh()
    clock.advance(1000)
    const e = Employee.create({ lastName: 'Curie', salary: '4500', employer: 2 })
    expect(e.key).toBe(4)
    expect(e.stamp).toBe(1)
    expect(e.timestamp).toBe(Date.UTC(2026, 0, 1) + 1000)
    expect(e.get('salary')).toBe(4500)
    expect((e.get('employer') as { key: number }).key).toBe(2)
    expect(Employee.get(4)).toBe(e)
    expect(ds.globalStamp).toBe(1)
    expect(Employee.query('salary = 4500').length).toBe(1)
  })

  it('generates uuid keys', () => {
    const { ds } = fresh()
    const t = ds.dataClass('Tag').create({ label: 'x' })
    expect(t.key).toBe('000000000000000000000000000000001'.slice(1))
  })

  it('refuses bad values with one clear error each, and saves nothing', () => {
    const { ds, Employee, Company } = fresh()
    const cases: [() => unknown, string, number][] = [
      [() => Employee.create({ nope: 1 }), 'UnknownAttribute', 1500],
      [() => Employee.create({ fullName: 'x' }), 'AttributeReadOnly', 1516],
      [() => Employee.create({ companyName: 'x' }), 'AttributeReadOnly', 1516],
      [() => Company.create({ staff: [1] }), 'AttributeReadOnly', 1516],
      [() => Employee.create({ salary: 'lots' }), 'InvalidAttributeValue', 1570],
      [() => Company.create({ code: 'ZZ' }), 'InvalidAttributeValue', 1570], // name is not null
      [() => Employee.create({ email: 'ADA@acme' }), 'UniqueViolation', 9040],
      [() => Employee.create({ ID: 2 }), 'DuplicateKey', 1545],
      [() => Employee.create({ employer: 99 }), 'InvalidAttributeValue', 1570],
      [() => Employee.create({ employerID: 99 }), 'InvalidAttributeValue', 1570],
      [() => Employee.create({ employer: { nope: 1 } }), 'InvalidAttributeValue', 1570],
    ]
    for (const [fn, name, code] of cases) {
      const e = thrown(fn)
      expect([e.name, e.errCode], e.message).toEqual([name, code])
    }
    expect(ds.globalStamp).toBe(0)
    expect(Employee.length).toBe(3)
    expect(Company.length).toBe(2)
    // The refused autosequence values were not consumed.
    expect(Employee.create({ lastName: 'Next' }).key).toBe(4)
  })

  it('takes a relation as an Entity, a key, {__KEY} or a deferred object', () => {
    const { Employee, Company } = fresh()
    const acme = Company.get(1)!
    for (const employer of [acme, 1, '1', { __KEY: '1' }, { __deferred: { __KEY: '1' } }]) {
      expect(Employee.create({ employer }).get('employerID')).toBe(1)
    }
    expect(Employee.create({ employer: null }).get('employerID')).toBe(null)
  })
})

describe('update', () => {
  it('writes a new version: stamp + 1, other values kept, indexes and columns follow', () => {
    const { ds, Employee } = fresh()
    const before = Employee.get(1)!
    const after = Employee.update(1, { salary: 9000 }, { stamp: 1 })
    expect(after.stamp).toBe(2)
    expect(after.get('lastName')).toBe('Lovelace')
    expect(before.get('salary')).toBe(5000) // the old version is unchanged
    expect(Employee.get(1)).toBe(after)
    expect(Employee.query('salary = 9000').toArray()).toEqual([after])
    expect(Employee.query('salary = 5000').length).toBe(0)
    expect(Object.isFrozen(after.values)).toBe(true)
    expect(ds.globalStamp).toBe(1)
  })

  it('refuses a stale stamp, an unknown key and a changed primary key, writing nothing', () => {
    const { ds, Employee } = fresh()
    Employee.update(1, { salary: 1 })
    expect(thrown(() => Employee.update(1, { salary: 2 }, { stamp: 1 })).errCode).toBe(1263)
    expect(thrown(() => Employee.update(99, { salary: 2 })).errCode).toBe(1542)
    expect(thrown(() => Employee.update(1, { ID: 5 })).errCode).toBe(1516)
    expect(Employee.update(1, { ID: 1 }).stamp).toBe(3) // the same key is not a change
    expect(thrown(() => Employee.update(1, { salary: 'x' })).errCode).toBe(1570)
    expect(Employee.get(1)!.get('salary')).toBe(1)
    expect(ds.globalStamp).toBe(2)
  })

  it('lets two entities swap a unique value only inside one transaction', () => {
    const { ds, Employee } = fresh()
    expect(thrown(() => Employee.update(1, { email: 'alan@acme' })).name).toBe('UniqueViolation')
    ds.transaction(() => {
      Employee.update(1, { email: 'tmp' })
      Employee.update(2, { email: 'ada@acme' })
      Employee.update(1, { email: 'alan@acme' })
    })
    expect(Employee.get(1)!.get('email')).toBe('alan@acme')
    expect(Employee.get(2)!.get('email')).toBe('ada@acme')
    expect(Employee.get(1)!.stamp).toBe(3)
    expect(Employee.query('email = "ada@acme"').toArray()).toEqual([Employee.get(2)])
  })
})

describe('drafts and drops', () => {
  it('edit().saveOrFail() checks the stamp of the version it was made from', () => {
    const { Employee } = fresh()
    const v1 = Employee.get(2)!
    const draft = v1.edit().set('salary', 6100)
    expect(draft.get('salary')).toBe(6100)
    const v2 = draft.saveOrFail()
    expect(v2.stamp).toBe(2)
    expect(draft.set('salary', 6200).saveOrFail().stamp).toBe(3) // the draft follows its saves
    expect(thrown(() => v1.edit({ salary: 1 }).saveOrFail()).name).toBe('StampChanged')
    expect(thrown(() => v2.dropOrFail()).name).toBe('StampChanged')
    Employee.get(2)!.dropOrFail()
    expect(Employee.get(2)).toBeNull()
    expect(thrown(() => v1.dropOrFail({ force: true })).name).toBe('EntityNotFound')
  })

  it('new().saveOrFail() creates, then updates', () => {
    const { Employee } = fresh()
    const draft = Employee.new({ lastName: 'New' })
    expect(draft.isNew()).toBe(true)
    const saved = draft.saveOrFail()
    expect(saved.stamp).toBe(1)
    expect(draft.set('salary', 10).saveOrFail().stamp).toBe(2)
    expect(Employee.get(saved.key)!.get('salary')).toBe(10)
  })

  it('selection.dropOrFail() deletes the live members in one commit', () => {
    const { ds, Employee } = fresh()
    const sel = Employee.query('salary >= 6000')
    Employee.drop(3)
    expect(sel.dropOrFail()).toBe(1)
    expect(Employee.length).toBe(1)
    expect(sel.length).toBe(2)
    expect(sel.members()).toEqual([null, null])
    expect([...sel]).toEqual([])
    expect(ds.globalStamp).toBe(2)
  })
})

describe('ds.transaction', () => {
  it('applies everything at the end, or nothing when the function throws', () => {
    const { ds, Employee, Company } = fresh()
    const result = ds.transaction(() => {
      const c = Company.create({ name: 'Initech', code: 'IT' })
      const e = Employee.create({ lastName: 'Gibbons', employer: c })
      // The transaction's own writes, read by key and found by a query.
      expect(Company.get(c.key)?.get('name')).toBe('Initech')
      expect(Company.query('name = :1', 'Initech').length).toBe(1)
      return e
    })
    expect(Employee.get(result.key)?.get('employerID')).toBe(3)
    const stamp = ds.globalStamp
    expect(() =>
      ds.transaction(() => {
        Employee.update(1, { salary: 1 })
        Company.create({ name: 'Gone', code: 'GO' })
        Employee.update(2, { salary: 'bad' })
      }),
    ).toThrow(/salary/)
    expect(Employee.get(1)!.get('salary')).toBe(5000)
    expect(Company.length).toBe(3)
    expect(ds.globalStamp).toBe(stamp)
    expect(Company.create({ name: 'After', code: 'AF' }).key).toBe(4) // sequence not consumed
  })

  it('gives back the key and sequence of a create refused and caught inside it', () => {
    const { ds, Employee } = fresh()
    ds.transaction(() => {
      expect(thrown(() => Employee.create({ email: 'ada@acme' })).name).toBe('UniqueViolation')
      expect(Employee.create({ lastName: 'Next' }).key).toBe(4)
      expect(thrown(() => Employee.create({ ID: 7, salary: 'x' })).name).toBe(
        'InvalidAttributeValue',
      )
      expect(Employee.create({ ID: 7 }).key).toBe(7)
    })
    expect(ds.store.table('Employee').deletions).toBe(0)
    expect(Employee.create({}).key).toBe(8)
  })

  it('refuses promises, and nests', () => {
    const { ds, Employee } = fresh()
    expect(() => ds.transaction(async () => Employee.update(1, { salary: 1 }))).toThrow(
      /synchronous/,
    )
    expect(Employee.get(1)!.get('salary')).toBe(5000)
    expect(ds.transactionLevel()).toBe(0)
    expect(ds.transaction(() => ds.transaction(() => ds.transactionLevel()))).toBe(2)
  })

  it('sees its own writes: a stamp checked twice, a reference to a new entity, a delete', () => {
    const { ds, Employee, Company } = fresh()
    ds.transaction(() => {
      const v2 = Employee.update(1, { salary: 1 }, { stamp: 1 })
      Employee.update(1, { salary: 2 }, { stamp: v2.stamp })
      expect(thrown(() => Employee.update(1, { salary: 3 }, { stamp: 1 })).name).toBe(
        'StampChanged',
      )
      Company.drop(2)
      expect(thrown(() => Employee.create({ employer: 2 })).errCode).toBe(1570)
    })
    expect(Employee.get(1)!.stamp).toBe(3)
    expect(Company.get(2)).toBeNull()
  })
})
