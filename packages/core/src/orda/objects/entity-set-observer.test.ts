/**
 * What the entity-set cache tells an observer, and a set kept again with the life it has left:
 * the hooks through which processes serving one datastore share their sets.
 */
import { describe, expect, it } from 'vitest'
import { writeClock, writeData, writeModel } from '../../txn/writes.fixture.js'
import { createDatastore } from './datastore.js'

describe('entity-set observers', () => {
  it('are told of each set kept, read and released, never of a peek, an expiry or a miss', () => {
    const clock = writeClock()
    const ds = createDatastore(writeModel(), { data: writeData(), clock })
    const log: string[] = []
    ds.entitySets.observe({
      kept: (s) => log.push(`kept ${s.dataClass} [${s.rowIds.join()}] ${s.timeout}`),
      touched: (s) => log.push(`touched ${s.rowIds.length}`),
      released: (id) => log.push(`released ${id === set.id}`),
    })
    const Employee = ds.dataClass('Employee')
    const set = Employee.query('salary > 5500 order by salary desc').keep({ timeout: 60 })
    ds.entitySets.get(set.id)
    ds.entitySets.info()
    ds.entitySets.get('NOPE')
    expect(ds.entitySets.release(set.id)).toBe(true)
    expect(ds.entitySets.release(set.id)).toBe(false)
    const short = Employee.all().keep({ timeout: 1 })
    log.length = 0
    clock.advance(1001)
    expect(ds.entitySets.get(short.id)).toBeUndefined()
    expect(log).toEqual([])
    expect(Employee.all().length).toBeGreaterThan(0)
  })

  it('keeps a set under a given id with the life it has left, its lifetime whole again on access', () => {
    const clock = writeClock()
    const ds = createDatastore(writeModel(), { data: writeData(), clock })
    const Employee = ds.dataClass('Employee')
    const kept = ds.entitySets.keep(Employee.all(), {
      id: 'REMOTE',
      timeout: 60,
      remaining: 10_000,
    })
    expect(kept.id).toBe('REMOTE')
    expect(kept.timeout).toBe(60)
    clock.advance(9_999)
    expect(ds.entitySets.info()[0]).toMatchObject({ id: 'REMOTE', expires: clock.now() + 1 })
    expect(ds.entitySets.get('REMOTE')).toBeDefined() // read: 60 s again
    clock.advance(59_999)
    expect(ds.entitySets.get('REMOTE')).toBeDefined()
    // No life left: not kept at all.
    ds.entitySets.keep(Employee.all(), { id: 'GONE', timeout: 60, remaining: 0 })
    expect(ds.entitySets.get('GONE')).toBeUndefined()
  })
})
