import { describe, expect, it } from 'vitest'
import { thrown } from '../../errors/thrown.fixture.js'
import { writeClock, writeData, writeModel } from '../../txn/writes.fixture.js'
import { createDatastore, type DatastoreOptions } from './datastore.js'

const fresh = (options: DatastoreOptions = {}) => {
  const clock = writeClock()
  let n = 0
  const ds = createDatastore(writeModel(), {
    data: writeData(),
    clock,
    newUuid: () => `${String(++n).padStart(8, '0')}-0000-0000-0000-000000000000`,
    ...options,
  })
  return { ds, clock, Employee: ds.dataClass('Employee') }
}

describe('entity sets', () => {
  it('keeps a selection in its order under an id that every access renews', () => {
    const { ds, clock, Employee } = fresh()
    const set = Employee.query('salary > 5500 order by salary desc').keep({ timeout: 600 })
    expect(set.id).toMatch(/^[0-9A-F]{32}$/)
    expect(set.selection.toArray().map((e) => e.key)).toEqual([3, 2])
    clock.advance(599_000)
    expect(ds.entitySets.get(set.id)?.selection.length).toBe(2) // renewed here
    clock.advance(599_000)
    expect(ds.entitySets.get(set.id)).toBeDefined()
    clock.advance(600_001)
    expect(ds.entitySets.get(set.id)).toBeUndefined()
    expect(thrown(() => ds.entitySets.getOrFail(set.id)).errCode).toBe(1802)
  })

  it('defaults to two hours, and releases', () => {
    const { ds, clock, Employee } = fresh()
    const set = Employee.all().keep()
    expect(set.timeout).toBe(7200)
    clock.advance(7_199_000)
    expect(ds.entitySets.info()[0]).toMatchObject({ id: set.id, selectionSize: 3, sorted: false })
    expect(ds.entitySets.release(set.id)).toBe(true)
    expect(ds.entitySets.release(set.id)).toBe(false)
  })

  it('keeps deleted members as null and counts them; clean drops them', () => {
    const { Employee } = fresh()
    const set = Employee.all().keep()
    Employee.drop(2)
    expect(set.selection.length).toBe(3)
    expect(set.selection.members().map((e) => e?.key ?? null)).toEqual([1, null, 3])
    const cleaned = set.selection.clean()
    expect(cleaned.length).toBe(2)
    expect(cleaned.clean()).toBe(cleaned)
  })

  it('combines selections of one dataclass, in the first operand’s order', () => {
    const { ds, Employee } = fresh()
    const a = Employee.query('salary >= 6000 order by salary desc')
    const b = Employee.query('salary <= 6000')
    expect(
      a
        .and(b)
        .toArray()
        .map((e) => e.key),
    ).toEqual([2])
    expect(
      a
        .or(b)
        .toArray()
        .map((e) => e.key),
    ).toEqual([3, 2, 1])
    expect(
      a
        .minus(b)
        .toArray()
        .map((e) => e.key),
    ).toEqual([3])
    expect(a.intersects(b)).toBe(true)
    expect(thrown(() => a.and(ds.dataClass('Company').all())).errCode).toBe(1803)
  })

  it('bounds memory: evicts the least recently used, or refuses with 9060', () => {
    const evicting = fresh({ entitySets: { maxSets: 3 } })
    const ids = Array.from({ length: 5 }, () => evicting.Employee.all().keep().id)
    expect(evicting.ds.entitySets.size).toBe(3)
    expect(evicting.ds.entitySets.get(ids[0]!)).toBeUndefined()
    expect(evicting.ds.entitySets.get(ids[4]!)).toBeDefined()
    const refusing = fresh({ entitySets: { maxMembers: 7, whenFull: 'refuse' } })
    refusing.Employee.all().keep()
    refusing.Employee.all().keep()
    expect(thrown(() => refusing.Employee.all().keep()).errCode).toBe(9060)
  })
})
